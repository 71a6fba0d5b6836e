@transfers
Feature: Transferring a repository to another owner
  Only a repository's owner (an owner of its organization, or a site admin) transfers it. The
  repository moves at once when a site admin transfers it, when it goes to the caller's own account,
  or when it goes to an organization where the caller may create repositories: Gitea answers 202 with
  the repository at its new place, and its old place redirects (307) there. Otherwise the transfer
  waits (201, the Repository's repo_transfer names who offered it and who receives it), the recipient
  may read the repository meanwhile, and the recipient accepts it (202) or rejects it (200). An unknown
  new owner is 404, a second transfer while one waits is 409, teams for a user's account are 422 and a
  team of another organization is 403.

  Background:
    Given a user "alice"
    And a user "bob"
    And a private repository "alice/app"

  @gitea
  Scenario: A transfer to another user waits for them
    When "alice" transfers "alice/app" to "bob"
    Then the response status is 201
    And the transfer in the response is offered by "alice" to "bob"
    And the repository "alice/app" belongs to "alice"

  @gitea
  Scenario: The recipient of a waiting transfer may read the repository
    Given "alice" offered "alice/app" to "bob"
    Then "bob" sees the repository "alice/app"

  @gitea
  Scenario: The recipient accepts and the repository moves
    Given "alice" offered "alice/app" to "bob"
    When "bob" accepts the transfer of "alice/app"
    Then the response status is 202
    And the repository "alice/app" belongs to "bob"
    And the repository "alice/app" waits for no transfer

  @gitea
  Scenario: A moved repository's Git data moves with it and is cloned at its new place
    Given the repository "alice/app" has the file "plan.txt" with content "the plan"
    And "alice" offered "alice/app" to "bob"
    And "bob" accepted the transfer of "alice/app"
    When "bob" clones "alice/app" over HTTPS
    Then the clone succeeds
    And the clone of "alice/app" has the file "plan.txt" with content "the plan"

  @gitea
  Scenario: The old place of a moved repository redirects to the new one
    Given "alice" offered "alice/app" to "bob"
    And "bob" accepted the transfer of "alice/app"
    When "bob" fetches "alice/app" at its place before the transfer
    Then the response status is 307
    And the response redirects to the repository "alice/app"

  @gitea
  Scenario: The recipient rejects and the repository stays
    Given "alice" offered "alice/app" to "bob"
    When "bob" rejects the transfer of "alice/app"
    Then the response status is 200
    And the repository "alice/app" belongs to "alice"
    And the repository "alice/app" waits for no transfer

  @gitea
  Scenario: Only the recipient decides on a transfer
    Given "alice" offered "alice/app" to "bob"
    When "alice" accepts the transfer of "alice/app"
    Then the request is refused with status 403
    And the repository "alice/app" belongs to "alice"

  @gitea
  Scenario: Accepting when no transfer waits is not found
    When "alice" accepts the transfer of "alice/app"
    Then the request is refused with status 404

  @gitea
  Scenario: A second transfer while one waits is refused
    Given a user "carol"
    And "alice" offered "alice/app" to "bob"
    When "alice" transfers "alice/app" to "carol"
    Then the request is refused with status 409

  @gitea
  Scenario: A transfer to an unknown owner is not found
    When "alice" transfers "alice/app" to a user that does not exist
    Then the request is refused with status 404

  @gitea
  Scenario: A transfer into an organization the caller owns moves at once
    Given an organization "acme" owned by "alice"
    When "alice" transfers "alice/app" to "acme"
    Then the response status is 202
    And the repository "alice/app" belongs to "acme"

  @gitea
  Scenario: The teams asked for get the transferred repository
    Given an organization "acme" owned by "alice"
    And a team "readers" of "acme" with the permission "read"
    And "bob" is in the team "readers" of "acme"
    When "alice" transfers "alice/app" to "acme" with the teams "readers of acme"
    Then the response status is 202
    And "bob" sees the repository "alice/app"

  @gitea
  Scenario: Teams are refused for a user's account
    Given an organization "acme" owned by "alice"
    And a team "readers" of "acme" with the permission "read"
    When "alice" transfers "alice/app" to "bob" with the teams "readers of acme"
    Then the request is refused with status 422
    And the error message mentions "Teams can only be added to organization-owned repositories"

  @gitea
  Scenario: A team of another organization is refused
    Given an organization "acme" owned by "alice"
    And an organization "other" owned by "alice"
    And a team "readers" of "other" with the permission "read"
    When "alice" transfers "alice/app" to "acme" with the teams "readers of other"
    Then the request is refused with status 403
    And the repository "alice/app" belongs to "alice"

  @gitea
  Scenario: A repository admin who is not its owner may not transfer it
    Given "bob" is a collaborator of "alice/app" with the permission "admin"
    When "bob" transfers "alice/app" to "bob"
    Then the request is refused with status 403

  @gitea
  Scenario: A site admin's transfer moves at once
    When "the admin" transfers "alice/app" to "bob"
    Then the response status is 202
    And the repository "alice/app" belongs to "bob"

  @gitea
  Scenario: A repository name the new owner already has is refused
    Given a repository "bob/app"
    When "the admin" transfers "alice/app" to "bob"
    Then the request is refused with status 422
    And the repository "alice/app" belongs to "alice"

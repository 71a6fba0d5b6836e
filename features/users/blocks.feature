@users
Feature: Blocking users
  A user blocks another with PUT /user/blocks/{username} (an optional ?note=), an organization's owners
  with PUT /orgs/{org}/blocks/{username}; GET answers 204 or 404, DELETE lifts the block. Blocking drops
  the follows both ways and both users' stars, watches and collaborations on the other's repositories.
  It also cancels the repository transfers either offered the other. While blocked, a user cannot follow
  the blocker, star or watch its repositories, open issues or comment there, offer it a repository, or be
  added as a collaborator (403 "user is blocked"). Nobody blocks themself, an organization,
  a member of the blocking organization or a user already blocked (400).

  Background:
    Given a user "alice"
    And a user "bob"
    And a repository "alice/home"

  @gitea
  Scenario: A blocked user is listed and checked
    When "alice" blocks "bob" with the note "spam"
    Then the response status is 204
    And "bob" is blocked by "alice"

  @gitea
  Scenario: The users a user blocks are listed
    Given "alice" has blocked "bob"
    When "alice" lists the users they block
    Then the response lists exactly the users "bob"
    And the response header "X-Total-Count" is "1"

  @gitea
  Scenario: A user not blocked is not found among the blocks
    When "alice" checks whether they block "bob"
    Then the request is refused with status 404

  @gitea
  Scenario: Blocking drops the follows both ways
    Given "bob" is following "alice"
    And "alice" is following "bob"
    When "alice" blocks "bob"
    Then the response status is 204
    And "bob" is not among the followers of "alice"
    And "alice" is not among the followers of "bob"

  @gitea
  Scenario: Blocking drops the blocked user's stars and watches on the blocker's repositories
    Given "bob" starred "alice/home"
    And "bob" is watching "alice/home"
    When "alice" blocks "bob"
    Then the repository "alice/home" has 0 stars
    And "bob" is not among the watchers of "alice/home"

  @gitea
  Scenario: Blocking drops the blocked user's collaborations on the blocker's repositories
    Given a private repository "alice/vault"
    And "bob" is a collaborator of "alice/vault" with the permission "write"
    When "alice" blocks "bob"
    Then "bob" does not see the repository "alice/vault"

  @gitea
  Scenario: A blocked user cannot follow the blocker
    Given "alice" has blocked "bob"
    When "bob" follows "alice"
    Then the request is refused with status 403
    And the error message mentions "user is blocked"

  @gitea
  Scenario: The blocker cannot follow the blocked user either
    Given "alice" has blocked "bob"
    When "alice" follows "bob"
    Then the request is refused with status 403

  @gitea
  Scenario: A blocked user cannot star the blocker's repositories
    Given "alice" has blocked "bob"
    When "bob" stars "alice/home"
    Then the request is refused with status 403
    And the error message mentions "user is blocked"

  @gitea
  Scenario: A blocked user cannot watch the blocker's repositories
    Given "alice" has blocked "bob"
    When "bob" watches "alice/home"
    Then the request is refused with status 403

  @gitea
  Scenario: A blocked user cannot open issues in the blocker's repositories
    Given "alice" has blocked "bob"
    When "bob" opens the issue "Hello" in "alice/home"
    Then the request is refused with status 403
    And "alice/home" has 0 issues

  @gitea
  Scenario: A blocked user cannot comment on the blocker's issues
    Given "alice" opened the issue "Plans" in "alice/home"
    And "alice" has blocked "bob"
    When "bob" comments "me too" on issue 1 of "alice/home"
    Then the request is refused with status 403
    And issue 1 of "alice/home" has 0 comments

  @gitea
  Scenario: A blocked user cannot be added as a collaborator
    Given a private repository "alice/vault"
    And "alice" has blocked "bob"
    When "alice" adds "bob" as a collaborator of "alice/vault" with the permission "read"
    Then the request is refused with status 403
    And "bob" does not see the repository "alice/vault"

  @gitea
  Scenario: Blocking a user twice is refused
    Given "alice" has blocked "bob"
    When "alice" blocks "bob"
    Then the request is refused with status 400

  @gitea
  Scenario: Nobody blocks themself
    When "alice" blocks "alice"
    Then the request is refused with status 400

  @gitea
  Scenario: Nobody blocks an organization
    Given an organization "guild" owned by "bob"
    When "alice" blocks the organization "guild"
    Then the request is refused with status 400

  @gitea
  Scenario: Unblocking lifts the block
    Given "alice" has blocked "bob"
    When "alice" unblocks "bob"
    Then the response status is 204
    And "bob" is not blocked by "alice"

  @gitea
  Scenario: An unblocked user may star the repositories again
    Given "alice" has blocked "bob"
    And "alice" unblocked "bob"
    When "bob" stars "alice/home"
    Then the response status is 204
    And the repository "alice/home" has 1 stars

  @gitea
  Scenario: Unblocking a user who is not blocked is refused
    When "alice" unblocks "bob"
    Then the request is refused with status 400

  @gitea
  Scenario: Blocking a user nobody has is not found
    When "alice" blocks "nobody"
    Then the request is refused with status 404

  @gitea
  Scenario: A blocked user cannot offer a repository to the blocker
    Given a repository "bob/tool"
    And "alice" has blocked "bob"
    When "bob" transfers "bob/tool" to "alice"
    Then the request is refused with status 403
    And the repository "bob/tool" waits for no transfer
    And the repository "bob/tool" belongs to "bob"

  @gitea
  Scenario: Blocking cancels the transfers the blocked user offered the blocker
    Given a repository "bob/tool"
    And "bob" offered "bob/tool" to "alice"
    When "alice" blocks "bob"
    Then the response status is 204
    And the repository "bob/tool" waits for no transfer

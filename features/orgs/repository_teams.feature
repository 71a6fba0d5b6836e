@orgs
Feature: The teams of an organization's repository
  GET /repos/{owner}/{repo}/teams lists the organization's teams that cover a repository, the Owners
  team first (it includes every repository); GET .../teams/{team} answers the team (found by name,
  without regard to case) or 404 when it does not cover the repository. PUT gives a team the
  repository (its members then reach it and watch it), DELETE takes it back; adding a team that covers
  the repository already is 422, and so is removing one that does not, while removing a team that
  includes every repository changes nothing (204). Only site admins and the organization's owners
  change them, or the repository's admins when the organization allows it (403 otherwise). A user's
  repository has no teams: every one of these routes answers 405.

  Background:
    Given a user "alice"
    And an organization "acme" owned by "alice"
    And a private repository "acme/app"
    And a team "readers" of "acme" with the permission "read"
    And "bob" is in the team "readers" of "acme"

  @gitea
  Scenario: A new repository is covered by the Owners team only
    When "alice" lists the teams of the repository "acme/app"
    Then the response status is 200
    And the response lists the teams "Owners"

  @gitea
  Scenario: Teams are listed with the Owners team first
    Given a team "auditors" of "acme" with the permission "read"
    And the team "auditors" of "acme" has the repository "acme/app"
    And the team "readers" of "acme" has the repository "acme/app"
    When "alice" lists the teams of the repository "acme/app"
    Then the response lists the teams "Owners, auditors, readers"

  @gitea
  Scenario: Giving a team the repository lets its members read it
    When "alice" gives the team "readers" the repository "acme/app"
    Then the response status is 204
    And the team "readers" covers "acme/app"
    And "bob" sees the repository "acme/app"

  @gitea
  Scenario: The members of a team given the repository watch it
    When "alice" gives the team "readers" the repository "acme/app"
    Then the response status is 204
    And "bob" is among the watchers of "acme/app"

  @gitea
  Scenario: A team is found by its name without regard to case
    Given the team "readers" of "acme" has the repository "acme/app"
    When "alice" checks whether the team "READERS" covers "acme/app"
    Then the response status is 200
    And the response field "name" is "readers"

  @gitea
  Scenario: A team that does not cover the repository is not found on it
    When "alice" checks whether the team "readers" covers "acme/app"
    Then the request is refused with status 404

  @gitea
  Scenario: Giving a team the repository twice is refused
    Given the team "readers" of "acme" has the repository "acme/app"
    When "alice" gives the team "readers" the repository "acme/app"
    Then the request is refused with status 422
    And the error message mentions "is already added to repo"

  @gitea
  Scenario: The Owners team covers the repository already
    When "alice" gives the team "Owners" the repository "acme/app"
    Then the request is refused with status 422
    And the error message mentions "team 'Owners' is already added to repo"

  @gitea
  Scenario: Taking the repository from the Owners team changes nothing
    When "alice" takes the repository "acme/app" from the team "Owners"
    Then the response status is 204
    And the team "Owners" covers "acme/app"

  @gitea
  Scenario: Taking the repository from a team ends its members' access
    Given the team "readers" of "acme" has the repository "acme/app"
    When "alice" takes the repository "acme/app" from the team "readers"
    Then the response status is 204
    And the team "readers" does not cover "acme/app"
    And "bob" does not see the repository "acme/app"

  @gitea
  Scenario: Taking the repository from a team that does not have it is refused
    When "alice" takes the repository "acme/app" from the team "readers"
    Then the request is refused with status 422
    And the error message mentions "was not added to repo"

  @gitea
  Scenario: A team the organization does not have is not found
    When "alice" gives the team "ghosts" the repository "acme/app"
    Then the request is refused with status 404

  @gitea
  Scenario: A repository admin who is no owner may not change the teams
    Given "carol" is a collaborator of "acme/app" with the permission "admin"
    When "carol" gives the team "readers" the repository "acme/app"
    Then the request is refused with status 403
    And the team "readers" does not cover "acme/app"

  @gitea
  Scenario: A repository admin changes the teams when the organization allows it
    Given "carol" is a collaborator of "acme/app" with the permission "admin"
    And the organization "acme" lets repository admins change team access
    When "carol" gives the team "readers" the repository "acme/app"
    Then the response status is 204
    And the team "readers" covers "acme/app"

  @gitea
  Scenario: A reader may not change the teams
    Given "carol" is a collaborator of "acme/app" with the permission "read"
    When "carol" gives the team "readers" the repository "acme/app"
    Then the request is refused with status 403

  @gitea
  Scenario: A user's repository has no teams
    Given a repository "alice/solo"
    When "alice" lists the teams of the repository "alice/solo"
    Then the request is refused with status 405
    And the error message mentions "repo is not owned by an organization"

  @gitea
  Scenario: A user's repository refuses a team with 405
    Given a repository "alice/solo"
    When "alice" gives the team "Owners" the repository "alice/solo"
    Then the request is refused with status 405

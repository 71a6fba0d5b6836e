@orgs
Feature: Teams of an organization: the Owners team, creating, reading, editing and deleting teams
  Every organization has an Owners team from its creation, holding the user who created it; its
  members are the organization's owners. Owners create further teams with a permission (read, write
  or admin) over units of the repositories (repo.code, repo.issues...). A private team (the default) is
  seen by its members, by the organization's owners and by site administrators; another member of the
  organization is refused (403) and anybody else does not see it (404); limited and public teams are
  seen more widely (team_visibility.feature). Only owners change or delete a team; on the
  team routes Gitea answers 404 to a team member who is not an owner.

  Background:
    Given a user "alice"
    And an organization "acme" owned by "alice"

  @gitea
  Scenario: The Owners team exists from the organization's creation
    When "alice" lists the teams of "acme"
    Then the response status is 200
    And the response lists the team "Owners" with the permission "owner"

  @gitea
  Scenario: The Owners team holds the organization's creator
    When "alice" lists the members of the team "Owners" of "acme"
    Then the response status is 200
    And the response lists exactly "alice"

  @gitea
  Scenario: An owner creates a team with a permission over repository units
    When "alice" creates the team "readers" in "acme" with the permission "read"
    Then the response status is 201
    And the response field "name" is "readers"
    And the response field "permission" is "read"
    And the team grants "read" on the unit "repo.code"
    And the team in the response belongs to "acme"

  @gitea
  Scenario: A team name the organization already has is refused
    Given a team "readers" of "acme" with the permission "read"
    When "alice" creates the team "readers" in "acme" with the permission "write"
    Then the request is refused with status 422

  @gitea
  Scenario: A team name with characters other than letters, digits, dash, underscore and dot is refused
    When "alice" creates a team in "acme" with the body
      """
      {"name": "night shift", "permission": "read", "units": ["repo.code"]}
      """
    Then the request is refused with status 422

  @gitea
  Scenario: A team permission other than read, write or admin is refused
    When "alice" creates a team in "acme" with the body
      """
      {"name": "bosses", "permission": "owner", "units": ["repo.code"]}
      """
    Then the request is refused with status 422

  @gitea
  Scenario: A member who is not an owner cannot create a team
    Given a team "readers" of "acme" with the permission "read"
    And "bob" is in the team "readers" of "acme"
    When "bob" creates the team "writers" in "acme" with the permission "write"
    Then the request is refused with status 403

  @gitea
  Scenario: A user outside the organization cannot list its teams
    Given a user "carol"
    When "carol" lists the teams of "acme"
    Then the request is refused with status 403

  @gitea
  Scenario: The teams of an unknown organization are not found
    When "alice" lists the teams of "nowhere"
    Then the request is refused with status 404

  @gitea
  Scenario: A member reads its own team
    Given a team "readers" of "acme" with the permission "read"
    And "bob" is in the team "readers" of "acme"
    When "bob" reads the team "readers" of "acme"
    Then the response status is 200
    And the team in the response belongs to "acme"

  @gitea
  Scenario: A member of the organization is refused a team it is not in
    Given a team "readers" of "acme" with the permission "read"
    And a team "writers" of "acme" with the permission "write"
    And "bob" is in the team "readers" of "acme"
    When "bob" reads the team "writers" of "acme"
    Then the request is refused with status 403

  @gitea
  Scenario: A user outside the organization does not see its teams
    Given a team "readers" of "acme" with the permission "read"
    And a user "carol"
    When "carol" reads the team "readers" of "acme"
    Then the request is refused with status 404

  @gitea
  Scenario: An unknown team is not found
    When "alice" reads a team that does not exist
    Then the request is refused with status 404

  @gitea
  Scenario: An owner edits a team's name, description and permission
    Given a team "readers" of "acme" with the permission "read"
    When "alice" edits the team "readers" of "acme" with the body
      """
      {"name": "maintainers", "description": "keep it running", "permission": "write", "units": ["repo.code"]}
      """
    Then the response status is 200
    And the response field "name" is "maintainers"
    And the response field "description" is "keep it running"
    And the response field "permission" is "write"
    And the team grants "write" on the unit "repo.code"

  @gitea
  Scenario: A team member who is not an owner cannot edit the team
    Given a team "readers" of "acme" with the permission "read"
    And "bob" is in the team "readers" of "acme"
    When "bob" edits the team "readers" of "acme" with the body
      """
      {"name": "readers", "permission": "admin"}
      """
    Then the request is refused with status 404

  @gitea
  Scenario: An owner deletes a team
    Given a team "readers" of "acme" with the permission "read"
    When "alice" deletes the team "readers" of "acme"
    Then the response status is 204

  @gitea
  Scenario: A deleted team is gone
    Given a team "readers" of "acme" with the permission "read"
    And the team "readers" of "acme" was deleted
    When "alice" reads the team "readers" of "acme"
    Then the request is refused with status 404

  @reference
  Scenario: The reference refuses to delete the Owners team (422), which Gitea cannot do without owners
    When "alice" deletes the team "Owners" of "acme"
    Then the request is refused with status 422

@orgs
Feature: Organization membership comes from teams
  As in Gitea, a user belongs to an organization while it is in at least one of its teams: adding a
  user to a team makes it a member, and taking it out of its last team ends the membership. Members
  see every member; a member asking whether someone else belongs gets 204 or 404, while a user
  outside the organization is sent (303) to the public membership check. Owners remove a member
  from the organization, which takes it out of all its teams. A user lists its own organizations and
  teams; another user's organizations show only the memberships made public.

  Background:
    Given a user "alice"
    And an organization "acme" owned by "alice"
    And a team "readers" of "acme" with the permission "read"

  @gitea
  Scenario: Adding a user to a team makes it a member of the organization
    Given a user "bob"
    When "alice" adds "bob" to the team "readers" of "acme"
    Then the response status is 204
    And "bob" is a member of "acme"

  @gitea
  Scenario: A team lists its members
    Given "bob" is in the team "readers" of "acme"
    When "bob" lists the members of the team "readers" of "acme"
    Then the response status is 200
    And the response lists exactly "bob"
    And the response header "X-Total-Count" is "1"

  @gitea
  Scenario: Taking a user out of its only team ends its membership
    Given "bob" is in the team "readers" of "acme"
    When "alice" removes "bob" from the team "readers" of "acme"
    Then the response status is 204
    And "bob" is not a member of "acme"

  @gitea
  Scenario: Adding an unknown user to a team is not found
    When "alice" adds "ghost" to the team "readers" of "acme"
    Then the request is refused with status 404

  @gitea
  Scenario: A team member who is not an owner cannot add members (404 on the team routes)
    Given "bob" is in the team "readers" of "acme"
    And a user "carol"
    When "bob" adds "carol" to the team "readers" of "acme"
    Then the request is refused with status 404

  @reference
  Scenario: The reference refuses to take the last owner out of the Owners team (422)
    When "alice" removes "alice" from the team "Owners" of "acme"
    Then the request is refused with status 422

  @gitea
  Scenario: Members list every member of the organization
    Given "bob" is in the team "readers" of "acme"
    When "bob" lists the members of "acme"
    Then the response status is 200
    And the response lists exactly "alice, bob"
    And the response header "X-Total-Count" is "2"

  @gitea
  Scenario: A member learns that another user is not a member
    Given a user "carol"
    When "alice" checks whether "carol" is a member of "acme"
    Then the request is refused with status 404

  @gitea
  Scenario: A user outside the organization is sent to the public membership check
    Given a user "carol"
    When "carol" checks whether "alice" is a member of "acme"
    Then the response status is 303

  @gitea
  Scenario: An owner removes a member from the organization
    Given "bob" is in the team "readers" of "acme"
    When "alice" removes "bob" from the organization "acme"
    Then the response status is 204
    And "bob" is not a member of "acme"

  @gitea
  Scenario: A member who is not an owner cannot remove members
    Given "bob" is in the team "readers" of "acme"
    When "bob" removes "alice" from the organization "acme"
    Then the request is refused with status 403
    And "alice" is a member of "acme"

  @gitea
  Scenario: A user lists its organizations
    Given "bob" is in the team "readers" of "acme"
    When "bob" lists their organizations
    Then the response status is 200
    And the response lists exactly "acme"

  @gitea
  Scenario: A user lists its teams with their organization
    Given "bob" is in the team "readers" of "acme"
    When "bob" lists their teams
    Then the response status is 200
    And the response lists the team "readers" with the permission "read"

  @gitea
  Scenario: Another user's organizations show only memberships made public
    Given "bob" is in the team "readers" of "acme"
    And a user "carol"
    When "carol" lists the organizations of "bob"
    Then the response status is 200
    And the response lists nobody

  @gitea
  Scenario: A membership made public shows in the user's organizations
    Given "bob" is in the team "readers" of "acme"
    And "bob" shows its membership of "acme"
    And a user "carol"
    When "carol" lists the organizations of "bob"
    Then the response status is 200
    And the response lists exactly "acme"

  @gitea
  Scenario: One member of a team is read through the team
    Given "bob" is in the team "readers" of "acme"
    When "bob" reads the member "bob" of the team "readers" of "acme"
    Then the response status is 200
    And the response is the user "bob"

  @gitea
  Scenario: A user outside the team is not found among its members
    Given "bob" is in the team "readers" of "acme"
    When "bob" reads the member "alice" of the team "readers" of "acme"
    Then the request is refused with status 404

@orgs
Feature: A team's visibility decides who lists and reads it
  Gitea 1.27's Team carries "visibility": "private" (the default), "limited" or "public"; CreateTeamOption
  and EditTeamOption take it (anything else is refused with 422; an edit without it keeps it). Owners of
  the organization and site administrators list every team; any other caller lists the teams it is in
  plus, as a member of the organization, the limited and public ones. The same rule answers the team
  search and reading a team by id, where a public team is also read by a signed-in user outside the
  organization (as long as it may see the organization).

  Background:
    Given a user "alice"
    And an organization "acme" owned by "alice"
    And a team "crew" of "acme" with the permission "read"
    And "bob" is in the team "crew" of "acme"
    And a team "hidden" of "acme" visible as "private"
    And a team "known" of "acme" visible as "limited"
    And a team "open" of "acme" visible as "public"

  @gitea
  Scenario: A team is private unless created otherwise
    When "alice" creates the team "fresh" in "acme" with the permission "read"
    Then the response status is 201
    And the response field "visibility" is "private"

  @gitea
  Scenario: A team is created with the visibility asked for
    When "alice" creates a team in "acme" with the body
      """
      {"name": "guests", "permission": "read", "units": ["repo.code"], "visibility": "limited"}
      """
    Then the response status is 201
    And the response field "visibility" is "limited"

  @gitea
  Scenario: A visibility other than public, limited or private is refused
    When "alice" creates a team in "acme" with the body
      """
      {"name": "guests", "permission": "read", "units": ["repo.code"], "visibility": "secret"}
      """
    Then the request is refused with status 422

  @gitea
  Scenario: An edit without a visibility keeps it
    When "alice" edits the team "known" of "acme" with the body
      """
      {"name": "known", "description": "still limited"}
      """
    Then the response status is 200
    And the response field "visibility" is "limited"

  @gitea
  Scenario: An owner makes a private team public
    When "alice" edits the team "hidden" of "acme" with the body
      """
      {"name": "hidden", "visibility": "public"}
      """
    Then the response status is 200
    And the response field "visibility" is "public"

  @gitea
  Scenario: An owner lists every team
    When "alice" lists the teams of "acme"
    Then the response status is 200
    And the response lists the teams "crew, hidden, known, open, Owners"

  @gitea
  Scenario: A plain member lists its own, the limited and the public teams, not the private ones
    When "bob" lists the teams of "acme"
    Then the response status is 200
    And the response lists the teams "crew, known, open"
    And the response header "X-Total-Count" is "3"

  @gitea
  Scenario: A plain member's team search leaves the private teams out
    When "bob" searches the teams of "acme" for "n"
    Then the response status is 200
    And the team search finds exactly "known, open"

  @gitea
  Scenario: A plain member reads a limited team it is not in
    When "bob" reads the team "known" of "acme"
    Then the response status is 200
    And the response field "name" is "known"
    And the response field "visibility" is "limited"

  @gitea
  Scenario: A plain member is refused a private team it is not in
    When "bob" reads the team "hidden" of "acme"
    Then the request is refused with status 403

  @gitea
  Scenario: A user outside the organization reads a public team
    Given a user "carol"
    When "carol" reads the team "open" of "acme"
    Then the response status is 200
    And the response field "name" is "open"

  @gitea
  Scenario: A user outside the organization does not see a limited team
    Given a user "carol"
    When "carol" reads the team "known" of "acme"
    Then the request is refused with status 404

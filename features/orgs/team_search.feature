@orgs
Feature: Teams are searched within an organization
  GET /orgs/{org}/teams/search finds the teams whose name holds q, whatever its case, and, unless
  include_desc is false, those whose description holds it; by name, paged (X-Total-Count, Link), in
  Gitea's envelope {"data": [...], "ok": true} with no organization in the teams. As in Gitea 1.27 a
  member finds the teams it is in and the limited and public ones (team_visibility.feature); an owner and
  a site administrator find every team. A user outside the organization is refused.

  Background:
    Given a user "alice"
    And an organization "acme" owned by "alice"
    And a team "backend" of "acme" described as "Servers and databases"
    And a team "frontend" of "acme" described as "Web pages"
    And a team "ops" of "acme" described as "Backend servers on call"
    And "bob" is in the team "backend" of "acme"
    And "bob" is in the team "frontend" of "acme"
    And "bob" is in the team "ops" of "acme"

  @gitea
  Scenario: The names and the descriptions are searched whatever the case
    When "bob" searches the teams of "acme" for "BACKEND"
    Then the response status is 200
    And the team search finds exactly "backend, ops"
    And the response header "X-Total-Count" is "2"

  @gitea
  Scenario: Without the descriptions only the names are searched
    When "bob" searches the team names of "acme" for "backend"
    Then the response status is 200
    And the team search finds exactly "backend"

  @gitea
  Scenario: The results are paged
    When "bob" lists page 2 of the teams of "acme" found for "end" with 1 per page
    Then the response status is 200
    And the team search finds exactly "frontend"
    And the response header "X-Total-Count" is "3"
    And the response has the header "Link"

  @gitea
  Scenario: An owner finds every team, not only the ones it is in
    When "alice" searches the teams of "acme" for ""
    Then the response status is 200
    And the team search finds exactly "backend, frontend, ops, Owners"

  @gitea
  Scenario: A site administrator finds every team
    When "the admin" searches the teams of "acme" for "o"
    Then the response status is 200
    And the team search finds exactly "frontend, ops, Owners"

  @gitea
  Scenario: A user outside the organization cannot search its teams
    Given a user "mallory"
    When "mallory" searches the teams of "acme" for "backend"
    Then the request is refused with status 403

@projects @capability_project_boards
Feature: Project boards at repository, organization and user scope
  Boards live under /repos/{owner}/{repo}/projects, /orgs/{org}/projects and /users/{username}/projects
  (and /user/projects for the caller's own), with the same operations at every scope: Gitea's
  development line (1.28-dev) shape, which no Gitea release publishes yet. A board is a Project
  {id, title, description, state, template_type, card_type, type (repository, organization or
  individual), owner_id, repo_id, creator, num_issues, html_url, ...}; POST answers 201, PATCH 200,
  DELETE 204; lists are newest first with X-Total-Count and Link, state=open (default), closed or all.
  A board made from the basic_kanban template starts with Gitea's columns (Backlog, the default, then
  To Do, In Progress, Done); a plain board starts with one default column, "Uncategorized". Repository
  readers read a repository's boards and its writers change them (403 for a reader); whoever sees an
  organization reads its boards and only its writers change them (Gitea answers 404 to the others);
  a user's boards are changed by that user only (403). Token scopes: issue for repository boards and
  /user/projects, organization for an organization's, user for /users/{username}/projects.

  Background:
    Given an organization "acme" owned by "dev"
    And a repository "acme/app"
    And a repository "dev/lib"

  @spec @clause_S1_projects @clause_S2_3_project_board @clause_S4_4_projects
  Scenario Outline: A board made from the kanban template starts with Gitea's columns at <kind> scope
    When "dev" creates the board "Roadmap" from the template "basic_kanban" for the <kind> "<owner>"
    Then the response status is 201
    And the response field "type" is "<type>"
    And the response field "state" is "open"
    And the response field "template_type" is "basic_kanban"
    And the response field "num_issues" is 0
    And the board "Roadmap" has the columns "Backlog, To Do, In Progress, Done"
    And the default column of the board "Roadmap" is "Backlog"

    Examples:
      | kind         | owner    | type         |
      | repository   | acme/app | repository   |
      | organization | acme     | organization |
      | user         | dev      | individual   |

  @spec @clause_S2_3_project_board @clause_S4_4_projects
  Scenario Outline: Boards are listed newest first at <kind> scope, open ones unless asked otherwise
    Given the <kind> "<owner>" has the board "Old"
    And the <kind> "<owner>" has the board "New"
    And the <kind> "<owner>" has the board "Done"
    And the board "Done" is closed
    When "dev" lists the boards of the <kind> "<owner>" with "state=open"
    Then the response status is 200
    And the response lists the boards "New, Old"
    And the response header "X-Total-Count" is "2"

    Examples:
      | kind         | owner    |
      | repository   | acme/app |
      | organization | acme     |
      | user         | dev      |

  @gitea
  Scenario: state=all lists open and closed boards, state=closed only the closed ones, paged
    Given the repository "acme/app" has the board "First"
    And the repository "acme/app" has the board "Second"
    And the board "First" is closed
    When "dev" lists the boards of the repository "acme/app" with "state=all&limit=1"
    Then the response status is 200
    And the response lists the boards "Second"
    And the response header "X-Total-Count" is "2"
    And the response has the header "Link"

  @gitea
  Scenario: A plain board starts with one default column, "Uncategorized"
    When "dev" creates the board "Plain" for the repository "acme/app"
    Then the response status is 201
    And the response field "template_type" is "none"
    And the response field "card_type" is "text_only"
    And the board "Plain" has the columns "Uncategorized"
    And the default column of the board "Plain" is "Uncategorized"

  @gitea
  Scenario: Closing a board sets closed_at, reopening clears it
    Given the organization "acme" has the board "Q3"
    When "dev" edits the board "Q3" with the body
      """
      {"state": "closed", "title": "Q3 (archived)"}
      """
    Then the response status is 200
    And the response field "title" is "Q3 (archived)"
    And the board "Q3" is closed

  @gitea
  Scenario: A closed board is reopened through state open
    Given the organization "acme" has the board "Q4"
    And the board "Q4" is closed
    When "dev" edits the board "Q4" with the body
      """
      {"state": "open"}
      """
    Then the response status is 200
    And the board "Q4" is open

  @gitea
  Scenario: An unknown state is refused and the board stays open
    Given the repository "acme/app" has the board "Roadmap"
    When "dev" edits the board "Roadmap" with the body
      """
      {"state": "archived"}
      """
    Then the request is refused with status 422
    And the error message mentions "state must be 'open' or 'closed'"
    And the board "Roadmap" is open

  @gitea
  Scenario: A board without a title is refused and nothing is stored
    When "dev" creates a board for the user "dev" with the body
      """
      {"title": "", "description": "no title"}
      """
    Then the request is refused with status 422
    And the error message mentions "[Title]: Required"
    And the user "dev" has the boards "nothing"

  @reference
  Scenario: An unknown template is refused with 422 and nothing is stored
    Gitea's development line refuses an unknown template_type with 422 as well; the message is the
    reference's.
    When "dev" creates a board for the repository "acme/app" with the body
      """
      {"title": "Sprint", "template_type": "scrum"}
      """
    Then the request is refused with status 422
    And the error message mentions "template_type"
    And the repository "acme/app" has the boards "nothing"

  @gitea
  Scenario: Deleting a board removes it
    Given the user "dev" has the board "Scratch"
    When "dev" deletes the board "Scratch"
    Then the response status is 204
    And the board "Scratch" no longer exists

  @gitea
  Scenario: The caller's own boards at /user/projects are the user's boards
    When "dev" creates the board "Personal" among their own boards
    Then the response status is 201
    And the response field "type" is "individual"
    And the user "dev" has the boards "Personal"

  @gitea
  Scenario: A board of one scope is not found through another scope
    Given the repository "acme/app" has the board "Roadmap"
    When "dev" reads the board "Roadmap" through the organization "acme"
    Then the request is refused with status 404

  @gitea
  Scenario: A reader of a repository lists its boards
    Given a user "bob"
    And the repository "acme/app" has the board "Roadmap"
    When "bob" lists the boards of the repository "acme/app" with "state=open"
    Then the response status is 200
    And the response lists the boards "Roadmap"

  @gitea
  Scenario: A reader of a repository cannot create a board there
    Given a user "bob"
    When "bob" creates the board "Mine" for the repository "acme/app"
    Then the request is refused with status 403
    And the repository "acme/app" has the boards "nothing"

  @gitea
  Scenario: Someone outside an organization reads its boards
    Given a user "bob"
    And the organization "acme" has the board "Roadmap"
    When "bob" reads the board "Roadmap"
    Then the response status is 200

  @gitea
  Scenario: Someone outside an organization cannot delete its board: 404, as Gitea answers
    Given a user "bob"
    And the organization "acme" has the board "Roadmap"
    When "bob" deletes the board "Roadmap"
    Then the request is refused with status 404
    And the organization "acme" has the boards "Roadmap"

  @reference
  Scenario: Another user cannot create a board among a user's boards
    Gitea's development line only lists /users/{username}/projects; the reference serves every operation
    there and lets only that user (or a site admin) change the boards: 403 for anybody else.
    Given a user "bob"
    When "bob" creates the board "Hijack" for the user "dev"
    Then the request is refused with status 403
    And the user "dev" has the boards "nothing"

  @gitea
  Scenario: An anonymous client cannot create a board
    When "an anonymous client" creates the board "Anon" for the repository "acme/app"
    Then the request is refused with status 401
    And the repository "acme/app" has the boards "nothing"

  @gitea
  Scenario: The boards of a private repository are not found for a stranger
    Given a private repository "dev/secret"
    And a user "bob"
    And the repository "dev/secret" has the board "Hidden"
    When "bob" reads the board "Hidden"
    Then the request is refused with status 404

@projects @capability_project_boards
Feature: Issues on a project board
  POST .../projects/{id}/columns/{column_id}/issues/{issue_id} puts an issue (issue_id is the issue's
  global id, not its number) in a column of the board (201, empty), or moves it there when it is on the
  board already: an issue is on at most one column of a board. POST .../projects/{id}/issues/{issue_id}/move
  takes MoveProjectIssueOption {column_id, sorting} (204; the issue must be on the board, 422 otherwise;
  without sorting it goes to the end of the column). DELETE .../columns/{column_id}/issues/{issue_id}
  takes it off the board (204; 404 through a column it is not in). GET .../columns/{column_id}/issues
  lists a column's issues as Issue objects, in board order. A repository's board takes only that
  repository's issues; a user's or organization's board takes issues of any repository of its owner.

  Background:
    Given an organization "acme" owned by "dev"
    And a repository "acme/app"
    And a repository "acme/web"
    And a repository "dev/lib"
    And "dev" opened the issue "Ship it" in "acme/app"

  @spec @clause_S2_3_project_board @clause_S4_4_projects
  Scenario Outline: An issue moves from one column to another at <kind> scope and is on one column only
    Given "dev" opened the issue "Polish" in "<repo>"
    And the <kind> "<owner>" has the board "Roadmap" from the template "basic_kanban"
    And issue <index> of "<repo>" is in the column "To Do" of the board "Roadmap"
    When "dev" moves issue <index> of "<repo>" to the column "In Progress" of the board "Roadmap"
    Then the response status is 204
    And the column "In Progress" of the board "Roadmap" holds the issues "Polish"
    And the column "To Do" of the board "Roadmap" holds no issue
    And the board "Roadmap" counts 1 open and 0 closed issues

    Examples:
      | kind         | owner    | repo     | index |
      | repository   | acme/app | acme/app | 2     |
      | organization | acme     | acme/web | 1     |
      | user         | dev      | dev/lib  | 1     |

  @spec @clause_S4_4_projects
  Scenario: An issue is put in a column of a board by its global id
    Given the repository "acme/app" has the board "Roadmap" from the template "basic_kanban"
    When "dev" puts issue 1 of "acme/app" in the column "Done" of the board "Roadmap"
    Then the response status is 201
    And the column "Done" of the board "Roadmap" holds the issues "Ship it"
    And the board "Roadmap" counts 1 open and 0 closed issues

  @spec @clause_S4_4_projects
  Scenario: A reader lists the issues of a column as Issue objects
    Given a user "bob"
    And the repository "acme/app" has the board "Roadmap" from the template "basic_kanban"
    And issue 1 of "acme/app" is in the column "Done" of the board "Roadmap"
    When "bob" lists the issues in the column "Done" of the board "Roadmap"
    Then the response status is 200
    And the response lists the issues titled "Ship it"
    And the response header "X-Total-Count" is "1"

  @gitea
  Scenario: Putting an issue already on the board in another column moves it
    Given the repository "acme/app" has the board "Roadmap" from the template "basic_kanban"
    And issue 1 of "acme/app" is in the column "To Do" of the board "Roadmap"
    When "dev" puts issue 1 of "acme/app" in the column "Done" of the board "Roadmap"
    Then the response status is 201
    And the column "Done" of the board "Roadmap" holds the issues "Ship it"
    And the column "To Do" of the board "Roadmap" holds no issue

  @gitea
  Scenario: A position puts the moved issue before the others of the column
    Given "dev" opened the issue "Polish" in "acme/app"
    And the repository "acme/app" has the board "Roadmap" from the template "basic_kanban"
    And issue 1 of "acme/app" is in the column "Done" of the board "Roadmap"
    And issue 2 of "acme/app" is in the column "To Do" of the board "Roadmap"
    When "dev" moves issue 2 of "acme/app" to the column "Done" at position -1 of the board "Roadmap"
    Then the response status is 204
    And the column "Done" of the board "Roadmap" holds the issues "Polish, Ship it"

  @gitea
  Scenario: An issue that is not on the board cannot be moved within it
    Given the repository "acme/app" has the board "Roadmap" from the template "basic_kanban"
    When "dev" moves issue 1 of "acme/app" to the column "Done" of the board "Roadmap"
    Then the request is refused with status 422
    And the error message mentions "not in the project"
    And the column "Done" of the board "Roadmap" holds no issue

  @reference
  Scenario: Moving an issue to a column of another board is refused
    Gitea's development line does not say what a move to another board's column answers; the reference
    refuses the body with 422 and leaves the issue where it was.
    Given the repository "acme/app" has the board "Roadmap" from the template "basic_kanban"
    And the repository "acme/app" has the board "Other"
    And issue 1 of "acme/app" is in the column "To Do" of the board "Roadmap"
    When "dev" moves issue 1 of "acme/app" on the board "Roadmap" to the column "Uncategorized" of the board "Other"
    Then the request is refused with status 422
    And the error message mentions "not a column of the project"
    And the column "To Do" of the board "Roadmap" holds the issues "Ship it"
    And the column "Uncategorized" of the board "Other" holds no issue

  @gitea
  Scenario: A column of another board is not found through this board
    Given the repository "acme/app" has the board "Roadmap"
    And the repository "acme/app" has the board "Other"
    When "dev" puts issue 1 of "acme/app" in the column "Uncategorized" of the board "Other" through the board "Roadmap"
    Then the request is refused with status 404
    And the column "Uncategorized" of the board "Other" holds no issue
    And the column "Uncategorized" of the board "Roadmap" holds no issue

  @reference
  Scenario: A repository's board refuses an issue of another repository
    Gitea's development line looks the issue up inside the board's repository and so answers 404; the
    reference finds the issue (the caller may see it) and refuses it with 422, the issue being out of the
    board's reach.
    Given "dev" opened the issue "Elsewhere" in "acme/web"
    And the repository "acme/app" has the board "Roadmap"
    When "dev" puts issue 1 of "acme/web" in the column "Uncategorized" of the board "Roadmap"
    Then the request is refused with status 422
    And the error message mentions "repository"
    And the column "Uncategorized" of the board "Roadmap" holds no issue

  @reference
  Scenario: An organization's board refuses an issue of a repository of another owner
    Gitea's model refuses it as a permission error (403 through the API); the reference answers 422, the
    issue being out of the board's reach.
    Given "dev" opened the issue "Mine" in "dev/lib"
    And the organization "acme" has the board "Roadmap"
    When "dev" puts issue 1 of "dev/lib" in the column "Uncategorized" of the board "Roadmap"
    Then the request is refused with status 422
    And the column "Uncategorized" of the board "Roadmap" holds no issue

  @gitea
  Scenario: An issue is taken off the board through its column
    Given the repository "acme/app" has the board "Roadmap" from the template "basic_kanban"
    And issue 1 of "acme/app" is in the column "To Do" of the board "Roadmap"
    When "dev" takes issue 1 of "acme/app" off the column "To Do" of the board "Roadmap"
    Then the response status is 204
    And the column "To Do" of the board "Roadmap" holds no issue
    And the board "Roadmap" counts 0 open and 0 closed issues

  @gitea
  Scenario: Taking an issue off a column it is not in is not found and the issue stays
    Given the repository "acme/app" has the board "Roadmap" from the template "basic_kanban"
    And issue 1 of "acme/app" is in the column "To Do" of the board "Roadmap"
    When "dev" takes issue 1 of "acme/app" off the column "Done" of the board "Roadmap"
    Then the request is refused with status 404
    And the column "To Do" of the board "Roadmap" holds the issues "Ship it"

  @gitea
  Scenario: A closed board is read-only for its issues
    Given the repository "acme/app" has the board "Roadmap" from the template "basic_kanban"
    And the board "Roadmap" is closed
    When "dev" puts issue 1 of "acme/app" in the column "To Do" of the board "Roadmap"
    Then the request is refused with status 403
    And the column "To Do" of the board "Roadmap" holds no issue

  @gitea
  Scenario: A reader cannot put an issue on a repository's board
    Given a user "bob"
    And the repository "acme/app" has the board "Roadmap" from the template "basic_kanban"
    When "bob" puts issue 1 of "acme/app" in the column "To Do" of the board "Roadmap"
    Then the request is refused with status 403
    And the column "To Do" of the board "Roadmap" holds no issue

  @gitea
  Scenario: An issue shows the boards it is on
    Given the repository "acme/app" has the board "Roadmap" from the template "basic_kanban"
    And the organization "acme" has the board "Company" from the template "basic_kanban"
    And issue 1 of "acme/app" is in the column "To Do" of the board "Roadmap"
    And issue 1 of "acme/app" is in the column "Done" of the board "Company"
    When "dev" reads issue 1 of "acme/app"
    Then the response status is 200
    And the issue in the response is on the boards "Roadmap, Company"

  @gitea
  Scenario: An issue on no board has an empty list of boards
    Given the repository "acme/app" has the board "Roadmap" from the template "basic_kanban"
    When "dev" reads issue 1 of "acme/app"
    Then the response status is 200
    And the issue in the response is on the boards "nothing"

@projects @capability_project_boards
Feature: Columns of a project board
  GET|POST .../projects/{id}/columns lists (left to right, X-Total-Count) and adds columns (201
  ProjectColumn {id, title, color, sorting, default, project_id, creator, created_at, updated_at}, a new
  column goes to the right end); GET|PATCH|DELETE .../columns/{column_id}; POST .../columns/move takes
  MoveProjectColumnsOption {column_ids: every column id of the board exactly once, in the new order}
  (204; a partial or foreign list is 422); POST .../columns/{column_id}/default makes a column the only
  default column (204). Deleting a column moves its issues to the default column; the default column
  itself cannot be deleted (422). A closed board is read-only: changing its columns answers 403
  "project is closed". A column's colour is #RRGGBB (422 "bad color code" otherwise) and its sorting
  stays within -128..127.

  Background:
    Given an organization "acme" owned by "dev"
    And a repository "acme/app"
    And the repository "acme/app" has the board "Roadmap" from the template "basic_kanban"

  @spec @clause_S4_4_projects
  Scenario: A new column goes to the right end of the board
    When "dev" adds a column to the board "Roadmap" with the body
      """
      {"title": "Released", "color": "#FF5733"}
      """
    Then the response status is 201
    And the response field "color" is "#FF5733"
    And the response field "default" is false
    And the board "Roadmap" has the columns "Backlog, To Do, In Progress, Done, Released"

  @spec @clause_S4_4_projects
  Scenario: Reordering takes every column in its new order
    When "dev" orders the columns of the board "Roadmap" as "Done, In Progress, To Do, Backlog"
    Then the response status is 204
    And the board "Roadmap" has the columns "Done, In Progress, To Do, Backlog"

  @gitea
  Scenario: Reordering with only some of the columns is refused and the order stays
    When "dev" orders the columns of the board "Roadmap" as "Done, Backlog"
    Then the request is refused with status 422
    And the error message mentions "every column of the project exactly once"
    And the board "Roadmap" has the columns "Backlog, To Do, In Progress, Done"

  @gitea
  Scenario: Reordering with a column of another board is refused and the order stays
    Given the repository "acme/app" has the board "Other"
    When "dev" orders the columns of the board "Roadmap" as "Done, In Progress, To Do, Backlog" then "Uncategorized" of the board "Other"
    Then the request is refused with status 422
    And the board "Roadmap" has the columns "Backlog, To Do, In Progress, Done"

  @spec @clause_S4_4_projects
  Scenario: Another column becomes the one default column
    When "dev" makes "To Do" the default column of the board "Roadmap"
    Then the response status is 204
    And the default column of the board "Roadmap" is "To Do"

  @gitea
  Scenario: Deleting a column moves its issues to the default column
    Given "dev" opened the issue "Ship it" in "acme/app"
    And "dev" opened the issue "Write docs" in "acme/app"
    And issue 1 of "acme/app" is in the column "To Do" of the board "Roadmap"
    And issue 2 of "acme/app" is in the column "Backlog" of the board "Roadmap"
    When "dev" deletes the column "To Do" of the board "Roadmap"
    Then the response status is 204
    And the board "Roadmap" has the columns "Backlog, In Progress, Done"
    And the column "Backlog" of the board "Roadmap" holds the issues "Write docs, Ship it"

  @gitea
  Scenario: The default column cannot be deleted
    When "dev" deletes the column "Backlog" of the board "Roadmap"
    Then the request is refused with status 422
    And the error message mentions "default column"
    And the board "Roadmap" has the columns "Backlog, To Do, In Progress, Done"

  @gitea
  Scenario: A column without a title is refused and nothing is stored
    When "dev" adds a column to the board "Roadmap" with the body
      """
      {"title": "  "}
      """
    Then the request is refused with status 422
    And the error message mentions "[Title]: Required"
    And the board "Roadmap" has the columns "Backlog, To Do, In Progress, Done"

  @gitea
  Scenario: A column colour that is not #RRGGBB is refused and nothing is stored
    When "dev" adds a column to the board "Roadmap" with the body
      """
      {"title": "Red", "color": "red"}
      """
    Then the request is refused with status 422
    And the error message mentions "bad color code"
    And the board "Roadmap" has the columns "Backlog, To Do, In Progress, Done"

  @gitea
  Scenario: A closed board is read-only for its columns
    Given the board "Roadmap" is closed
    When "dev" adds a column to the board "Roadmap" with the body
      """
      {"title": "Later"}
      """
    Then the request is refused with status 403
    And the error message mentions "project is closed"
    And the board "Roadmap" has the columns "Backlog, To Do, In Progress, Done"

  @gitea
  Scenario: A reader of the repository cannot reorder the columns
    Given a user "bob"
    When "bob" orders the columns of the board "Roadmap" as "Done, In Progress, To Do, Backlog"
    Then the request is refused with status 403
    And the board "Roadmap" has the columns "Backlog, To Do, In Progress, Done"

  @gitea
  Scenario: A reader lists a board's columns left to right
    Given a user "bob"
    When "bob" lists the columns of the board "Roadmap"
    Then the response status is 200
    And the response lists the columns "Backlog, To Do, In Progress, Done"
    And the response header "X-Total-Count" is "4"

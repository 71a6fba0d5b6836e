@users
Feature: A user's repositories and heatmap
  GET /users/{username}/repos lists the repositories the user owns that the caller may read, oldest
  first, paged. GET /users/{username}/heatmap counts the user's actions per quarter hour over the last
  year ([{timestamp, contributions}]), only those in repositories the caller may read, and nothing for a
  user who hides their activity from the caller.

  Background:
    Given a user "dev"
    And a user "bob"
    And a repository "dev/app"
    And a private repository "dev/secret"

  @gitea
  Scenario: Others see a user's public repositories only
    When "bob" lists the repositories of the user "dev"
    Then the response lists the repositories "dev/app"
    And the response header "X-Total-Count" is "1"

  @gitea
  Scenario: A user sees their private repositories too
    When "dev" lists the repositories of the user "dev"
    Then the response lists the repositories "dev/app, dev/secret"

  @gitea
  Scenario: A collaborator sees the private repository they work on
    Given "bob" is a collaborator of "dev/secret" with the permission "read"
    When "bob" lists the repositories of the user "dev"
    Then the response lists the repositories "dev/app, dev/secret"

  @gitea
  Scenario: The repositories of a user nobody has are not found
    When "bob" lists the repositories of the user "nobody"
    Then the request is refused with status 404

  @gitea
  Scenario: The heatmap counts the user's actions the caller may see
    Given "dev" opened the issue "Plan" in "dev/app"
    And "dev" opened the issue "Hidden" in "dev/secret"
    When "an anonymous client" reads the heatmap of "dev"
    Then the response status is 200
    And the heatmap counts 2 contributions

  @gitea
  Scenario: The user's own heatmap counts their private actions too
    Given "dev" opened the issue "Plan" in "dev/app"
    And "dev" opened the issue "Hidden" in "dev/secret"
    When "dev" reads the heatmap of "dev"
    Then the heatmap counts 4 contributions

  @gitea
  Scenario: A user who hides their activity shows an empty heatmap to others
    Given "dev" opened the issue "Plan" in "dev/app"
    And "dev" hides their activity
    When "bob" reads the heatmap of "dev"
    Then the heatmap counts 0 contributions

  @gitea
  Scenario: The heatmap of a user nobody has is not found
    When "bob" reads the heatmap of "nobody"
    Then the request is refused with status 404

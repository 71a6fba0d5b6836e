@issues
Feature: Labels on an issue
  An issue's labels are the repository's labels it carries. POST .../issues/{index}/labels adds the labels an
  IssueLabelsOption names, by id or by name (names and ids the repository lacks are left out), PUT makes them
  the only ones, DELETE .../labels/{id} takes one off (422 for a label the repository does not have) and
  DELETE .../labels clears them. Adding and replacing answer the issue's labels; the Issue model shows the
  same list. Readers see them; changing them takes write access to the repository's issues.

  Background:
    Given a repository "dev/app"
    And the repository "dev/app" has the label "bug" with the color "#ee0701"
    And the repository "dev/app" has the label "docs" with the color "#0075ca"
    And the repository "dev/app" has the label "feature" with the color "#a2eeef"
    And "dev" opened the issue "Crash" in "dev/app"

  @gitea
  Scenario: Labels added by name show on the issue
    When "dev" adds the labels "bug, docs" to the issue "Crash" in "dev/app"
    Then the response status is 200
    And the issue "Crash" in "dev/app" has the labels "bug, docs"

  @gitea
  Scenario: A label added by id joins those the issue has
    Given "dev" adds the labels "bug" to the issue "Crash" in "dev/app"
    When "dev" adds the label "feature" by its id to the issue "Crash" in "dev/app"
    Then the response status is 200
    And the issue "Crash" in "dev/app" has the labels "bug, feature"

  @gitea
  Scenario: Names the repository lacks are left out
    When "dev" adds the labels "bug, no-such-label" to the issue "Crash" in "dev/app"
    Then the response status is 200
    And the issue "Crash" in "dev/app" has the labels "bug"

  @gitea
  Scenario: Replacing makes the named labels the only ones
    Given "dev" adds the labels "bug, docs" to the issue "Crash" in "dev/app"
    When "dev" replaces the labels of the issue "Crash" in "dev/app" with "feature"
    Then the response status is 200
    And the issue "Crash" in "dev/app" has the labels "feature"

  @gitea
  Scenario: One label is taken off and the others stay
    Given "dev" adds the labels "bug, docs" to the issue "Crash" in "dev/app"
    When "dev" removes the label "docs" from the issue "Crash" in "dev/app"
    Then the response status is 204
    And the issue "Crash" in "dev/app" has the labels "bug"

  @gitea
  Scenario: Clearing takes every label off
    Given "dev" adds the labels "bug, docs" to the issue "Crash" in "dev/app"
    When "dev" clears the labels of the issue "Crash" in "dev/app"
    Then the response status is 204
    And the issue "Crash" in "dev/app" has the labels "none"

  @gitea
  Scenario: A reader cannot change an issue's labels
    Given a user "reader"
    When "reader" adds the labels "bug" to the issue "Crash" in "dev/app"
    Then the request is refused with status 403
    And the issue "Crash" in "dev/app" has the labels "none"

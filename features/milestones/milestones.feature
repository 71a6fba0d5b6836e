@milestones
Feature: Milestones of a repository and the issues in them
  /repos/{owner}/{repo}/milestones lists (open ones by default; "state" open, closed or all; "name" a part
  of the title, paged), creates, and /milestones/{id} reads, edits and deletes, where {id} is a milestone's
  id or, failing that, its title, as in Gitea 1.27. Readers list and read; writers of the issues change.
  A milestone's open_issues and closed_issues count the issues really in it; closing it stamps closed_at;
  due_on is null without a deadline. Writers put an issue in a milestone with the "milestone" field of
  an issue's create or edit, and the Issue shows its milestone.

  Background:
    Given a repository "dev/app"
    And a user "bob"

  @gitea
  Scenario: A writer creates a milestone with a deadline
    When "dev" creates a milestone in "dev/app" with the body
      """
      {"title": "v1.0", "description": "First release", "due_on": "2030-01-02T03:04:05Z"}
      """
    Then the response status is 201
    And the response field "title" is "v1.0"
    And the response field "description" is "First release"
    And the response field "state" is "open"
    And the response field "open_issues" is 0
    And the response field "closed_at" is null
    And the response field "due_on" is the time "2030-01-02T03:04:05Z"

  @gitea
  Scenario: A milestone created closed has its close time and no deadline
    When "dev" creates a milestone in "dev/app" with the body
      """
      {"title": "Archive", "state": "closed"}
      """
    Then the response status is 201
    And the response field "state" is "closed"
    And the response field "closed_at" is a non-empty text
    And the response field "due_on" is null

  @gitea
  Scenario: A reader may not create a milestone and nothing is stored
    When "bob" creates a milestone in "dev/app" with the body
      """
      {"title": "v9"}
      """
    Then the request is refused with status 403
    And the milestones of "dev/app" are "nothing"

  @gitea
  Scenario: A milestone is read by its id
    Given "dev" created the milestone "v1.0" in "dev/app"
    When "bob" reads the milestone "v1.0" of "dev/app" by its id
    Then the response status is 200
    And the response is the milestone "v1.0" of "dev/app"

  @gitea
  Scenario: A milestone is read by its title when no milestone has that id
    Given "dev" created the milestone "v1.0" in "dev/app"
    When "bob" reads the milestone "v1.0" of "dev/app" by its name
    Then the response status is 200
    And the response is the milestone "v1.0" of "dev/app"

  @gitea
  Scenario: An unknown milestone is not found
    When "bob" reads the milestone "nope" of "dev/app" by its name
    Then the request is refused with status 404

  @gitea
  Scenario: The list shows open milestones unless asked for closed ones
    Given "dev" created the milestone "v1.0" in "dev/app"
    And "dev" created the closed milestone "v0.9" in "dev/app"
    When "bob" lists the milestones of "dev/app" with "state=closed"
    Then the response status is 200
    And the response lists the milestones "v0.9"

  @gitea
  Scenario: The list filters on a part of the title, whatever its case
    Given "dev" created the milestone "Beta 1" in "dev/app"
    And "dev" created the closed milestone "beta 2" in "dev/app"
    And "dev" created the milestone "Final" in "dev/app"
    When "bob" lists the milestones of "dev/app" with "state=all&name=BETA"
    Then the response status is 200
    And the response lists the milestones "Beta 1, beta 2"

  @gitea
  Scenario: The list is paged with a total count and links
    Given "dev" created the milestone "m1" in "dev/app"
    And "dev" created the milestone "m2" in "dev/app"
    And "dev" created the milestone "m3" in "dev/app"
    When "bob" lists the milestones of "dev/app" with "limit=2&page=2"
    Then the response status is 200
    And the response lists the milestones "m3"
    And the response header "X-Total-Count" is "3"
    And the response has the header "Link"

  @gitea
  Scenario: The counts follow the issues in the milestone and their states
    Given "dev" created the milestone "v1.0" in "dev/app"
    And "dev" opened the issue "Crash" in "dev/app" in the milestone "v1.0"
    And "dev" opened the issue "Typo" in "dev/app" in the milestone "v1.0"
    And "dev" opened the issue "Elsewhere" in "dev/app"
    And "dev" edited issue 2 of "dev/app" with the body
      """
      {"state": "closed"}
      """
    When "bob" reads the milestone "v1.0" of "dev/app" by its id
    Then the response status is 200
    And the response field "open_issues" is 1
    And the response field "closed_issues" is 1

  @gitea
  Scenario: A writer puts an issue in a milestone and the issue shows it
    Given "dev" created the milestone "v1.0" in "dev/app"
    And "bob" opened the issue "Crash" in "dev/app"
    When "dev" puts issue 1 of "dev/app" in the milestone "v1.0"
    Then the response status is 201
    And the response field "milestone.title" is "v1.0"
    And issue 1 of "dev/app" is in the milestone "v1.0"
    And the milestone "v1.0" of "dev/app" counts 1 open and 0 closed issues

  @gitea
  Scenario: Moving an issue between milestones is recorded in its timeline
    Given "dev" created the milestone "v1.0" in "dev/app"
    And "dev" created the milestone "v2.0" in "dev/app"
    And "dev" opened the issue "Crash" in "dev/app" in the milestone "v1.0"
    And "dev" edited issue 1 of "dev/app" with the body
      """
      {"title": "Crash on start"}
      """
    When "dev" puts issue 1 of "dev/app" in the milestone "v2.0"
    Then the response status is 201
    And the timeline of issue 1 of "dev/app" has the types "milestone, change_title, milestone"
    And the last timeline entry of issue 1 of "dev/app" moves it from the milestone "v1.0" to "v2.0"

  @gitea
  Scenario: A writer puts a pull request in a milestone and the pull request shows it
    Given "dev" created the milestone "v1.0" in "dev/app"
    And the repository "dev/app" has the branch "feature" changing "notes.txt" to "new"
    And "dev" opened a pull request of "feature" into "main" in "dev/app"
    When "dev" puts pull request 1 of "dev/app" in the milestone "v1.0"
    Then the response status is 201
    And the response field "milestone.title" is "v1.0"
    And issue 1 of "dev/app" is in the milestone "v1.0"
    And the milestone "v1.0" of "dev/app" counts 1 open and 0 closed issues

  @gitea
  Scenario: A reader's milestone on a new issue is ignored
    Given "dev" created the milestone "v1.0" in "dev/app"
    When "bob" opens the issue "Crash" in "dev/app" in the milestone "v1.0"
    Then the response status is 201
    And the response field "milestone" is null
    And the milestone "v1.0" of "dev/app" counts 0 open and 0 closed issues

  @reference
  Scenario: An issue naming a milestone the repository does not have is refused and not opened
    When "dev" opens an issue in "dev/app" with the body
      """
      {"title": "Crash", "milestone": 987654}
      """
    Then the request is refused with status 422
    And "dev/app" has 0 issues

  @gitea
  Scenario: Closing a milestone stamps its close time and reopening clears it
    Given "dev" created the milestone "v1.0" in "dev/app"
    When "dev" edits the milestone "v1.0" of "dev/app" with the body
      """
      {"state": "closed", "description": "Shipped"}
      """
    Then the response status is 200
    And the response field "state" is "closed"
    And the response field "description" is "Shipped"
    And the response field "closed_at" is a non-empty text
    And the milestone "v1.0" of "dev/app" is closed

  @gitea
  Scenario: Reopening a closed milestone clears its close time
    Given "dev" created the closed milestone "v1.0" in "dev/app"
    When "dev" edits the milestone "v1.0" of "dev/app" with the body
      """
      {"state": "open"}
      """
    Then the response status is 200
    And the response field "closed_at" is null
    And the milestone "v1.0" of "dev/app" is open

  @gitea
  Scenario: A reader may not edit a milestone
    Given "dev" created the milestone "v1.0" in "dev/app"
    When "bob" edits the milestone "v1.0" of "dev/app" with the body
      """
      {"state": "closed"}
      """
    Then the request is refused with status 403
    And the milestone "v1.0" of "dev/app" is open

  @gitea
  Scenario: Deleting a milestone leaves its issues in no milestone
    Given "dev" created the milestone "v1.0" in "dev/app"
    And "dev" opened the issue "Crash" in "dev/app" in the milestone "v1.0"
    When "dev" deletes the milestone "v1.0" of "dev/app"
    Then the response status is 204
    And the milestone "v1.0" of "dev/app" no longer exists
    And issue 1 of "dev/app" is in no milestone

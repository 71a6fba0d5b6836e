@issues
Feature: Deleting issues, deadlines, the old comment routes and the repository's comments
  DELETE /repos/{owner}/{repo}/issues/{index} deletes an issue or pull request with its comments,
  reactions and files; only repository administrators may (Gitea 1.27's reqAdmin, 403 otherwise).
  POST /issues/{index}/deadline sets the deadline of writers' choosing (the day's last second; Go's
  zero time removes it) and answers 201 with the IssueDeadline. The deprecated
  /issues/{index}/comments/{id} routes edit and delete a comment as /issues/comments/{id} does.
  GET /issues/comments lists every comment of the repository, oldest first, paged, "since" and
  "before" bounding their last update.

  Background:
    Given a repository "dev/app"
    And a user "bob"
    And "bob" opened the issue "Crash" in "dev/app"

  @gitea
  Scenario: A repository administrator deletes an issue
    When "dev" deletes issue 1 of "dev/app"
    Then the response status is 204
    And issue 1 of "dev/app" no longer exists
    And "dev/app" has 0 issues

  @gitea
  Scenario: The poster of an issue who is no administrator may not delete it
    When "bob" deletes issue 1 of "dev/app"
    Then the request is refused with status 403
    And issue 1 of "dev/app" has the title "Crash" and is open

  @gitea
  Scenario: Deleting an issue deletes its comments
    Given "bob" commented "More details" on issue 1 of "dev/app"
    When "dev" deletes issue 1 of "dev/app"
    Then the response status is 204
    And the comment of "dev/app" no longer exists

  @gitea
  Scenario: Deleting an unknown issue is not found
    When "dev" deletes issue 42 of "dev/app"
    Then the request is refused with status 404

  @gitea
  Scenario: A comment is read by its id
    Given "bob" commented "More details" on issue 1 of "dev/app"
    When "bob" reads the comment of "dev/app"
    Then the response status is 200
    And the response field "body" is "More details"
    And the response field "user.login" is the name of "bob"

  @gitea
  Scenario: A writer sets a deadline and only its day counts
    When "dev" sets the deadline of issue 1 of "dev/app" to "2031-05-06T10:00:00Z"
    Then the response status is 201
    And the response field "due_date" is the time "2031-05-06T23:59:59Z"
    And issue 1 of "dev/app" is due at "2031-05-06T23:59:59Z"
    And the timeline of issue 1 of "dev/app" has the types "added_deadline"

  @gitea
  Scenario: Go's zero time removes the deadline
    Given "dev" edited issue 1 of "dev/app" with the body
      """
      {"due_date": "2031-05-06T10:00:00Z"}
      """
    When "dev" sets the deadline of issue 1 of "dev/app" to "0001-01-01T00:00:00Z"
    Then the response status is 201
    And the response field "due_date" is null
    And issue 1 of "dev/app" is due at "never"

  @gitea
  Scenario: A reader may not set a deadline, even on their own issue
    When "bob" sets the deadline of issue 1 of "dev/app" to "2031-05-06T10:00:00Z"
    Then the request is refused with status 403
    And issue 1 of "dev/app" is due at "never"

  @gitea
  Scenario: A deadline that is not a time is refused with 422
    When "dev" sets the deadline of issue 1 of "dev/app" to "next tuesday"
    Then the request is refused with status 422
    And issue 1 of "dev/app" is due at "never"

  @gitea
  Scenario: The old route changes a comment
    Given "bob" commented "Same here" on issue 1 of "dev/app"
    When "bob" changes the comment of issue 1 of "dev/app" to "Same here, on macOS" by the old route
    Then the response status is 200
    And the response field "body" is "Same here, on macOS"
    And the last timeline entry of issue 1 of "dev/app" is a "comment" by "bob" saying "Same here, on macOS"

  @gitea
  Scenario: The old route refuses somebody else's comment to a reader
    Given a user "eve"
    And "bob" commented "Same here" on issue 1 of "dev/app"
    When "eve" changes the comment of issue 1 of "dev/app" to "Spam" by the old route
    Then the request is refused with status 403
    And the last timeline entry of issue 1 of "dev/app" is a "comment" by "bob" saying "Same here"

  @gitea
  Scenario: The old route deletes a comment
    Given "bob" commented "Off topic" on issue 1 of "dev/app"
    When "dev" deletes the comment of issue 1 of "dev/app" by the old route
    Then the response status is 204
    And issue 1 of "dev/app" has 0 comments

  @gitea
  Scenario: The repository's comments are listed oldest first across its issues
    Given "dev" opened the issue "Typo" in "dev/app"
    And "bob" commented "first" on issue 1 of "dev/app"
    And "dev" commented "second" on issue 2 of "dev/app"
    And "bob" commented "third" on issue 1 of "dev/app"
    When "bob" lists the comments of "dev/app" with "page=1"
    Then the response status is 200
    And the response lists the comments "first, second, third"
    And the response header "X-Total-Count" is "3"

  @gitea
  Scenario: The repository's comments are paged
    Given "bob" commented "first" on issue 1 of "dev/app"
    And "bob" commented "second" on issue 1 of "dev/app"
    And "bob" commented "third" on issue 1 of "dev/app"
    When "bob" lists the comments of "dev/app" with "limit=2&page=2"
    Then the response status is 200
    And the response lists the comments "third"
    And the response header "X-Total-Count" is "3"

  @gitea
  Scenario: Comments updated before "since" are left out
    Given "bob" commented "first" on issue 1 of "dev/app"
    When "bob" lists the comments of "dev/app" with "since=2999-01-01T00:00:00Z"
    Then the response status is 200
    And the response lists the comments "nothing"

  @gitea
  Scenario: Comments updated after "before" are left out
    Given "bob" commented "first" on issue 1 of "dev/app"
    When "bob" lists the comments of "dev/app" with "before=2000-01-01T00:00:00Z"
    Then the response status is 200
    And the response lists the comments "nothing"

  @gitea
  Scenario: Deleting an issue takes its tracked time, and the repository's times still list
    Given "bob" tracked 90 seconds on issue 1 of "dev/app"
    When "dev" deletes issue 1 of "dev/app"
    Then the response status is 204
    And the tracked times of "dev/app" are "none"

@issues
Feature: Comments on issues and the issue timeline
  Readers comment on issues through /repos/{owner}/{repo}/issues/{index}/comments; a comment is read,
  changed and deleted through /repos/{owner}/{repo}/issues/comments/{id} by its poster or a writer, as in
  Gitea 1.27. The issue's "comments" field counts its comments. The timeline
  (/issues/{index}/timeline) lists comments and events together, oldest first.

  Background:
    Given a repository "dev/app"
    And a user "bob"
    And "dev" opened the issue "Slow start" in "dev/app"

  @gitea
  Scenario: A reader comments on an issue
    When "bob" comments "Same here on Linux" on issue 1 of "dev/app"
    Then the response status is 201
    And the response field "body" is "Same here on Linux"
    And the response field "user.login" is the name of "bob"
    And issue 1 of "dev/app" has 1 comments

  @gitea
  Scenario: The poster changes their comment
    Given "bob" commented "Same here" on issue 1 of "dev/app"
    When "bob" changes the comment of "dev/app" to "Same here, on Linux and macOS"
    Then the response status is 200
    And the response field "body" is "Same here, on Linux and macOS"

  @gitea
  Scenario: Somebody else's comment cannot be changed by a reader and stays as it was
    Given a user "eve"
    And "bob" commented "Same here" on issue 1 of "dev/app"
    When "eve" changes the comment of "dev/app" to "Spam"
    Then the request is refused with status 403
    And the last timeline entry of issue 1 of "dev/app" is a "comment" by "bob" saying "Same here"

  @gitea
  Scenario: A writer deletes a comment and the count follows
    Given "bob" commented "Off topic" on issue 1 of "dev/app"
    When "dev" deletes the comment of "dev/app"
    Then the response status is 204
    And issue 1 of "dev/app" has 0 comments

  @gitea
  Scenario: An empty comment is refused with 422 and nothing is stored
    When "bob" comments "" on issue 1 of "dev/app"
    Then the request is refused with status 422
    And issue 1 of "dev/app" has 0 comments

  @gitea
  Scenario: The timeline lists comments and events in order with Gitea's type names
    Given "bob" commented "Reproduced" on issue 1 of "dev/app"
    And "dev" edited issue 1 of "dev/app" with the body
      """
      {"state": "closed"}
      """
    And "dev" edited issue 1 of "dev/app" with the body
      """
      {"state": "open"}
      """
    When "bob" reads the timeline of issue 1 of "dev/app"
    Then the response status is 200
    And the response field "0.type" is "comment"
    And the response field "0.body" is "Reproduced"
    And the response field "1.type" is "close"
    And the response field "2.type" is "reopen"
    And the response is a list of 3 items

  @gitea
  Scenario: Commenting on an unknown issue is not found
    When "bob" comments "Hello" on issue 42 of "dev/app"
    Then the request is refused with status 404

@issues
Feature: An issue's content version counts the edits of its body
  Gitea 1.27's Issue carries "content_version": 0 when the issue is opened, one more for every edit of
  its body (the title does not count; an edit to the same text counts too). EditIssueOption takes a
  "content_version": the version the editor started from; when it is not the issue's current one the
  edit is refused (409, "the issue is already changed", since go-gitea/gitea#37035 which added the field;
  the API answered 400 before) and nothing is stored.

  Background:
    Given a repository "dev/app"
    And "dev" opened the issue "Crash" in "dev/app"

  @gitea
  Scenario: A new issue is at content version 0
    When "dev" opens an issue in "dev/app" with the body
      """
      {"title": "Slow start", "body": "It takes a minute"}
      """
    Then the response status is 201
    And the response field "content_version" is 0

  @gitea
  Scenario: A body edit counts one more version
    When "dev" edits issue 1 of "dev/app" with the body
      """
      {"body": "It crashes on start"}
      """
    Then the response status is 201
    And the response field "content_version" is 1
    And issue 1 of "dev/app" has the body "It crashes on start" at content version 1

  @gitea
  Scenario: A title edit leaves the content version
    When "dev" edits issue 1 of "dev/app" with the body
      """
      {"title": "Crash on start"}
      """
    Then the response status is 201
    And the response field "content_version" is 0

  @gitea
  Scenario: An edit from the current version is applied
    Given "dev" edited issue 1 of "dev/app" with the body
      """
      {"body": "second"}
      """
    When "dev" edits issue 1 of "dev/app" with the body
      """
      {"body": "third", "content_version": 1}
      """
    Then the response status is 201
    And issue 1 of "dev/app" has the body "third" at content version 2

  @gitea
  Scenario: An edit from a stale version is refused and stores nothing
    Given "dev" edited issue 1 of "dev/app" with the body
      """
      {"body": "second"}
      """
    When "dev" edits issue 1 of "dev/app" with the body
      """
      {"body": "lost", "content_version": 0}
      """
    Then the request is refused with status 409
    And the error message mentions "already changed"
    And issue 1 of "dev/app" has the body "second" at content version 1

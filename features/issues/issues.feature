@issues
Feature: Issues are opened, listed, edited and commented over REST
  Issues live under /repos/{owner}/{repo}/issues as in Gitea 1.27. Issues and pull requests share one
  number sequence per repository. Anyone who can read a repository and is signed in may open issues
  and comment on them; the poster may edit their own issue, writers may edit any; assignees are set by
  writers only, on creation and as a whole on edit. Every change is recorded in the issue's timeline,
  whose entries carry Gitea's comment type names.

  Background:
    Given a repository "dev/app"
    And a user "bob"

  @gitea
  Scenario: A reader opens an issue and it gets the repository's first number
    When "bob" opens the issue "Crash on start" in "dev/app"
    Then the response status is 201
    And the response field "number" is 1
    And the response field "user.login" is the name of "bob"
    And the response field "state" is "open"
    And the response field "is_locked" is false
    And the response field "pull_request" is null

  @gitea
  Scenario: Issues are listed newest first with their total count, filtered by state
    Given "dev" opened the issue "First" in "dev/app"
    And "dev" opened the issue "Second" in "dev/app"
    And "dev" opened the issue "Third" in "dev/app"
    And "dev" edited issue 2 of "dev/app" with the body
      """
      {"state": "closed"}
      """
    When "bob" lists the issues of "dev/app" with "state=open&limit=1"
    Then the response status is 200
    And the response lists the issue numbers "3"
    And the response header "X-Total-Count" is "2"
    And the response has the header "Link"

  @gitea
  Scenario: Issues are searched by keyword
    Given "dev" opened the issue "Login fails with SSO" in "dev/app"
    And "dev" opened the issue "Dark mode" in "dev/app"
    When "bob" lists the issues of "dev/app" with "q=SSO&state=all"
    Then the response status is 200
    And the response lists the issue numbers "1"
    And the response header "X-Total-Count" is "1"

  @gitea
  Scenario: The poster edits their own issue, and the timeline records the change of title and the closing
    Given "bob" opened the issue "Typo" in "dev/app"
    When "bob" edits issue 1 of "dev/app" with the body
      """
      {"title": "Typo in the README", "state": "closed"}
      """
    Then the response status is 201
    And the response field "title" is "Typo in the README"
    And the response field "state" is "closed"
    And the timeline of issue 1 of "dev/app" has the types "change_title, close"

  @gitea
  Scenario: A reader cannot edit somebody else's issue and it stays as it was
    Given "dev" opened the issue "Roadmap" in "dev/app"
    When "bob" edits issue 1 of "dev/app" with the body
      """
      {"title": "Hijacked", "state": "closed"}
      """
    Then the request is refused with status 403
    And issue 1 of "dev/app" has the title "Roadmap" and is open
    And the timeline of issue 1 of "dev/app" has the types "nothing"

  @gitea
  Scenario: Assignees are set when the issue is opened and replaced as a whole by an edit
    When "dev" opens an issue in "dev/app" with the body
      """
      {"title": "Assigned work", "assignees": ["{dev}"]}
      """
    Then the response status is 201
    And the response field "assignees.0.login" is the name of "dev"
    And the response field "assignee.login" is the name of "dev"
    And the timeline of issue 1 of "dev/app" has the types "assignees"

  @gitea
  Scenario: An edit with an empty assignee list clears the assignees
    Given "dev" opened the issue "Assigned work" in "dev/app"
    And "dev" edited issue 1 of "dev/app" with the body
      """
      {"assignees": ["{dev}"]}
      """
    When "dev" edits issue 1 of "dev/app" with the body
      """
      {"assignees": []}
      """
    Then the response status is 201
    And the response field "assignees" is null
    And the timeline of issue 1 of "dev/app" has the types "assignees, assignees"

  @gitea
  Scenario: An unknown assignee is refused with 422 and no issue is opened
    When "dev" opens an issue in "dev/app" with the body
      """
      {"title": "Assigned to a ghost", "assignees": ["{dev}-nobody"]}
      """
    Then the request is refused with status 422
    And the error message mentions "Assignee does not exist: [name: "
    And "dev/app" has 0 issues

  @gitea
  Scenario: An unknown issue number is not found
    When "bob" reads issue 99 of "dev/app"
    Then the request is refused with status 404

  @gitea
  Scenario: An anonymous client cannot open an issue
    When "an anonymous client" opens the issue "Spam" in "dev/app"
    Then the request is refused with status 401
    And "dev/app" has 0 issues

  @gitea
  Scenario: A lone UTF-16 surrogate in a JSON string becomes U+FFFD and reads back
    JSON allows "\ud800" alone, which no UTF-8 text can hold. Go's decoder (and so Gitea) replaces
    it by U+FFFD; a forge must neither fail (500) nor store something that breaks later reads.
    Given a repository "dev/app"
    When "dev" sends POST "repos/{dev/app}/issues" with the body
      """
      {"title": "half \ud800 a pair", "body": "x\udc00y"}
      """
    Then the response status is 201
    And the response field "title" is "half � a pair"
    And the response field "body" is "x�y"

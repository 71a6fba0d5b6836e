@notifications
Feature: Searching issues across the repositories a caller can see
  GET /repos/issues/search (Gitea 1.27): the issues and pull requests of public repositories and of the
  private ones the caller can read, newest first, filtered by state (open by default), type, keyword, labels,
  time of update, the caller's part (created, assigned, mentioned, review requested, reviewed) and the owner
  (400 for an unknown owner, or a team without an owner). Label names that exist nowhere filter nothing. A
  malformed time is 422. The scenarios search one owner's repositories, so the other scenarios' issues on a
  shared forge stay out.

  Background:
    Given a repository "dev/app"
    And a private repository "dev/secret"
    And a user "bob"
    And "bob" opened the issue "Public crash" in "dev/app"
    And "dev" opened the issue "Secret crash" in "dev/secret"

  @gitea
  Scenario: A reader of the private repository finds its issues too, newest first
    When "dev" searches issues with "q=crash&owner=@dev"
    Then the response status is 200
    And the issues found are "Secret crash, Public crash"
    And the response header "X-Total-Count" is "2"

  @gitea
  Scenario: Someone else finds only the public repository's issues
    When "bob" searches issues with "q=crash&owner=@dev"
    Then the response status is 200
    And the issues found are "Public crash"

  @gitea
  Scenario: An anonymous client finds only the public repository's issues
    When "an anonymous client" searches issues with "q=crash&owner=@dev"
    Then the response status is 200
    And the issues found are "Public crash"

  @gitea
  Scenario: Only the issues the caller created
    When "dev" searches issues with "q=crash&owner=@dev&created=true"
    Then the response status is 200
    And the issues found are "Secret crash"

  @gitea
  Scenario: Only the issues assigned to the caller
    Given "dev" assigned "dev" to issue 1 of "dev/app"
    When "dev" searches issues with "q=crash&owner=@dev&assigned=true"
    Then the response status is 200
    And the issues found are "Public crash"

  @gitea
  Scenario: Only the issues that mention the caller
    Given "dev" commented on issue 1 of "dev/app" mentioning "bob"
    When "bob" searches issues with "q=crash&owner=@dev&mentioned=true"
    Then the response status is 200
    And the issues found are "Public crash"

  @gitea
  Scenario: Closed issues are found when asked for
    Given "dev" edited issue 1 of "dev/secret" with the body
      """
      {"state": "closed"}
      """
    When "dev" searches issues with "q=crash&owner=@dev&state=closed"
    Then the response status is 200
    And the issues found are "Secret crash"

  @gitea
  Scenario: Only the repositories of one owner
    Given a repository "bob/mine"
    And "bob" opened the issue "Own crash" in "bob/mine"
    When "bob" searches issues with "q=crash&owner=@bob"
    Then the response status is 200
    And the issues found are "Own crash"

  @gitea
  Scenario: Only the issues with one of the labels named
    Given the repository "dev/app" has the label "bug" with the color "#ee0701"
    And "dev" adds the labels "bug" to the issue "Public crash" in "dev/app"
    When "dev" searches issues with "owner=@dev&labels=bug,docs"
    Then the response status is 200
    And the issues found are "Public crash"

  @gitea
  Scenario: Label names that exist nowhere filter nothing
    When "dev" searches issues with "owner=@dev&labels=no-such-label-anywhere"
    Then the response status is 200
    And the issues found are "Secret crash, Public crash"

  @gitea
  Scenario: Only the issues updated since a time
    When "dev" searches issues with "owner=@dev&since=2999-01-01T00:00:00Z"
    Then the response status is 200
    And the issues found are "none"

  @gitea
  Scenario: Only the pull requests whose review was asked of the caller
    Given "bob" is a collaborator of "dev/app" with the permission "write"
    And the repository "dev/app" has the branch "fix" changing "README.md" to "fixed"
    And "dev" opened a pull request of "fix" into "main" in "dev/app"
    And "dev" requested a review of pull request 2 of "dev/app" from "bob"
    When "bob" searches issues with "owner=@dev&review_requested=true"
    Then the response status is 200
    And the issues found are "Merge fix"

  @gitea
  Scenario: Only the pull requests the caller reviewed
    Given the repository "dev/app" has the branch "fix" changing "README.md" to "fixed"
    And "bob" is a collaborator of "dev/app" with the permission "write"
    And "dev" opened a pull request of "fix" into "main" in "dev/app"
    And "bob" approved pull request 2 of "dev/app"
    When "bob" searches issues with "owner=@dev&reviewed=true&type=pulls"
    Then the response status is 200
    And the issues found are "Merge fix"

  @gitea
  Scenario: Pull requests only
    When "dev" searches issues with "q=crash&owner=@dev&type=pulls"
    Then the response status is 200
    And the issues found are "none"

  @gitea
  Scenario Outline: Refused searches
    When "dev" searches issues with "<query>"
    Then the request is refused with status <status>

    Examples:
      | query              | status |
      | owner=@nobody      | 400    |
      | team=core          | 400    |
      | since=yesterday    | 422    |

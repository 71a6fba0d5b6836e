@pulls
Feature: Pull requests are opened from branches and read over REST
  POST /repos/{owner}/{repo}/pulls opens a pull request of a head branch into a base branch of the
  same repository, as in Gitea 1.27: 201 with the PullRequest. A pull request takes the repository's
  next number, shared with issues. Gitea's refusals, in its order: the same branch as head and base
  (422 "There are no changes between the head and the base"), a branch that does not exist (404), an
  open pull request for the same head and base (409 "pull request already exists for these targets").

  Background:
    Given a repository "dev/app"
    And a user "bob"
    And the repository "dev/app" has the branch "feature" changing "notes.txt" to "first note\n"

  @gitea
  Scenario: A reader opens a pull request of a branch into the default branch
    When "bob" opens a pull request of "feature" into "main" in "dev/app"
    Then the response status is 201
    And the response field "number" is 1
    And the response field "state" is "open"
    And the response field "merged" is false
    And the response field "mergeable" is true
    And the response field "head.ref" is "feature"
    And the response field "base.ref" is "main"
    And the response field "head.sha" is the remembered tip of "feature" of "dev/app"
    And the response field "changed_files" is 1
    And the response field "additions" is 1

  @gitea
  Scenario: Issues and pull requests share one number sequence
    Given "dev" opened the issue "Plan" in "dev/app"
    When "bob" opens a pull request of "feature" into "main" in "dev/app"
    Then the response status is 201
    And the response field "number" is 2

  @gitea
  Scenario: A pull request is read back by its number, and as an issue with its pull request part
    Given "bob" opened a pull request of "feature" into "main" in "dev/app"
    When "dev" reads pull request 1 of "dev/app"
    Then the response status is 200
    And the response field "user.login" is the name of "bob"
    When "dev" reads issue 1 of "dev/app"
    Then the response status is 200
    And the response field "pull_request.merged" is false

  @gitea
  Scenario: A second open pull request of the same branches is refused with 409
    Given "bob" opened a pull request of "feature" into "main" in "dev/app"
    When "dev" opens a pull request of "feature" into "main" in "dev/app"
    Then the request is refused with status 409
    And the error message mentions "pull request already exists for these targets"
    And "dev/app" has 1 pull requests

  @gitea
  Scenario: The same branch as head and base is refused with 422
    When "bob" opens a pull request of "main" into "main" in "dev/app"
    Then the request is refused with status 422
    And the error message mentions "There are no changes between the head and the base"
    And "dev/app" has 0 pull requests

  @gitea
  Scenario: An unknown head branch is not found
    When "bob" opens a pull request of "no-such-branch" into "main" in "dev/app"
    Then the request is refused with status 404
    And "dev/app" has 0 pull requests

  @gitea
  Scenario: An unknown base branch is not found
    When "bob" opens a pull request of "feature" into "no-such-base" in "dev/app"
    Then the request is refused with status 404
    And "dev/app" has 0 pull requests

  @gitea
  Scenario: A pull request needs a title
    When "bob" opens a pull request in "dev/app" with the body
      """
      {"head": "feature", "base": "main"}
      """
    Then the request is refused with status 422
    And "dev/app" has 0 pull requests

  @gitea
  Scenario: An unknown pull request number is not found
    When "bob" reads pull request 5 of "dev/app"
    Then the request is refused with status 404

  @gitea
  Scenario: A pull request's body edit counts one more content version
    Given "dev" opened a pull request of "feature" into "main" in "dev/app"
    When "dev" edits pull request 1 of "dev/app" with the body
      """
      {"body": "Adds the first note"}
      """
    Then the response status is 201
    And the response field "content_version" is 1
    And the response field "body" is "Adds the first note"

  @gitea
  Scenario: A pull request's body edit from a stale content version is refused
    Given "dev" opened a pull request of "feature" into "main" in "dev/app"
    When "dev" edits pull request 1 of "dev/app" with the body
      """
      {"body": "Adds the first note", "content_version": 3}
      """
    Then the request is refused with status 409
    And the error message mentions "already changed"

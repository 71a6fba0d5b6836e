@statuses
Feature: Commit statuses are reported on commits and combined per context
  POST /repos/{owner}/{repo}/statuses/{sha} with a CreateStatusOption (state pending, success, error,
  failure or warning; target_url, description, context) reports a status on a commit: writers only,
  201 with the CommitStatus, whose id numbers the commit's statuses from 1. GET .../statuses/{sha} and
  GET .../commits/{ref}/statuses list a commit's statuses (a ref is a branch, tag or SHA), newest first
  unless sort says otherwise (oldest, recentupdate, leastupdate, leastindex, highestindex), filtered by
  state, paged. Gitea sorts by the creation second alone, so statuses of one second come in the
  database's order: a @gitea scenario only asserts the order where the sort key tells them apart. GET .../commits/{ref}/status answers Gitea's CombinedStatus: the latest status of each
  context and their combined state, as Gitea 1.27 computes it: failure when any of them is error or
  failure, success when all are success or warning, pending otherwise. An unknown commit or ref is 404
  (a status on an unknown commit is 500 on Gitea: its handler does not map the missing commit).

  Background:
    Given a repository "dev/app"
    And a user "bob"
    And the repository "dev/app" has the file "build.txt" with content "one"

  @gitea
  Scenario: A writer reports a status on a commit
    When "dev" reports the status "pending" with the context "ci/build" on the branch "main" of "dev/app"
    Then the response status is 201
    And the response field "id" is 1
    And the response field "status" is "pending"
    And the response field "context" is "ci/build"
    And the response field "target_url" is "https://ci.example/build/1"
    And the response field "creator.login" is the name of "dev"

  @gitea
  Scenario: The combined status takes the latest status of each context
    Given "dev" reported the status "failure" with the context "ci/build" on the branch "main" of "dev/app"
    And "dev" reported the status "success" with the context "ci/lint" on the branch "main" of "dev/app"
    And "dev" reported the status "success" with the context "ci/build" on the branch "main" of "dev/app"
    When "bob" reads the combined status of "main" in "dev/app"
    Then the response status is 200
    And the response field "state" is "success"
    And the response field "total_count" is 2
    And the combined status holds the contexts "ci/build:success, ci/lint:success"
    And the response field "sha" is the tip of "main" of "dev/app"
    And the response field "sha" is the object Git resolves "HEAD" to in a clone of "dev/app"

  @gitea
  Scenario Outline: The combined state of two contexts
    Given "dev" reported the status "<first>" with the context "ci/build" on the branch "main" of "dev/app"
    And "dev" reported the status "<second>" with the context "ci/lint" on the branch "main" of "dev/app"
    When "bob" reads the combined status of "main" in "dev/app"
    Then the response field "state" is "<combined>"

    Examples:
      | first   | second  | combined |
      | success | warning | success  |
      | success | pending | pending  |
      | success | error   | failure  |
      | warning | failure | failure  |

  @gitea
  Scenario: A commit's statuses are listed newest first, or oldest first when asked
    Given "dev" reported the status "pending" with the context "ci/build" on the branch "main" of "dev/app"
    And "dev" reported the status "success" with the context "ci/build" on the branch "main" of "dev/app"
    And "dev" reported the status "error" with the context "ci/lint" on the branch "main" of "dev/app"
    When "bob" lists the statuses of the tip of "main" of "dev/app" by its SHA sorted "oldest"
    Then the response status is 200
    And the statuses listed are "ci/build:pending, ci/build:success, ci/lint:error" in this order
    And the response header "X-Total-Count" is "3"

  @gitea
  Scenario: A branch's statuses are those of its tip, filtered by state
    Given "dev" reported the status "pending" with the context "ci/build" on the branch "main" of "dev/app"
    And "dev" reported the status "success" with the context "ci/build" on the branch "main" of "dev/app"
    And "dev" reported the status "success" with the context "ci/lint" on the branch "main" of "dev/app"
    When "bob" lists the statuses of "main" in "dev/app" filtered by the state "success"
    Then the response status is 200
    And the statuses listed are "ci/lint:success, ci/build:success" in any order

  @gitea
  Scenario: A reader cannot report a status
    When "bob" reports the status "success" with the context "ci/build" on the branch "main" of "dev/app"
    Then the request is refused with status 403
    And the branch "main" of "dev/app" has 0 statuses

  @reference
  Scenario: A status on a commit the repository does not have is refused with 404
    When "dev" reports the status "success" on the commit "0123456789abcdef0123456789abcdef01234567" of "dev/app"
    Then the request is refused with status 404

  @gitea
  Scenario: The combined status of an unknown ref is refused with 404
    When "bob" reads the combined status of "no-such-branch" in "dev/app"
    Then the request is refused with status 404

  @reference
  Scenario: A status with a state Gitea does not know is refused with 400
    When "dev" reports a status on the branch "main" of "dev/app" with the body
      """
      {"state": "green", "context": "ci/build"}
      """
    Then the request is refused with status 400
    And the branch "main" of "dev/app" has 0 statuses

@pulls
Feature: A merge is scheduled for when the checks succeed
  POST /repos/{owner}/{repo}/pulls/{index}/merge with merge_when_checks_succeed schedules the merge, as
  in Gitea 1.27: 201 with an empty body, checked for who may merge but not yet for the base branch's
  protection rule; a second schedule is 409. The forge merges as the scheduler once the rule is
  satisfied, for example when the required status turns green on the head commit. DELETE
  .../pulls/{index}/merge cancels the schedule (204): the scheduler or a repository administrator,
  403 for others, 404 when nothing is scheduled.

  Background:
    Given a repository "dev/app"
    And "bob" is a collaborator of "dev/app" with the permission "write"
    And the repository "dev/app" has the branch "feature" changing "app.txt" to "new\n"
    And "dev" opened a pull request of "feature" into "main" in "dev/app"
    And "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": true, "enable_status_check": true, "status_check_contexts": ["ci/*"]}
      """

  @gitea
  Scenario: A merge scheduled while the required status is pending waits
    Given "dev" reported the status "pending" with the context "ci/build" on the branch "feature" of "dev/app"
    When "dev" schedules the merge of pull request 1 of "dev/app" for when the checks succeed
    Then the response status is 201
    And pull request 1 of "dev/app" is open and not merged

  @gitea
  Scenario: A scheduled merge happens once the required status turns green
    Given "dev" scheduled the merge of pull request 1 of "dev/app" for when the checks succeed
    When "dev" reports the status "success" with the context "ci/build" on the branch "feature" of "dev/app"
    Then the response status is 201
    And pull request 1 of "dev/app" becomes merged

  @gitea
  Scenario: A merge cannot be scheduled twice
    Given "dev" scheduled the merge of pull request 1 of "dev/app" for when the checks succeed
    When "dev" schedules the merge of pull request 1 of "dev/app" for when the checks succeed
    Then the request is refused with status 409

  @gitea
  Scenario: A cancelled schedule does not merge when the status turns green
    Given "dev" scheduled the merge of pull request 1 of "dev/app" for when the checks succeed
    And "dev" cancelled the scheduled merge of pull request 1 of "dev/app"
    When "dev" reports the status "success" with the context "ci/build" on the branch "feature" of "dev/app"
    Then the response status is 201
    And pull request 1 of "dev/app" is open and not merged

  @gitea
  Scenario: A writer who neither scheduled the merge nor administers the repository cannot cancel it
    Given "dev" scheduled the merge of pull request 1 of "dev/app" for when the checks succeed
    When "bob" cancels the scheduled merge of pull request 1 of "dev/app"
    Then the request is refused with status 403

  @gitea
  Scenario: Cancelling when nothing is scheduled is 404
    When "dev" cancels the scheduled merge of pull request 1 of "dev/app"
    Then the request is refused with status 404

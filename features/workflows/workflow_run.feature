@workflows
Feature: A completed workflow run triggers the workflows that wait for it (on: workflow_run)
  A workflow with "on: workflow_run" naming another workflow in "workflows" and "completed" in
  "types" gets a run with the event "workflow_run" when a run of that workflow completes, whatever
  its conclusion. Its job sees the event payload: action "completed" and the triggering run in
  "workflow_run". The reference reads the waiting workflows from the default branch, as GitHub and
  Gitea do, and matches "workflows" against the workflow's name (also its file name).

  Background:
    Given a repository "dev/app"
    And a mock runner registered to "dev/app" with the labels "ubuntu-latest"
    And the workflow "report.yml" is pushed to the repository with
      """
      name: Report
      on:
        workflow_run:
          workflows: [CI]
          types: [completed]
      jobs:
        report:
          runs-on: ubuntu-latest
          steps:
            - run: echo report
      """

  @spec @clause_S6_1 @clause_S2_2_event
  Scenario Outline: A completed run starts the workflow waiting for it
    Given the workflow "ci.yml" named "CI" is pushed to the repository
    And the mock runner has taken the job
    Then the repository has no run of "report.yml"
    When the mock runner reports the job's result as "<result>"
    Then the repository has a run of "report.yml" with event "workflow_run"
    When the mock runner takes the job and reads its context
    Then the job's event is the completion of the run of "ci.yml" with conclusion "<result>"

    Examples:
      | result  |
      | success |
      | failure |

  @gitea @clause_S6_1
  Scenario: A run of a workflow not named in "workflows" triggers nothing
    Given the workflow "lint.yml" named "Lint" is pushed to the repository
    And the mock runner has taken the job
    When the mock runner reports the job's result as "success"
    Then the run of "lint.yml" has completed with conclusion "success"
    And the repository has no run of "report.yml"

  @gitea @clause_S6_1 @clause_S2_3_workflow
  Scenario: A disabled waiting workflow is not started
    Given the repository's owner has disabled the workflow "report.yml"
    And the workflow "ci.yml" named "CI" is pushed to the repository
    And the mock runner has taken the job
    When the mock runner reports the job's result as "success"
    Then the run of "ci.yml" has completed with conclusion "success"
    And the repository has no run of "report.yml"

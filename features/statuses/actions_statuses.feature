@statuses
Feature: Actions jobs report commit statuses on the commit of their run
  Every job of a run that a push or a pull request triggered reports a commit status on the run's
  commit, with the context "<workflow name> / <job name> (<event>)" and a target_url under the run's
  page, created by Gitea's Actions user. The status follows the job, as Gitea 1.27's mapping has it:
  pending while the job waits or runs, success when it succeeds, failure when it fails or is cancelled.
  A run that a workflow dispatch started reports nothing.

  Background:
    Given a repository "dev/app"
    And a mock runner registered to "dev/app" with the labels "ubuntu-latest"

  @gitea
  Scenario: A pushed workflow's job reports a pending status linked to its run
    When the workflow "ci.yml" named "CI" is pushed to the repository
    Then the commit of the run of "ci.yml" has the status "pending" for "CI / main (push)"
    And the status "CI / main (push)" of the run of "ci.yml" links to the run

  @gitea
  Scenario Outline: The job's status follows its result
    Given the workflow "ci.yml" named "CI" is pushed to the repository
    And the mock runner has taken the job
    When the mock runner reports the job's result as "<result>"
    Then the commit of the run of "ci.yml" has the status "<result>" for "CI / main (push)"

    Examples:
      | result  |
      | success |
      | failure |

  @gitea
  Scenario: A dispatched run reports no status
    Given the workflow "deploy.yml" is pushed to the repository with
      """
      name: Deploy
      on:
        workflow_dispatch:
      jobs:
        deploy:
          runs-on: ubuntu-latest
          steps:
            - run: echo deploying
      """
    When the repository's owner dispatches "deploy.yml" on the default branch
    Then the response status is 204
    And the commit of the run of "deploy.yml" has no status

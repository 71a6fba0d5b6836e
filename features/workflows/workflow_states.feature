@workflows
Feature: Workflows are disabled and enabled, and dispatched with inputs
  PUT .../workflows/{file}/disable turns a workflow off: it shows the state "disabled_manually", a
  dispatch is refused with 403 and a push does not run it. PUT .../enable turns it on again. A
  dispatch takes its inputs from the request, falls back to each declared input's default, and
  ignores inputs the workflow does not declare; the job sees them in its event payload.

  Background:
    Given a repository "dev/app"
    And a mock runner registered to "dev/app" with the labels "ubuntu-latest"
    And the workflow "deploy.yml" is pushed to the repository with
      """
      name: Deploy
      on:
        workflow_dispatch:
          inputs:
            target:
              default: staging
            region:
              default: eu
      jobs:
        deploy:
          runs-on: ubuntu-latest
          steps:
            - run: echo deploying
      """

  @gitea @clause_S4_4_workflows_list @clause_S2_3_workflow
  Scenario: A disabled workflow shows the state disabled_manually
    When the repository's owner disables the workflow "deploy.yml"
    Then the response status is 204
    When the repository's owner gets the workflow "deploy.yml"
    Then the response field "state" is "disabled_manually"
    When the repository's owner enables the workflow "deploy.yml"
    Then the response status is 204
    When the repository's owner gets the workflow "deploy.yml"
    Then the response field "state" is "active"

  @gitea @clause_S4_4_dispatch
  Scenario: A disabled workflow refuses a dispatch with 403 and starts no run
    Given the repository's owner has disabled the workflow "deploy.yml"
    When the repository's owner dispatches "deploy.yml" on the default branch
    Then the request is refused with status 403
    And the repository has no workflow run

  @gitea @clause_S4_4_dispatch
  Scenario: An enabled workflow is dispatched again
    Given the repository's owner has disabled the workflow "deploy.yml"
    And the repository's owner has enabled the workflow "deploy.yml"
    When the repository's owner dispatches "deploy.yml" on the default branch
    Then the response status is 204
    And the repository has a run of "deploy.yml" with event "workflow_dispatch"

  @gitea @clause_S2_3_workflow
  Scenario: A disabled workflow is not run on push
    Given the workflow "ci.yml" named "CI" is pushed to the repository
    And the repository's owner has disabled the workflow "ci.yml"
    When a commit adding "notes.txt" is pushed to "dev/app"
    Then the repository has exactly 1 workflow run

  @gitea @clause_S4_4_workflows_list
  Scenario: Disabling an unknown workflow is not found
    When the repository's owner disables the workflow "missing.yml"
    Then the request is refused with status 404

  @spec @clause_S4_4_dispatch
  Scenario: Dispatch inputs take the declared defaults and ignore undeclared names
    When the repository's owner dispatches "deploy.yml" on the default branch with the inputs
      """
      {"target": "production", "undeclared": "ignored"}
      """
    Then the response status is 200
    When the mock runner takes the job and reads its context
    Then the job's inputs are exactly "target=production,region=eu"

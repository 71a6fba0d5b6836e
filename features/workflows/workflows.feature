@workflows
Feature: A repository's workflows are listed, read and dispatched over REST
  Workflows are the files under .gitea/workflows and .github/workflows on the default branch. The
  list is an ActionWorkflowResponse object, not an array; a workflow's id is its file name.
  Dispatch starts a run with event workflow_dispatch and, with return_run_details, answers with
  the id of the run it created.

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
      jobs:
        deploy:
          runs-on: ubuntu-latest
          steps:
            - run: echo deploying
      """

  @spec @clause_S2_3_workflow @clause_S4_4_workflows_list
  Scenario: The workflows are listed as an object
    When the repository's owner lists the workflows
    Then the response status is 200
    And the REST workflow list holds exactly "deploy.yml" with a total_count of 1
    And the workflow "deploy.yml" is named "Deploy" at the path ".gitea/workflows/deploy.yml" in state "active"

  @gitea @clause_S4_4_workflows_list
  Scenario: One workflow is read by its file name
    When the repository's owner gets the workflow "deploy.yml"
    Then the response status is 200
    And the REST workflow has the id "deploy.yml" and the name "Deploy"

  @gitea @clause_S4_4_workflows_list
  Scenario: An unknown workflow is not found
    When the repository's owner gets the workflow "missing.yml"
    Then the request is refused with status 404

  @spec @clause_S4_4_dispatch
  Scenario: Dispatch with return_run_details answers with the created run
    When the repository's owner dispatches "deploy.yml" on the default branch with run details
    Then the response status is 200
    And the run details name a run of the repository with event "workflow_dispatch"
    When the mock runner takes the job
    Then the task handed out belongs to the dispatched run
    And the task of "deploy.yml" is named "Deploy"

  @gitea @clause_S4_4_dispatch
  Scenario: Dispatch without return_run_details answers 204 and starts a run
    When the repository's owner dispatches "deploy.yml" on the default branch
    Then the response status is 204
    And the repository has a run of "deploy.yml" with event "workflow_dispatch"

  @gitea @clause_S4_4_dispatch
  Scenario: Dispatch without a ref is refused with 422
    When the repository's owner dispatches "deploy.yml" without a ref
    Then the request is refused with status 422
    And the repository has no workflow run

  @gitea @clause_S4_4_dispatch
  Scenario: Dispatch of an unknown workflow is not found
    When the repository's owner dispatches "missing.yml" on the default branch
    Then the request is refused with status 404
    And the repository has no workflow run

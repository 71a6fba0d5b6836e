@workflows
Feature: A workflow dispatch with bad input is refused with Gitea's status and message, and starts no run
  Gitea 1.27 checks a dispatch in this order: the body must bind (ref is required and a string:
  422), a disabled workflow is refused (403 "workflow is disabled") before the ref is looked up, a
  ref that names no branch or tag is not found (404 'ref "x" doesn't exist'; a short name is a
  branch name), a workflow file that is not on that ref is not found (404 'workflow "x" doesn't
  exist'), and a workflow without an on: workflow_dispatch trigger is refused with 422. No run is
  created by any of them.

  Background:
    Given a repository "dev/app"
    And the workflow "deploy.yml" is pushed to the repository with
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

  @gitea @clause_S4_4_dispatch
  Scenario Outline: A ref that names no branch or tag is not found
    When the repository's owner dispatches "deploy.yml" on the ref "<ref>"
    Then the request is refused with status 404
    And the error message mentions "doesn't exist"
    And the error message mentions "<ref>"
    And the repository has no workflow run

    Examples:
      | ref              |
      | no-such-branch   |
      | refs/heads/gone  |
      | refs/tags/v9.9.9 |
      | refs/pull/1/head |
      | main..main       |

  @gitea @clause_S4_4_dispatch
  Scenario: A ref that is not a string is refused with 422
    When the repository's owner dispatches "deploy.yml" with a ref that is a number
    Then the request is refused with status 422
    And the error message mentions "Ref"
    And the repository has no workflow run

  @gitea @clause_S4_4_dispatch
  Scenario: An empty ref is refused with 422
    When the repository's owner dispatches "deploy.yml" on the ref ""
    Then the request is refused with status 422
    And the error message mentions "Ref"
    And the repository has no workflow run

  @gitea @clause_S4_4_dispatch
  Scenario: A workflow without a workflow_dispatch trigger is refused with 422
    Given the workflow "triage.yml" is pushed to the repository with
      """
      name: Triage
      on: issues
      jobs:
        triage:
          runs-on: ubuntu-latest
          steps:
            - run: echo triage
      """
    When the repository's owner dispatches "triage.yml" on the default branch
    Then the request is refused with status 422
    And the error message mentions "has no workflow_dispatch event trigger"
    And the repository has no workflow run

  @gitea @clause_S4_4_dispatch
  Scenario: An unknown workflow file is not found
    When the repository's owner dispatches "missing.yml" on the default branch
    Then the request is refused with status 404
    And the error message mentions "doesn't exist"
    And the error message mentions "missing.yml"
    And the repository has no workflow run

  @gitea @clause_S4_4_dispatch
  Scenario: A disabled workflow is refused with 403 before its ref is looked up
    Given the repository's owner has disabled the workflow "deploy.yml"
    When the repository's owner dispatches "deploy.yml" on the ref "no-such-branch"
    Then the request is refused with status 403
    And the error message mentions "workflow is disabled"
    And the repository has no workflow run

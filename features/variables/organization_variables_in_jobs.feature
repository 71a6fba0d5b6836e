@variables
Feature: A job of an organization's repository receives the organization's variables
  A task handed to a runner carries the variables of the repository's owner, here an organization,
  and then those of the repository, the repository's winning on a shared name (Gitea's
  GetVariablesOfRun). Variables are not secret: the job's log and its outputs show their values.

  Background:
    Given a user "owner"
    And an organization "acme" owned by "owner"
    And a repository "acme/app"
    And a mock runner registered to "acme/app" with the labels "ubuntu-latest"

  @gitea @slow @clause_S1_org_secrets_variables
  Scenario: An organization's variable reaches the job, and the repository's variable of the same name wins
    Given the organization "acme" has the variable "ORG_TIER" set to "org-gold"
    And the organization "acme" has the variable "REGION" set to "org-region"
    And the repository "acme/app" has the variable "REGION" set to "repo-region"
    And the workflow "org-vars.yml" is pushed to the repository with
      """
      name: org-vars
      on: [push]
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: echo "tier=${{ vars.ORG_TIER }} region=${{ vars.REGION }}"
      """
    When the mock runner runs one job
    Then the job ends with result "success"
    And the job's log read over REST shows "tier=org-gold region=repo-region"

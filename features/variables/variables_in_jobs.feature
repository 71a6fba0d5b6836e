@variables
Feature: Jobs receive the variables of their scope
  A task handed to a runner carries the variables of the repository's owner and then those of the
  repository (the repository's winning on a shared name) as the vars context. Variables are not
  secret: the job's log shows their values.

  Background:
    Given a repository "dev/app"
    And a mock runner registered to "dev/app" with the labels "ubuntu-latest"

  @gitea @slow
  Scenario: A job reads the repository's and the owner's variables
    Given the user "dev" has the variable "TIER" set to "gold"
    And the user "dev" has the variable "REGION" set to "owner-region"
    And the repository "dev/app" has the variable "REGION" set to "eu-west-1"
    And the workflow "vars.yml" is pushed to the repository with
      """
      name: vars
      on: [push]
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: echo "region=${{ vars.REGION }} tier=${{ vars.TIER }} missing=[${{ vars.NOT_SET }}]"
      """
    When the mock runner runs one job
    Then the job ends with result "success"
    And the job's log read over REST shows "region=eu-west-1 tier=gold missing=[]"

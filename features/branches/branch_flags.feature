@branches
Feature: A branch tells the truth about its protection and what the caller may do with it
  GET /repos/{owner}/{repo}/branches/{branch} answers protected, effective_branch_protection_name,
  user_can_push and user_can_merge from the protection rules the scenario itself created (the independent
  source): a branch a rule covers is protected and names that rule; a writer may push only where the rule
  lets them, and merge only where a merge allow-list, when one is on, names them.

  Background:
    Given a repository "dev/app"
    And the repository "dev/app" has a branch "topic"
    And "carol" is a collaborator of "dev/app" with the permission "write"

  @gitea
  Scenario: A branch a rule covers is protected and names the rule
    Given "dev" protects the branch "main" of "dev/app"
    When "carol" gets the branch "main" of "dev/app"
    Then the response status is 200
    And the response field "protected" is true
    And the response field "effective_branch_protection_name" is "main"

  @gitea
  Scenario: A branch no rule covers is not protected and a writer may push and merge there
    Given "dev" protects the branch "main" of "dev/app"
    When "carol" gets the branch "topic" of "dev/app"
    Then the response status is 200
    And the response field "protected" is false
    And the response field "effective_branch_protection_name" is ""
    And the response field "user_can_push" is true
    And the response field "user_can_merge" is true

  @gitea
  Scenario: A writer outside the rule's push and merge allow-lists may do neither there
    Given "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": true, "enable_push_whitelist": true, "enable_merge_whitelist": true}
      """
    When "carol" gets the branch "main" of "dev/app"
    Then the response status is 200
    And the response field "user_can_push" is false
    And the response field "user_can_merge" is false

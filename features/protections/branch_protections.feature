@protections
Feature: Branch protection rules are managed over REST and ordered by priority
  A repository's administrators create, list, read, change and delete its branch protection rules under
  /repos/{owner}/{repo}/branch_protections. A rule is named by a branch name or a glob ("release/*"); it
  has a priority that orders the rules: a rule created without one goes last (the highest priority so
  far plus one), and the list is ordered by priority, then plain branch names before globs, then age.
  The priority route re-numbers rules 1, 2, 3... in the given order, in place: no rule is deleted and
  recreated. Gitea 1.27 does not return rule ids, so a client cannot call that route; the reference
  returns each rule's "id" for that purpose, and refuses with 422 (where Gitea silently ignores them)
  ids that are not rules of the repository, changing nothing.

  Background:
    Given a repository "dev/app"

  @spec @clause_S1_protected_branches @clause_S2_3_protected_branch
  Scenario: A branch protection rule is created with its settings and read back
    When "dev" creates a branch protection on "dev/app" with the body
      """
      {"rule_name": "main", "enable_push": true, "enable_push_whitelist": true,
       "push_whitelist_usernames": ["{dev}"], "required_approvals": 1,
       "status_check_contexts": ["ci/build"], "protected_file_patterns": "*.lock"}
      """
    Then the response status is 201
    And the response field "rule_name" is "main"
    And the response field "priority" is 1
    And the response field "enable_push_whitelist" is true
    And the response field "push_whitelist_usernames" lists exactly the names of "dev"
    And the response field "required_approvals" is 1
    And the response field "status_check_contexts" lists "ci/build"
    And the response field "protected_file_patterns" is "*.lock"
    When "dev" gets the branch protection "main" of "dev/app"
    Then the response status is 200
    And the response field "required_approvals" is 1
    And the response field "push_whitelist_usernames" lists exactly the names of "dev"

  @gitea
  Scenario: Rules without a priority go last; the list is ordered by priority, plain names, then age
    Given "dev" protects the branch "release/*" of "dev/app" with the body
      """
      {"priority": 5}
      """
    And "dev" protects the branch "dev" of "dev/app" with the body
      """
      {"priority": 5}
      """
    And "dev" protects the branch "main" of "dev/app"
    When "dev" lists the branch protections of "dev/app"
    Then the response status is 200
    And the response lists the branch protections "dev, release/*, main" in this order
    And the branch protections of "dev/app" have the priorities "release/*=5, dev=5, main=6"

  @spec @clause_S1_protected_branches @clause_S2_3_protected_branch
  Scenario: Editing a rule's priority re-orders the rules
    Given "dev" protects the branch "main" of "dev/app"
    And "dev" protects the branch "dev" of "dev/app"
    When "dev" edits the branch protection "main" of "dev/app" with the body
      """
      {"priority": 3}
      """
    Then the response status is 200
    And the response field "priority" is 3
    And the branch protections of "dev/app" are "dev, main" in this order

  @reference @clause_S4_4_branch_priority @clause_S2_3_protected_branch
  Scenario: The priority route re-orders the rules in place, by the ids the reference returns
    Given "dev" protects the branch "main" of "dev/app"
    And "dev" protects the branch "dev" of "dev/app"
    And "dev" protects the branch "release/*" of "dev/app"
    When "dev" reorders the branch protections of "dev/app" as "release/*, main, dev"
    Then the response status is 204
    And the branch protections of "dev/app" are "release/*, main, dev" in this order
    And the branch protections of "dev/app" have the priorities "release/*=1, main=2, dev=3"
    And the branch protections of "dev/app" kept their ids and creation times

  @reference @clause_S4_4_branch_priority
  Scenario: The priority route refuses a rule of another repository and changes nothing
    Given a repository "dev/other"
    And "dev" protects the branch "main" of "dev/app"
    And "dev" protects the branch "dev" of "dev/app"
    And "dev" protects the branch "main" of "dev/other"
    When "dev" reorders the branch protections of "dev/app" as "dev, dev/other:main"
    Then the request is refused with status 422
    And the branch protections of "dev/app" have the priorities "main=1, dev=2"
    And the branch protections of "dev/other" have the priorities "main=1"

  @gitea
  Scenario: Editing a rule changes only the given fields
    Given "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": true, "enable_push_whitelist": true, "push_whitelist_usernames": ["{dev}"]}
      """
    When "dev" edits the branch protection "main" of "dev/app" with the body
      """
      {"enable_force_push": true, "required_approvals": 2}
      """
    Then the response status is 200
    And the response field "enable_force_push" is true
    And the response field "required_approvals" is 2
    And the response field "enable_push_whitelist" is true
    And the response field "push_whitelist_usernames" lists exactly the names of "dev"

  @gitea
  Scenario: A deleted rule is gone
    Given "dev" protects the branch "main" of "dev/app"
    When "dev" deletes the branch protection "main" of "dev/app"
    Then the response status is 204
    And the branch protections of "dev/app" are "none" in this order
    When "dev" gets the branch protection "main" of "dev/app"
    Then the request is refused with status 404

  @gitea
  Scenario: A rule without a name is refused with 400
    When "dev" creates a branch protection on "dev/app" with the body
      """
      {"enable_push": true}
      """
    Then the request is refused with status 400
    And the error message mentions "both rule_name and branch_name are empty"
    And the branch protections of "dev/app" are "none" in this order

  @gitea
  Scenario: A second rule of the same name is refused with 403
    Given "dev" protects the branch "main" of "dev/app"
    When "dev" creates a branch protection on "dev/app" with the body
      """
      {"branch_name": "main"}
      """
    Then the request is refused with status 403
    And the error message mentions "Branch protection already exist"
    And the branch protections of "dev/app" are "main" in this order

  @gitea
  Scenario: A rule naming an unknown user is refused with 422 and not stored
    When "dev" creates a branch protection on "dev/app" with the body
      """
      {"rule_name": "main", "enable_push": true, "enable_push_whitelist": true,
       "push_whitelist_usernames": ["{dev}-nobody"]}
      """
    Then the request is refused with status 422
    And the branch protections of "dev/app" are "none" in this order

  @gitea
  Scenario: Only the repository's administrators manage its rules
    Given a user "eve"
    And "dev" protects the branch "main" of "dev/app"
    When "eve" lists the branch protections of "dev/app"
    Then the request is refused with status 403
    When "eve" deletes the branch protection "main" of "dev/app"
    Then the request is refused with status 403
    And the branch protections of "dev/app" are "main" in this order

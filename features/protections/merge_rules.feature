@protections
Feature: The protection rule of a pull request's base branch is enforced on merge
  POST /repos/{owner}/{repo}/pulls/{index}/merge checks the rule that governs the base branch before
  anything moves, as Gitea 1.27's CheckPullMergeable does, and refuses with 405 and Gitea's sentence:
  with a merge allowlist only its users and teams may merge ("User not allowed to merge PR"); with
  status checks on, every required context (a glob) must be success on the head commit ("Not all
  required status checks successful"); required_approvals counts official approvals, those of writers
  or of the approvals allowlist, only each reviewer's latest ("Does not have enough approvals");
  block_on_rejected_reviews refuses while an official request for changes stands ("There are
  requested changes"); block_on_outdated_branch while the base has commits the head lacks ("The head
  branch is behind the base branch"). A push to the head marks the reviews stale, and with
  dismiss_stale_approvals dismisses the approvals. A repository administrator's force_merge passes
  these checks unless block_admin_merge_override is set.

  Background:
    Given a repository "dev/app"
    And "bob" is a collaborator of "dev/app" with the permission "write"
    And the repository "dev/app" has the branch "feature" changing "app.txt" to "new\n"
    And "dev" opened a pull request of "feature" into "main" in "dev/app"

  @gitea
  Scenario: A merge waits while the required status check is pending
    Given "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": true, "enable_status_check": true, "status_check_contexts": ["ci/*"]}
      """
    And "dev" reported the status "pending" with the context "ci/build" on the branch "feature" of "dev/app"
    When "dev" merges pull request 1 of "dev/app" by merge
    Then the request is refused with status 405
    And the error message mentions "Not all required status checks successful"
    And pull request 1 of "dev/app" is open and not merged

  @gitea
  Scenario: A green status of a context no required glob matches does not satisfy the check
    Given "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": true, "enable_status_check": true, "status_check_contexts": ["ci/*"]}
      """
    And "dev" reported the status "success" with the context "lint" on the branch "feature" of "dev/app"
    When "dev" merges pull request 1 of "dev/app" by merge
    Then the request is refused with status 405
    And the error message mentions "Not all required status checks successful"

  @gitea
  Scenario: A green required status without the required approval still blocks the merge
    Given "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": true, "enable_status_check": true, "status_check_contexts": ["ci/*"], "required_approvals": 1}
      """
    And "dev" reported the status "success" with the context "ci/build" on the branch "feature" of "dev/app"
    When "dev" merges pull request 1 of "dev/app" by merge
    Then the request is refused with status 405
    And the error message mentions "Does not have enough approvals"
    And pull request 1 of "dev/app" is open and not merged

  @gitea
  Scenario: The merge goes through once the required status turned green and the approval arrived
    Given "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": true, "enable_status_check": true, "status_check_contexts": ["ci/*"], "required_approvals": 1}
      """
    And "dev" reported the status "pending" with the context "ci/build" on the branch "feature" of "dev/app"
    And "dev" reported the status "success" with the context "ci/build" on the branch "feature" of "dev/app"
    And "bob" approved pull request 1 of "dev/app"
    When "dev" merges pull request 1 of "dev/app" by merge
    Then the response status is 200
    And pull request 1 of "dev/app" is merged and closed

  @gitea
  Scenario: A reader's approval is not official and does not count
    Given "carol" is a collaborator of "dev/app" with the permission "read"
    And "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": true, "required_approvals": 1}
      """
    And "carol" approved pull request 1 of "dev/app"
    When "dev" merges pull request 1 of "dev/app" by merge
    Then the request is refused with status 405
    And the error message mentions "Does not have enough approvals"

  @gitea
  Scenario: Only a reviewer's latest review counts: an approval replaced by a request for changes
    Given "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": true, "required_approvals": 1}
      """
    And "bob" approved pull request 1 of "dev/app"
    And "bob" requested changes on pull request 1 of "dev/app"
    When "dev" merges pull request 1 of "dev/app" by merge
    Then the request is refused with status 405
    And the error message mentions "Does not have enough approvals"

  @gitea
  Scenario: An official request for changes blocks the merge
    Given "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": true, "block_on_rejected_reviews": true}
      """
    And "bob" requested changes on pull request 1 of "dev/app"
    When "dev" merges pull request 1 of "dev/app" by merge
    Then the request is refused with status 405
    And the error message mentions "There are requested changes"

  @gitea
  Scenario: A push to the head dismisses the approvals when the rule says so
    Given "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": true, "required_approvals": 1, "dismiss_stale_approvals": true}
      """
    And "bob" approved pull request 1 of "dev/app"
    And the branch "feature" of "dev/app" changes "app.txt" to "newer\n"
    When "dev" merges pull request 1 of "dev/app" by merge
    Then the request is refused with status 405
    And the error message mentions "Does not have enough approvals"
    And the review of "bob" on pull request 1 of "dev/app" is dismissed and stale

  @gitea
  Scenario: A head branch behind its base cannot be merged when the rule blocks outdated branches
    Given the branch "main" of "dev/app" changes "other.txt" to "moved on\n"
    And "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": true, "block_on_outdated_branch": true}
      """
    When "dev" merges pull request 1 of "dev/app" by merge
    Then the request is refused with status 405
    And the error message mentions "The head branch is behind the base branch"

  @gitea
  Scenario: With a merge allowlist, a writer outside it cannot merge
    Given "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": true, "enable_merge_whitelist": true, "merge_whitelist_usernames": ["{dev}"]}
      """
    When "bob" merges pull request 1 of "dev/app" by merge
    Then the request is refused with status 405
    And the error message mentions "User not allowed to merge PR"
    And pull request 1 of "dev/app" is open and not merged

  @gitea
  Scenario: A repository administrator forces a merge past the rule
    Given "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": true, "required_approvals": 1}
      """
    When "dev" merges pull request 1 of "dev/app" with the body
      """
      {"Do": "merge", "force_merge": true}
      """
    Then the response status is 200
    And pull request 1 of "dev/app" is merged and closed

  @gitea
  Scenario: An administrator cannot force a merge when the rule blocks overrides
    Given "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": true, "required_approvals": 1, "block_admin_merge_override": true}
      """
    When "dev" merges pull request 1 of "dev/app" with the body
      """
      {"Do": "merge", "force_merge": true}
      """
    Then the request is refused with status 405
    And the error message mentions "Does not have enough approvals"

@protections
Feature: Protection rules are enforced wherever a ref moves
  The same rules hold for a commit of the contents API, a change through the branch API and a real
  `git push` over HTTPS. The rule that governs a branch is the first that matches it in priority order.
  Without "enable_push" nobody pushes; with "enable_push_whitelist" only the listed users and teams
  (and deploy tokens when "push_whitelist_deploy_keys") do; a push that is not a fast-forward needs
  "enable_force_push"; a protected branch cannot be deleted; a change of a file matching
  "protected_file_patterns" is refused. A protected tag is created, moved or deleted only by a user of
  the rule's allowlist. The API answers 403 with Gitea's reason; Git shows the reason on "remote:"
  lines and rejects the ref with "pre-receive hook declined". A refused change moves no ref.
  The contents API checks the rule itself before it pushes (Gitea's VerifyBranchProtection), so its
  messages are "user cannot commit to repo [user: <name>]" and "path is protected and can not be
  changed [path: <file>]"; the branch API refuses to delete a covered branch with "branch protected"
  (CanDeleteBranch); the hook's wording ("Not allowed to push to protected branch <name>", "branch
  <name> is protected from force push") is what a push, or the branch API's move, meets.

  Background:
    Given a repository "dev/app"

  @gitea
  Scenario: A file change on a branch nobody may push to is refused and the branch does not move
    Given "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": false}
      """
    When "dev" creates the file "blocked.txt" in "dev/app" with content "refused"
    Then the request is refused with status 403
    And the error message mentions "user cannot commit to repo"
    And the file "blocked.txt" of "dev/app" does not exist
    And the branch "main" of "dev/app" points at its previous head

  @gitea
  Scenario: A user of the push allowlist changes files on the protected branch
    Given "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": true, "enable_push_whitelist": true, "push_whitelist_usernames": ["{dev}"]}
      """
    When "dev" creates the file "allowed.txt" in "dev/app" with content "allowed"
    Then the response status is 201
    And the file "allowed.txt" of "dev/app" holds "allowed"

  @gitea
  Scenario: A change of a protected file is refused
    Given "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": true, "protected_file_patterns": "*.lock;ci/**"}
      """
    When "dev" creates the file "deps.lock" in "dev/app" with content "pinned"
    Then the request is refused with status 403
    And the error message mentions "path is protected and can not be changed [path: deps.lock]"
    And the file "deps.lock" of "dev/app" does not exist
    And the branch "main" of "dev/app" points at its previous head

  @gitea
  Scenario: The branch API cannot delete a protected branch
    Given the repository "dev/app" has a branch "release/1"
    And "dev" protects the branch "release/*" of "dev/app"
    When "dev" deletes the branch "release/1" of "dev/app"
    Then the request is refused with status 403
    And the error message mentions "branch protected"
    And the branch "release/1" of "dev/app" points at its previous head

  @gitea
  Scenario: The branch API cannot force a protected branch back
    Given the repository "dev/app" has a branch "release/1"
    And the branch "release/1" of "dev/app" has 1 more commits
    And "dev" protects the branch "release/*" of "dev/app"
    When "dev" moves the branch "release/1" of "dev/app" to the head of "main" with force
    Then the request is refused with status 403
    And the error message mentions "branch release/1 is protected from force push"
    And the branch "release/1" of "dev/app" points at its previous head

  @gitea
  Scenario: The first matching rule in priority order governs a branch
    Given the repository "dev/app" has a branch "release/1"
    And "dev" protects the branch "release/1" of "dev/app" with the body
      """
      {"enable_push": true, "priority": 2}
      """
    And "dev" protects the branch "release/*" of "dev/app" with the body
      """
      {"enable_push": false, "priority": 1}
      """
    When "dev" creates the file "notes.txt" in "dev/app" on the branch "release/1" with content "refused"
    Then the request is refused with status 403
    And the error message mentions "user cannot commit to repo"

  @gitea
  Scenario: A git push to a branch nobody may push to is declined by the pre-receive hook
    Given "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": false}
      """
    When "dev" pushes a new commit to the branch "main" of "dev/app" with git
    Then the push is declined by the pre-receive hook saying "Not allowed to push to protected branch main"
    And the remote ref did not move for "dev"

  @gitea
  Scenario: A git force push to a protected branch is declined by the pre-receive hook
    Given "dev" protects the branch "main" of "dev/app"
    When "dev" force-pushes a rewritten history to the branch "main" of "dev/app" with git
    Then the push is declined by the pre-receive hook saying "branch main is protected from force push"
    And the remote ref did not move for "dev"

  @gitea
  Scenario: A git force push is accepted where the rule allows it
    Given "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": true, "enable_force_push": true}
      """
    When "dev" force-pushes a rewritten history to the branch "main" of "dev/app" with git
    Then the push is accepted

  @gitea
  Scenario: A git push of a protected tag by a user outside its allowlist is declined
    Given a user "ops"
    And "dev" protects the tags "v*" of "dev/app" for "ops"
    When "dev" pushes the tag "v1.0" to "dev/app" with git
    Then the push is declined by the pre-receive hook saying "Tag v1.0 is protected"
    And the remote ref did not move for "dev"

  @gitea
  Scenario: A user of a tag rule's allowlist pushes a protected tag
    Given "dev" protects the tags "v*" of "dev/app" for "dev"
    When "dev" pushes the tag "v1.0" to "dev/app" with git
    Then the push is accepted

@deploy_tokens @capability_deploy_tokens
Feature: A deploy token is the password of Git requests for its one repository
  The real git client clones, fetches and pushes over HTTPS with a deploy token as the password (the user
  name does not matter). A read-only token clones but its push is refused at the ref advertisement with 403,
  as Gitea refuses it; a read-write token pushes, and the push is a push like any other: workflows run. A
  token opens nothing of another repository, and a regenerated or deleted token's old secret fails at once
  with 401.

  Background:
    Given a private repository "dev/app"

  @spec @clause_S5_3
  Scenario: A read-only deploy token clones, and its push is refused without moving the branch
    Given the repository "dev/app" has a read-only deploy token "reader"
    When "dev/app" is cloned over HTTPS with the deploy token "reader"
    Then the clone succeeds
    And the clone of "dev/app" has the file "README.md"
    When a commit changing "deployed.txt" is pushed to the branch "main" of "dev/app" over HTTPS with the deploy token "reader"
    Then the push is refused with status 403
    And the branch "main" of "dev/app" is unchanged

  @spec @clause_S2_3_deploy_token
  Scenario: A read-write deploy token pushes
    Given the repository "dev/app" has a read-write deploy token "writer"
    When a commit changing "deployed.txt" is pushed to the branch "main" of "dev/app" over HTTPS with the deploy token "writer"
    Then the push succeeds
    And the branch "main" of "dev/app" is at the pushed commit

  @spec @clause_S1_deploy_tokens
  Scenario: A deploy token opens nothing of another repository
    Given a private repository "dev/other"
    And the repository "dev/app" has a read-write deploy token "writer"
    When "dev/other" is cloned over HTTPS with the deploy token "writer"
    Then the clone is refused with status 404

  @spec @clause_S5_3
  Scenario: After a regeneration the old secret fails at once and the new one works
    Given the repository "dev/app" has a read-only deploy token "rotating"
    And "dev" regenerates the deploy token "rotating"
    When "dev/app" is cloned over HTTPS with the previous secret of the deploy token "rotating"
    Then the clone is refused with status 401
    When "dev/app" is cloned over HTTPS with the deploy token "rotating"
    Then the clone succeeds

  @gitea
  Scenario: A deleted deploy token fails at once
    Given the repository "dev/app" has a read-only deploy token "short-lived"
    And "dev" deletes the deploy token "short-lived"
    When "dev/app" is cloned over HTTPS with the deploy token "short-lived"
    Then the clone is refused with status 401

  @gitea
  Scenario: A push with a read-write deploy token starts the repository's workflows
    Given the workflow "ci.yml" named "CI" is pushed to the repository
    And the repository "dev/app" has a read-write deploy token "deployer"
    When a commit changing "deployed.txt" is pushed to the branch "main" of "dev/app" over HTTPS with the deploy token "deployer"
    Then the push succeeds
    And a run of "ci.yml" starts at the pushed commit with event "push"

@branches
Feature: Branches are listed, read, created and deleted
  GET /repos/{owner}/{repo}/branches lists branches by name, paged with X-Total-Count; POST creates a
  branch (CreateBranchRepoOption: new_branch_name from old_ref_name, a branch, tag or commit, or else
  the default branch; 201 Branch); DELETE removes one (204), never the default branch (403, as Gitea).
  A refused request leaves every branch where it was.

  Background:
    Given a repository "alice/demo"
    And the repository "alice/demo" has a branch "dev"

  @gitea
  Scenario: The branch list is paged and counted
    Given the repository "alice/demo" has a branch "zeta"
    When "alice" lists the branches of "alice/demo" with limit 2 and page 1
    Then the response status is 200
    And the response lists the branches "dev, main"
    And the response header "X-Total-Count" is "3"
    And the response has the header "Link"

  @gitea
  Scenario: A branch is read with its head commit
    When "alice" gets the branch "dev" of "alice/demo"
    Then the response status is 200
    And the response is the branch "dev" at the head of "main" of "alice/demo"

  @gitea
  Scenario: A branch is created from another branch
    Given the branch "dev" of "alice/demo" has 1 more commits
    When "alice" creates the branch "topic" in "alice/demo" from "dev"
    Then the response status is 201
    And the branch "topic" of "alice/demo" points at the head of "dev"

  @gitea
  Scenario: A branch is created from a commit SHA
    Given the branch "dev" of "alice/demo" has 1 more commits
    When "alice" creates the branch "old" in "alice/demo" from the first commit of "dev"
    Then the response status is 201
    And the branch "old" of "alice/demo" points at the head of "main"

  @gitea
  Scenario: Creating a branch that exists is a conflict and moves nothing
    Given the branch "dev" of "alice/demo" has 1 more commits
    When "alice" creates the branch "dev" in "alice/demo" from "main"
    Then the request is refused with status 409
    And the branch "dev" of "alice/demo" points at its previous head

  @gitea
  Scenario: Creating a branch from a missing source is not found and creates nothing
    When "alice" creates the branch "topic" in "alice/demo" from "no-such-branch"
    Then the request is refused with status 404
    And the branch "topic" of "alice/demo" does not exist

  @gitea
  Scenario: A branch is deleted
    When "alice" deletes the branch "dev" of "alice/demo"
    Then the response status is 204
    And the branch "dev" of "alice/demo" does not exist

  @gitea
  Scenario: The default branch cannot be deleted
    When "alice" deletes the branch "main" of "alice/demo"
    Then the request is refused with status 403
    And the branch "main" of "alice/demo" points at its previous head

  @gitea
  Scenario: Deleting a missing branch is not found
    When "alice" deletes the branch "no-such-branch" of "alice/demo"
    Then the request is refused with status 404

  @gitea
  Scenario: A reader cannot create branches
    Given a user "bob"
    When "bob" creates the branch "topic" in "alice/demo" from "main"
    Then the request is refused with status 403
    And the branch "topic" of "alice/demo" does not exist

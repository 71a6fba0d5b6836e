@forks @capability_sync_fork
Feature: Forgejo's sync_fork routes tell how far a fork is behind and fast-forward it
  Forgejo 15 offers GET /repos/{owner}/{repo}/sync_fork[/{branch}] (SyncForkInfo: allowed, fork_commit,
  base_commit, commits_behind) and POST on the same paths (204) to fast-forward a fork branch to its
  base branch. Gitea 1.27 has no such routes: targets without them report the capability unsupported.

  Background:
    Given a repository "alice/demo"
    And a user "bob"
    And "bob" forked "alice/demo" as "bob/copy"
    And the branch "main" of "alice/demo" has 2 more commits

  @spec @clause_S4_4_fork_sync
  Scenario: The sync state counts the commits the fork lacks
    When "bob" reads the sync state of the branch "main" of "bob/copy"
    Then the response status is 200
    And the response field "allowed" is true
    And the response field "commits_behind" is 2

  @spec @clause_S4_4_fork_sync
  Scenario: Syncing fast-forwards the fork branch
    When "bob" syncs the branch "main" of the fork "bob/copy"
    Then the response status is 204
    And the branch "main" of "bob/copy" points at the head of the branch "main" of "alice/demo"

  @gitea
  Scenario: Syncing a fork that has its own commits is refused and changes nothing
    Given the branch "main" of "bob/copy" has the file "bob.txt" with content "from the fork"
    When "bob" syncs the branch "main" of the fork "bob/copy"
    Then the request is refused with status 400
    And the branch "main" of "bob/copy" points at its previous head

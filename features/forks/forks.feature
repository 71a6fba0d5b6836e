@forks
Feature: Repositories are forked and forks are synced with their base
  POST /repos/{owner}/{repo}/forks forks a repository into the caller's account or an organization
  (CreateForkOption: organization, name) and answers 202 with the new Repository (fork true, parent the
  base), as Gitea. The fork holds its own copy of the Git data: deleting the base leaves it whole.
  POST /repos/{owner}/{repo}/merge-upstream ({branch, ff_only}) brings a fork branch up to date with the
  same branch of the base (or the base's default branch) and says how: up-to-date, fast-forward or merge.

  Background:
    Given a repository "alice/demo"
    And a user "bob"
    And "bob" forked "alice/demo" as "bob/copy"

  @gitea
  Scenario: Forking a repository twice into the same account is a conflict
    When "bob" forks "alice/demo" as "bob/second"
    Then the request is refused with status 409

  @gitea
  Scenario: Forking answers 202 with the fork
    Given a user "carol"
    When "carol" forks "alice/demo" as "carol/mine"
    Then the response status is 202
    And the response is a fork of "alice/demo"
    And the branch "main" of "carol/mine" points at the head of the branch "main" of "alice/demo"

  @gitea
  Scenario: A repository's forks are listed
    When "alice" lists the forks of "alice/demo"
    Then the response status is 200
    And the response lists the repository "bob/copy"
    And the response header "X-Total-Count" is "1"

  @gitea
  Scenario: A fork can be made into an organization
    Given an organization "acme" owned by "bob"
    When "bob" forks "alice/demo" as "acme/copy"
    Then the response status is 202
    And the response is a fork of "alice/demo"

  @spec @clause_S4_4_fork_sync @clause_S1_rename_sync_multifile
  Scenario: A fork behind its base is fast-forwarded
    Given the branch "main" of "alice/demo" has 2 more commits
    When "bob" merges upstream into the branch "main" of "bob/copy"
    Then the response status is 200
    And the response field "merge_type" is "fast-forward"
    And the branch "main" of "bob/copy" points at the head of the branch "main" of "alice/demo"

  @spec @clause_S4_4_fork_sync
  Scenario: A fork already up to date is left alone
    When "bob" merges upstream into the branch "main" of "bob/copy"
    Then the response status is 200
    And the response field "merge_type" is "up-to-date"
    And the branch "main" of "bob/copy" points at its previous head

  @spec @clause_S4_4_fork_sync
  Scenario: A fork with its own commits gets a merge commit
    Given the branch "main" of "alice/demo" has 1 more commits
    And the branch "main" of "bob/copy" has the file "bob.txt" with content "from the fork"
    When "bob" merges upstream into the branch "main" of "bob/copy"
    Then the response status is 200
    And the response field "merge_type" is "merge"
    And the branch "main" of "bob/copy" is a merge of its previous head and the branch "main" of "alice/demo"

  @gitea
  Scenario: A fast-forward-only sync that cannot fast-forward is refused and changes nothing
    Given the branch "main" of "alice/demo" has 1 more commits
    And the branch "main" of "bob/copy" has the file "bob.txt" with content "from the fork"
    When "bob" merges upstream into the branch "main" of "bob/copy" fast-forward only
    Then the request is refused with status 400
    And the branch "main" of "bob/copy" points at its previous head

  @gitea
  Scenario: Syncing a repository that is not a fork is a bad request
    When "alice" merges upstream into the branch "main" of "alice/demo"
    Then the request is refused with status 400

  @gitea
  Scenario: Syncing a missing branch of a fork is not found
    When "bob" merges upstream into the branch "no-such-branch" of "bob/copy"
    Then the request is refused with status 404

  @gitea
  Scenario: Only a writer of the fork can sync it
    Given the branch "main" of "alice/demo" has 1 more commits
    When "alice" merges upstream into the branch "main" of "bob/copy"
    Then the request is refused with status 403
    And the branch "main" of "bob/copy" points at its previous head

  @spec @clause_S1_compare @clause_S4_3_compare
  Scenario: A fork's branch is compared with the base as owner:branch
    Given the branch "main" of "bob/copy" has 2 more commits
    When "alice" compares "main...{bob}:main" in "alice/demo"
    Then the response status is 200
    And the comparison counts 2 commits
    And the response lists the commits made on "main" of "bob/copy", newest first

  @gitea
  Scenario: Deleting the base leaves the fork whole
    Given the branch "main" of "bob/copy" has 1 more commits
    When "alice" sends DELETE "/repos/{alice/demo}"
    Then the response status is 204
    And the file "main-1.txt" of "bob/copy" holds "change 1 on main"

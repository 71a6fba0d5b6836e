@branches
Feature: Branches are renamed and moved to another commit
  PATCH /repos/{owner}/{repo}/branches/{branch} renames a branch ({"name"}, 204): the branch update API of
  earlier versions became this rename API (specification 9.4). PUT on the same path moves the branch to
  new_commit_id (204); old_commit_id, when given, must be the current head (422 otherwise), and a move
  that is not a fast-forward needs force (422 otherwise). Every refused request leaves the refs as they
  were.

  Background:
    Given a repository "alice/demo"
    And the repository "alice/demo" has a branch "dev"
    And the branch "dev" of "alice/demo" has 2 more commits

  @spec @clause_S4_4_branches @clause_S1_rename_sync_multifile @clause_S9_4
  Scenario: A branch is renamed and keeps its head
    When "alice" renames the branch "dev" of "alice/demo" to "next"
    Then the response status is 204
    And the branch "next" of "alice/demo" points at the previous head of "dev"
    And the branch "dev" of "alice/demo" does not exist

  @spec @clause_S4_4_branches
  Scenario: Renaming to an existing branch is refused and changes nothing
    When "alice" renames the branch "dev" of "alice/demo" to "main"
    Then the request is refused with status 422
    And the error message mentions "already exists"
    And the branch "dev" of "alice/demo" points at its previous head
    And the branch "main" of "alice/demo" points at its previous head

  @gitea
  Scenario: Renaming a missing branch is not found
    When "alice" renames the branch "no-such-branch" of "alice/demo" to "other"
    Then the request is refused with status 404
    And the branch "other" of "alice/demo" does not exist

  @gitea
  Scenario: Renaming to an invalid branch name is refused
    When "alice" renames the branch "dev" of "alice/demo" to "bad..name"
    Then the request is refused with status 422
    And the branch "dev" of "alice/demo" points at its previous head

  @spec @clause_S4_4_branches @clause_S1_rename_sync_multifile
  Scenario: A branch is moved forward to a newer commit
    When "alice" moves the branch "main" of "alice/demo" to the head of "dev"
    Then the response status is 204
    And the branch "main" of "alice/demo" points at the head of "dev"

  @spec @clause_S4_4_branches
  Scenario: A move giving the current head as the old commit succeeds
    When "alice" moves the branch "main" of "alice/demo" to the head of "dev" giving its current head
    Then the response status is 204
    And the branch "main" of "alice/demo" points at the head of "dev"

  @spec @clause_S4_4_branches
  Scenario: A move giving an outdated old commit is refused and changes nothing
    When "alice" moves the branch "main" of "alice/demo" to the head of "dev" giving an outdated head
    Then the request is refused with status 422
    And the branch "main" of "alice/demo" points at its previous head

  @spec @clause_S4_4_branches
  Scenario: A move that is not a fast-forward is refused without force and changes nothing
    When "alice" moves the branch "dev" of "alice/demo" to the head of "main"
    Then the request is refused with status 422
    And the branch "dev" of "alice/demo" points at its previous head

  @gitea
  Scenario: A move that is not a fast-forward succeeds with force
    When "alice" moves the branch "dev" of "alice/demo" to the head of "main" with force
    Then the response status is 204
    And the branch "dev" of "alice/demo" points at the head of "main"

  @gitea
  Scenario: Moving a missing branch is not found
    When "alice" moves the branch "no-such-branch" of "alice/demo" to the head of "dev"
    Then the request is refused with status 404
    And the branch "no-such-branch" of "alice/demo" does not exist

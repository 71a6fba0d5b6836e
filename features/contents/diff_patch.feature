@contents
Feature: A unified diff is applied to a branch as one commit
  POST /repos/{owner}/{repo}/diffpatch takes a raw unified diff in content (with the usual
  FileOptions) and commits the patched tree on the branch: 201 with a FileResponse whose content is
  null. A patch that does not apply is refused with 422 and nothing changes: a reference choice, since
  Gitea wraps the failure of `git apply` in a plain error that its handleChangeRepoFilesError maps to 500.

  Background:
    Given a repository "alice/demo"
    And the repository "alice/demo" has the file "greeting.txt" with content "hello"

  @spec @clause_S4_4_diffpatch
  Scenario: A patch that applies becomes a commit
    When "alice" applies a patch to "alice/demo" changing "greeting.txt" from "hello" to "goodbye"
    Then the response status is 201
    And the change is a new commit on top of the previous head of "alice/demo"
    And the branch "main" of "alice/demo" is at the new commit
    And the file "greeting.txt" of "alice/demo" holds "goodbye"

  @reference
  Scenario: A patch that does not apply is refused with 422 and changes nothing (Gitea 1.27 answers 500)
    When "alice" applies a patch to "alice/demo" changing "greeting.txt" from "something else" to "goodbye"
    Then the request is refused with status 422
    And the branches of "alice/demo" did not move
    And the file "greeting.txt" of "alice/demo" holds "hello"

  @gitea
  Scenario: A user without write access cannot apply a patch
    Given a user "bob"
    When "bob" applies a patch to "alice/demo" changing "greeting.txt" from "hello" to "goodbye"
    Then the request is refused with status 403
    And the branches of "alice/demo" did not move

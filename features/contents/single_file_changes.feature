@contents
Feature: Single files are created, read, updated and deleted through the contents API, each change a commit
  /repos/{owner}/{repo}/contents/{filepath} reads a file (base64 content and its blob sha) and
  changes one file per call: POST creates (201), PUT updates given the sha the change is based on
  (200), DELETE removes given the sha (200). Every change is a new commit on the branch, on top of
  the branch's previous head.

  Background:
    Given a repository "alice/demo"
    And the repository "alice/demo" has the file "notes/todo.txt" with content "first"

  @spec @clause_S4_4_contents
  Scenario: A file is read with its content
    When "alice" reads the file "notes/todo.txt" of "alice/demo"
    Then the response status is 200
    And the response holds the file "notes/todo.txt" with content "first"

  @gitea
  Scenario: The sha of a file read is Git's own blob hash of its content
    The expected sha is computed here as Git computes it (git hash-object), not taken from the forge.
    When "alice" reads the file "notes/todo.txt" of "alice/demo"
    Then the response status is 200
    And the response field "sha" is the Git blob hash of "first"

  @gitea
  Scenario: Creating a file commits it on top of the branch head
    When "alice" creates the file "notes/done.txt" in "alice/demo" with content "shipped"
    Then the response status is 201
    And the response holds the file "notes/done.txt" with content "shipped"
    And the change is a new commit on top of the previous head of "alice/demo"
    And the file "notes/done.txt" of "alice/demo" was last changed by that commit
    And the file "notes/done.txt" of "alice/demo" holds "shipped"

  @gitea
  Scenario: Updating a file with its current sha commits the new content
    When "alice" updates the file "notes/todo.txt" in "alice/demo" to "second"
    Then the response status is 200
    And the change is a new commit on top of the previous head of "alice/demo"
    And the file "notes/todo.txt" of "alice/demo" was last changed by that commit
    And the file "notes/todo.txt" of "alice/demo" holds "second"
    And the file "notes/todo.txt" of "alice/demo" at the previous head holds "first"

  @gitea
  Scenario: Deleting a file with its sha commits its removal
    When "alice" deletes the file "notes/todo.txt" from "alice/demo"
    Then the response status is 200
    And the change is a new commit on top of the previous head of "alice/demo"
    And the file "notes/todo.txt" of "alice/demo" does not exist

  @gitea
  Scenario: An update based on an outdated sha is refused and changes nothing
    When "alice" updates the file "notes/todo.txt" in "alice/demo" to "lost" based on an outdated sha
    Then the request is refused with status 422
    And the error message mentions "sha"
    And the file "notes/todo.txt" of "alice/demo" holds "first"

  @gitea
  Scenario: Creating a file that exists is refused and changes nothing
    When "alice" creates the file "notes/todo.txt" in "alice/demo" with content "again"
    Then the request is refused with status 422
    And the file "notes/todo.txt" of "alice/demo" holds "first"

  @gitea
  Scenario: Creating a file on a branch that does not exist is not found
    When "alice" creates the file "elsewhere.txt" in "alice/demo" on the branch "no-such-branch" with content "x"
    Then the request is refused with status 404
    And the file "elsewhere.txt" of "alice/demo" does not exist

  @gitea
  Scenario Outline: A path that climbs out of the repository is refused
    When "alice" creates the file "<path>" in "alice/demo" with content "escape"
    Then the request is refused with status 422

    Examples:
      | path                 |
      | ../outside.txt       |
      | notes/../../etc.txt  |

  @gitea
  Scenario: A PUT with from_path renames the file in one commit
    When "alice" moves the file "notes/todo.txt" in "alice/demo" to "notes/later.txt" with content "moved"
    Then the response status is 200
    And the response holds the file "notes/later.txt" with content "moved"
    And the change is a new commit on top of the previous head of "alice/demo"
    And the file "notes/later.txt" of "alice/demo" holds "moved"
    And the file "notes/todo.txt" of "alice/demo" does not exist

  @gitea
  Scenario: A PUT without a sha creates the file
    When "alice" updates the file "notes/new.txt" in "alice/demo" to "made by put" without a sha
    Then the response status is 201
    And the response matches the schema "file_response"
    And the change is a new commit on top of the previous head of "alice/demo"
    And the file "notes/new.txt" of "alice/demo" holds "made by put"

  @gitea
  Scenario: Content that is not base64 is refused and creates nothing
    When "alice" creates the file "garbled.txt" in "alice/demo" with content that is not base64
    Then the request is refused with status 422
    And the file "garbled.txt" of "alice/demo" does not exist

  @gitea
  Scenario: Deleting a file that does not exist is not found
    When "alice" deletes the file "ghost.txt" from "alice/demo" giving the sha of "notes/todo.txt"
    Then the request is refused with status 404

  @gitea
  Scenario: A file that does not exist is not found
    When "alice" reads the file "missing.txt" of "alice/demo"
    Then the request is refused with status 404

  @gitea
  Scenario: A user without write access cannot change a file
    Given a user "bob"
    When "bob" creates the file "intruder.txt" in "alice/demo" with content "x"
    Then the request is refused with status 403
    And the file "intruder.txt" of "alice/demo" does not exist

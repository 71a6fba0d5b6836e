@contents
Feature: Several files are read in one call
  POST /repos/{owner}/{repo}/file-contents takes {"files": [paths]} and answers an array with one
  ContentsResponse per path, in order, null where a path names nothing. The GET form takes the same
  object as JSON text in ?body=. Gitea stops after its default page size (30) of files.

  Background:
    Given a repository "alice/demo"
    And the repository "alice/demo" has the file "docs/a.md" with content "alpha"
    And the repository "alice/demo" has the file "docs/b.md" with content "beta"

  @spec @clause_S4_3_file_contents @clause_S1_rename_sync_multifile
  Scenario: The contents of several files come back in one answer, in order
    When "alice" reads the files "docs/b.md, docs/a.md" of "alice/demo" in one call
    Then the response status is 200
    And the answer lists the files "docs/b.md, docs/a.md"
    And the answer's entry "docs/a.md" holds "alpha"
    And the answer's entry "docs/b.md" holds "beta"

  @gitea
  Scenario: A path that names nothing is null in its place
    When "alice" reads the files "docs/a.md, docs/missing.md, docs/a.md/deeper, docs" of "alice/demo" in one call
    Then the response status is 200
    And the answer lists the files "docs/a.md, null, null, docs"

  @gitea
  Scenario: The GET form reads the paths from the body parameter
    When "alice" reads the files "docs/a.md, docs/b.md" of "alice/demo" in one GET call
    Then the response status is 200
    And the answer lists the files "docs/a.md, docs/b.md"
    And the answer's entry "docs/b.md" holds "beta"

  @gitea
  Scenario: A body parameter that is not JSON is a bad request
    When "alice" reads several files of "alice/demo" with the query body "{files: nope"
    Then the request is refused with status 400
    And the error message mentions "invalid body parameter"

  @gitea
  Scenario: A ref that does not exist is not found
    When "alice" reads the files "docs/a.md" of "alice/demo" at the ref "no-such-ref" in one call
    Then the request is refused with status 404

  @gitea
  Scenario: One call answers at most the default page size of files
    When "alice" reads the file "docs/a.md" of "alice/demo" 40 times in one call
    Then the response status is 200
    And the response is a list of 30 items

  @gitea
  Scenario: The POST form needs a token that may write to repositories
    When "alice" reads the files "docs/a.md" of "alice/demo" in one call with a read-only token
    Then the request is refused with status 403

  @gitea
  Scenario: A path that climbs out of the repository is refused
    When "alice" reads the files "../outside.txt" of "alice/demo" in one call
    Then the request is refused with status 422

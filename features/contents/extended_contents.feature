@contents
Feature: The extended contents answer a file or a directory with the metadata asked for
  GET /repos/{owner}/{repo}/contents-ext/{filepath} answers a ContentsExtResponse: file_contents for
  a file, dir_contents for a directory. The includes parameter (file_content, lfs_metadata,
  commit_metadata, commit_message) adds the file's content and its last commit; without it neither
  is sent. "." names the root.

  Background:
    Given a repository "alice/demo"
    And the repository "alice/demo" has the file "docs/guide.md" with content "# Guide"

  @spec @clause_S4_4_contents
  Scenario: A file with its content and last commit
    When "alice" reads the extended contents of "docs/guide.md" in "alice/demo" including "file_content,commit_metadata,commit_message"
    Then the response status is 200
    And the extended answer is the file "docs/guide.md" with content "# Guide"
    And the extended answer names the last commit of "docs/guide.md" with the message "add docs/guide.md"

  @gitea
  Scenario: Without includes a file comes without content or commit fields
    When "alice" reads the extended contents of "docs/guide.md" in "alice/demo"
    Then the response status is 200
    And the extended answer is the file "docs/guide.md" without content or commit fields

  @spec @clause_S4_4_contents
  Scenario: A directory lists its entries
    When "alice" reads the extended contents of "docs" in "alice/demo"
    Then the response status is 200
    And the extended answer lists the directory entries "guide.md"

  @gitea
  Scenario: The path "." is the root directory
    When "alice" reads the extended contents of "." in "alice/demo"
    Then the response status is 200
    And the extended answer lists the directory entries "README.md, docs"

  @gitea
  Scenario: An unknown include option is a bad request
    When "alice" reads the extended contents of "docs" in "alice/demo" including "file_content,everything"
    Then the request is refused with status 400
    And the error message mentions "unknown include option"

  @gitea
  Scenario: A path through a file is not found
    When "alice" reads the extended contents of "docs/guide.md/deeper" in "alice/demo"
    Then the request is refused with status 404

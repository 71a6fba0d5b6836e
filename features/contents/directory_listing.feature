@contents
Feature: A directory of a repository is listed as an array of entries
  GET /repos/{owner}/{repo}/contents/{dir} answers an array of ContentsResponse entries, files and
  sub-directories, without file content; GET .../contents lists the root.

  Background:
    Given a repository "alice/demo"
    And the repository "alice/demo" has the file "docs/guide.md" with content "# Guide"
    And the repository "alice/demo" has the file "docs/api/index.md" with content "# API"

  @spec @clause_S4_4_contents
  Scenario: A directory lists its files and sub-directories
    When "alice" lists the directory "docs" of "alice/demo"
    Then the response status is 200
    And the listing names exactly "api,guide.md"
    And the listing shows "guide.md" as a file
    And the listing shows "api" as a directory

  @gitea
  Scenario: The root directory is listed without a path
    When "alice" lists the root directory of "alice/demo"
    Then the response status is 200
    And the listing shows "docs" as a directory

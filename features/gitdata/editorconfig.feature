@gitdata
Feature: The EditorConfig definition of a file
  GET /repos/{owner}/{repo}/editorconfig/{filename} answers the properties the repository's root
  .editorconfig gives that file name: every section whose glob matches is merged, a later section winning,
  as editorconfig-core-go merges them for Gitea. A repository without an .editorconfig has none: 404
  (routers/api/v1/repo/file.go GetEditorconfig).

  Background:
    Given a repository "alice/demo"

  @gitea
  Scenario: A later section overrides an earlier one for the files it matches
    Given the repository "alice/demo" has the file ".editorconfig" with the content
      """
      root = true

      [*]
      indent_style = space
      indent_size = 4
      insert_final_newline = true

      [*.{md,txt}]
      indent_size = 2
      """
    When "alice" sends GET "repos/{alice/demo}/editorconfig/notes.md"
    Then the response status is 200
    And the response field "indent_style" is "space"
    And the response field "indent_size" is "2"
    And the response field "insert_final_newline" is true

  @gitea
  Scenario: A file no later section matches keeps the general properties
    Given the repository "alice/demo" has the file ".editorconfig" with the content
      """
      [*]
      indent_size = 4

      [*.md]
      indent_size = 2
      """
    When "an anonymous client" sends GET "repos/{alice/demo}/editorconfig/main.py"
    Then the response status is 200
    And the response field "indent_size" is "4"

  @gitea
  Scenario: Without an .editorconfig there is no definition
    When "alice" sends GET "repos/{alice/demo}/editorconfig/main.py"
    Then the request is refused with status 404

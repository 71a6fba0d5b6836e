@contents
Feature: Paths that leave the repository or go through a file are refused
  Every contents operation takes repository paths: a path with "..", a NUL character, a leading "/"
  or a ".git" component is refused with 422 when writing; a path that goes through a file as if it
  were a directory is not found (404) when reading and refused (422) when writing, as in Gitea.

  Background:
    Given a repository "alice/demo"
    And the repository "alice/demo" has the file "README2.md" with content "readme"

  @gitea
  Scenario Outline: A write to a path outside the rules is refused and changes nothing
    When "alice" changes files of "alice/demo" in one commit:
      | operation | path   | content |
      | create    | <path> | x       |
    Then the request is refused with status 422
    And the branches of "alice/demo" did not move

    Examples:
      | path                |
      | ../escape.txt       |
      | docs/../../etc.txt  |
      | /absolute.txt       |
      | .git/config         |
      | docs/.git/hooks     |
      | README2.md/inside   |

  @gitea
  Scenario: A read through a file is not found
    When "alice" reads the file "README2.md/inside" of "alice/demo"
    Then the request is refused with status 404

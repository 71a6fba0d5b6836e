@gitdata
Feature: A repository's trees, read through the Git data API
  GET /repos/{owner}/{repo}/git/trees/{sha} answers Gitea's GitTreeResponse: the entries of the tree a
  commit or tree SHA names, one level or (recursive) every entry below it, trees included, with full
  paths. Pages hold per_page entries (at most 1000); truncated says more entries follow this page and
  total_count counts them all. A name that resolves to no tree is refused with 400, as Gitea maps every
  failed lookup of this route to 400 (routers/api/v1/repo/tree.go, services/repository/files/tree.go).

  Background:
    Given a repository "alice/demo"
    And the repository "alice/demo" has the file "docs/guide.md" with content "# Guide"
    And the repository "alice/demo" has the file "docs/deep/notes.txt" with content "deep"

  @gitea
  Scenario: A commit's tree lists its first level, folders as trees and files as blobs
    When "alice" reads the tree of "the last commit" of "alice/demo"
    Then the response status is 200
    And the tree lists "docs" as a tree
    And the tree lists "README.md" as a blob
    And the tree does not list "docs/guide.md"
    And the tree answers the SHA of the last commit of "alice/demo"
    And the tree holds exactly the entries Git lists at the first level of a clone of "alice/demo"

  @gitea
  Scenario: A recursive tree lists every entry below it with its full path
    When "alice" reads the tree of "the last commit" of "alice/demo" recursively
    Then the response status is 200
    And the tree lists "docs/deep" as a tree
    And the tree lists "docs/deep/notes.txt" as a blob
    And the tree lists "docs/guide.md" as a blob
    And the tree holds exactly the entries Git lists at every level of a clone of "alice/demo"

  @gitea
  Scenario Outline: A tree is paged, and truncated says whether entries follow the page
    When "alice" reads page <page> of the tree of "the last commit" of "alice/demo" with 2 entries a page
    Then the response status is 200
    And the tree page holds <held> entries of 5 and is <state>

    Examples:
      | page | held | state     |
      | 1    | 2    | truncated |
      | 2    | 2    | truncated |
      | 3    | 1    | complete  |
      | 4    | 0    | complete  |

  @gitea
  Scenario: A SHA that names no tree is refused with 400
    When "alice" reads the tree of "the unknown commit" of "alice/demo"
    Then the request is refused with status 400
    And the error message mentions "sha not found"

  @gitea
  Scenario: A private repository's tree is hidden from a stranger
    Given a user "bob"
    And a private repository "alice/secret"
    And the repository "alice/secret" has the file "a.txt" with content "a"
    When "bob" reads the tree of "the last commit" of "alice/secret"
    Then the request is refused with status 404

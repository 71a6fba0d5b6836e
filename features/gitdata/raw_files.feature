@gitdata
Feature: A repository's files, downloaded raw
  GET /repos/{owner}/{repo}/raw/{filepath} answers a file's bytes from the ref of the "ref" query, or
  from the branch, tag or commit the path starts with, else from the default branch (Gitea's
  RepoRefForAPI). The media type is sniffed as Gitea's ServeBlob does: text is text/plain whatever its
  markup, so a repository's HTML never runs in the forge's origin, and X-Content-Type-Options: nosniff
  keeps browsers from guessing otherwise. A folder, an unknown path or an unknown ref is 404.

  Background:
    Given a repository "alice/demo"
    And the repository "alice/demo" has the file "docs/page.html" with content "<script>alert(1)</script>"
    And the repository "alice/demo" has a branch "feature"
    And the branch "feature" of "alice/demo" has the file "only-here.txt" with content "feature text"

  @gitea
  Scenario: A file of the default branch is served as text, never as HTML
    When "alice" downloads the raw file "docs/page.html" of "alice/demo"
    Then the response status is 200
    And the downloaded bytes are "<script>alert(1)</script>"
    And the response header "Content-Type" is "text/plain; charset=utf-8"
    And the response header "X-Content-Type-Options" is "nosniff"

  @gitea
  Scenario: A binary file is served byte for byte with the media type its bytes show
    Given the repository "alice/demo" has the PNG image "img/logo.png"
    When "an anonymous client" downloads the raw file "img/logo.png" of "alice/demo"
    Then the response status is 200
    And the downloaded bytes are those of the image "img/logo.png"
    And the response header "Content-Type" is "image/png"

  @gitea
  Scenario: The ref query picks the branch a file is read from
    When "alice" downloads the raw file "only-here.txt" of "alice/demo" at the ref "feature"
    Then the response status is 200
    And the downloaded bytes are "feature text"

  @gitea
  Scenario: A branch named at the start of the path picks the branch
    When "an anonymous client" downloads the raw file "feature/only-here.txt" of "alice/demo"
    Then the response status is 200
    And the downloaded bytes are "feature text"

  @gitea
  Scenario Outline: What names no file is 404
    When "alice" downloads the raw file "<path>" of "alice/demo"
    Then the request is refused with status 404

    Examples:
      | path          |
      | only-here.txt |
      | docs          |
      | docs/none.md  |

  @gitea
  Scenario: An unknown ref is 404
    When "alice" downloads the raw file "docs/page.html" of "alice/demo" at the ref "no-such-branch"
    Then the request is refused with status 404

  @gitea @capability_lfs
  Scenario: A file stored in LFS is served as its object, not as its pointer
    Given the repository "alice/demo" has the file "assets/big.bin" stored in LFS with 3000 bytes
    When "alice" downloads the raw file "assets/big.bin" of "alice/demo"
    Then the response status is 200
    And the downloaded bytes are the LFS object of "assets/big.bin"

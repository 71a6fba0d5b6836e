@gitdata
Feature: The languages of a repository's code
  GET /repos/{owner}/{repo}/languages answers the bytes of each language on the default branch, as Gitea's
  enry-based statistics count them: only programming and markup languages (prose such as Markdown and data
  such as YAML do not count), and vendored and documentation files are left out
  (modules/git/languagestats, routers/api/v1/repo/repo.go GetLanguages).

  Background:
    Given a repository "alice/demo"

  @gitea
  Scenario: Code and markup count; prose, data, vendored and documentation files do not
    Given the repository "alice/demo" has the file "src/app.py" with content "print('hello')"
    And the repository "alice/demo" has the file "web/index.html" with content "<p>hi</p>"
    And the repository "alice/demo" has the file "vendor/lib.py" with content "vendored = True"
    And the repository "alice/demo" has the file "docs/guide.md" with content "# Guide"
    And the repository "alice/demo" has the file "config.yaml" with content "a: 1"
    And the repository "alice/demo" has the file "notes.md" with content "Some notes"
    When "alice" reads the language statistics of "alice/demo"
    Then the response status is 200
    And the language statistics are "Python: 14, HTML: 9"

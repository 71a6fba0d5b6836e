@gitdata
Feature: A repository's refs, read through the Git data API
  GET /repos/{owner}/{repo}/git/refs lists every ref and GET .../git/refs/{ref} the refs whose full name
  starts with refs/{ref}: a plain prefix match, so "heads" lists every branch and "heads/ma" finds "main".
  Gitea 1.27 answers a list even for one exact name (its one-ref shortcut compares the name before
  "refs/" is added, so it never applies), and 404 when no ref matches (routers/api/v1/repo/git_ref.go).

  Background:
    Given a repository "alice/demo"
    And the repository "alice/demo" has the file "a.txt" with content "a"
    And the repository "alice/demo" has a branch "feature"

  @gitea
  Scenario: The refs "heads" are every branch, each pointing at its commit
    When "alice" lists the refs "heads" of "alice/demo"
    Then the response status is 200
    And the refs are "refs/heads/feature, refs/heads/main"
    And the ref "refs/heads/main" points at the last commit of "alice/demo"

  @gitea
  Scenario: A branch's full name answers a list of one ref
    When "alice" lists the refs "heads/main" of "alice/demo"
    Then the response status is 200
    And the refs are "refs/heads/main"

  @gitea
  Scenario: A ref name is matched as a prefix
    When "alice" lists the refs "heads/feat" of "alice/demo"
    Then the response status is 200
    And the refs are "refs/heads/feature"

  @gitea
  Scenario: Every ref of the repository is listed without a filter, each at the object Git has
    Given "alice" created the tag "heavy" in "alice/demo" with the message "Release notes"
    When "an anonymous client" lists the refs of "alice/demo"
    Then the response status is 200
    And the ref "refs/heads/main" points at the last commit of "alice/demo"
    And the refs listed are exactly those Git lists over smart HTTP for "alice/demo"

  @gitea
  Scenario: No matching ref is 404
    When "alice" lists the refs "heads/nothing" of "alice/demo"
    Then the request is refused with status 404

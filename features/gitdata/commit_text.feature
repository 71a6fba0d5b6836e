@gitdata
Feature: A commit as a diff or a patch
  GET /repos/{owner}/{repo}/git/commits/{sha}.diff answers the commit's changes against its first parent
  as a unified diff, and .patch the commit as a format-patch mail, both as plain text; an unknown commit
  is 404 (routers/api/v1/repo/commits.go DownloadCommitDiffOrPatch). GET .../git/commits/{sha} keeps
  answering the Commit model.

  Background:
    Given a repository "alice/demo"
    And the repository "alice/demo" has the file "hello.txt" with content "hello"

  @gitea
  Scenario: A commit's diff shows the file it added
    When "alice" downloads "the last commit" of "alice/demo" as a diff
    Then the response status is 200
    And the response header "Content-Type" is "text/plain; charset=utf-8"
    And the downloaded text starts with "diff --git a/hello.txt b/hello.txt"
    And the response text contains "+hello"

  @gitea
  Scenario: A commit's patch is a mail from that commit
    When "alice" downloads "the last commit" of "alice/demo" as a patch
    Then the response status is 200
    And the downloaded text starts with "From {last commit} "
    And the response text contains "Subject: [PATCH] add hello.txt"

  @gitea
  Scenario: An unknown commit has no diff
    When "alice" downloads "the unknown commit" of "alice/demo" as a diff
    Then the request is refused with status 404

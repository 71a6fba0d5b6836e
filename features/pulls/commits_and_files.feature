@pulls
Feature: The commits and changed files of a pull request carry their total count
  GET /repos/{owner}/{repo}/pulls/{index}/commits lists the head's commits that the base lacks (Commit
  objects, newest first) and GET .../pulls/{index}/files the files the pull request changes from the
  merge base (ChangedFile objects). Both are paged with page and limit, give the total in X-Total-Count
  and never send X-Total. Here Gitea 1.27 does the same: it sends X-Total-Count, Link, X-Page,
  X-PerPage, X-PageCount and X-HasMore on these two lists, but not X-Total. A ChangedFile's status is
  Gitea's word: "added", "deleted", "renamed", and "changed" for a modified file; changes is additions
  plus deletions. The pull request's diff and patch are served as text.

  Background:
    Given a repository "dev/app"
    And a user "bob"
    And the branch "main" of "dev/app" changes "app.txt" to "one\ntwo\nthree\n"
    And the branch "main" of "dev/app" changes "old.txt" to "obsolete\n"
    And the repository "dev/app" has the branch "feature" changing "app.txt" to "one\nTWO\nthree\nfour\n"
    And the branch "feature" of "dev/app" changes "new.txt" to "fresh\n"
    And "bob" opened a pull request of "feature" into "main" in "dev/app"

  @spec @clause_S4_2_2 @clause_S8_total_count
  Scenario: The commit list of a pull request gives its total in X-Total-Count and sends no X-Total
    When "bob" lists the commits of pull request 1 of "dev/app" with limit 1
    Then the response status is 200
    And the response is a list of 1 items
    And the response header "X-Total-Count" is "2"
    And the response has no header "X-Total"
    And the response has the header "Link"

  @spec @clause_S4_2_2 @clause_S8_total_count
  Scenario: The changed-file list of a pull request gives its total in X-Total-Count and sends no X-Total
    When "bob" lists the files of pull request 1 of "dev/app"
    Then the response status is 200
    And the response is a list of 2 items
    And the response header "X-Total-Count" is "2"
    And the response has no header "X-Total"

  @gitea
  Scenario: Changed files tell what happened to each file with its line counts
    When "bob" lists the files of pull request 1 of "dev/app"
    Then the response status is 200
    And the changed file "app.txt" is "changed" with 2 additions and 1 deletions
    And the changed file "new.txt" is "added" with 1 additions and 0 deletions

  @gitea
  Scenario: A deleted file is listed as deleted
    Given the repository "dev/app" has the branch "cleanup" changing "README.md" to "cleaned\n"
    And the branch "cleanup" of "dev/app" deletes "old.txt"
    And "bob" opened a pull request of "cleanup" into "main" in "dev/app"
    When "bob" lists the files of pull request 2 of "dev/app"
    Then the response status is 200
    And the changed file "old.txt" is "deleted" with 0 additions and 1 deletions

  @gitea
  Scenario: The commits are the head's own, newest first
    When "bob" lists the commits of pull request 1 of "dev/app" with limit 10
    Then the response status is 200
    And the response is a list of 2 items
    And the response field "0.sha" is the remembered tip of "feature" of "dev/app"

  @gitea
  Scenario: The diff of a pull request is served as text
    When "bob" downloads the diff of pull request 1 of "dev/app"
    Then the response status is 200
    And the response text contains "+TWO"
    And the response text contains "diff --git a/new.txt b/new.txt"

  @gitea
  Scenario: The files of an unknown pull request are not found
    When "bob" lists the files of pull request 9 of "dev/app"
    Then the request is refused with status 404

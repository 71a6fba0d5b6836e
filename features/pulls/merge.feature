@pulls
Feature: Pull requests are merged into their base branch
  POST /repos/{owner}/{repo}/pulls/{index}/merge with a MergePullRequestOption merges a pull request,
  as in Gitea 1.27: Do names the style (merge, squash, rebase, fast-forward-only; required, 422
  without it), the answer is 200 with an empty body, the base branch moves, the pull request is merged
  and closed, and GET .../pulls/{index}/merge answers 204 once it is merged (404 before). Refusals leave
  the base branch where it was: a caller without write access 405, a pull request merged already 405,
  a conflict or a stale head_commit_id 409. The reference offers the styles merge, squash, rebase and
  fast-forward-only; rebase-merge and manually-merged are refused with 405 as styles this repository
  does not allow.

  Background:
    Given a repository "dev/app"
    And a user "bob"
    And the branch "main" of "dev/app" changes "shared.txt" to "alpha\nbeta\ngamma\ndelta\nepsilon\n"
    And the repository "dev/app" has the branch "feature" changing "shared.txt" to "alpha\nbeta\ngamma\ndelta\nEPSILON\n"
    And "bob" opened a pull request of "feature" into "main" in "dev/app"

  @gitea
  Scenario: A writer merges a pull request with a merge commit
    When "dev" merges pull request 1 of "dev/app" by merge
    Then the response status is 200
    And the branch "main" of "dev/app" has moved
    And the file "shared.txt" on the branch "main" of "dev/app" reads "alpha\nbeta\ngamma\ndelta\nEPSILON\n"
    And pull request 1 of "dev/app" is merged and closed

  @gitea
  Scenario: A squash merge puts the head's changes on the base as one commit
    Given the branch "feature" of "dev/app" changes "extra.txt" to "more\n"
    When "dev" merges pull request 1 of "dev/app" by squash
    Then the response status is 200
    And the file "extra.txt" on the branch "main" of "dev/app" reads "more\n"
    And pull request 1 of "dev/app" is merged and closed

  @gitea
  Scenario: A reader cannot merge and the base branch does not move
    When "bob" merges pull request 1 of "dev/app" by merge
    Then the request is refused with status 405
    And the branch "main" of "dev/app" has not moved
    And pull request 1 of "dev/app" is open and not merged

  @gitea
  Scenario: A conflicting merge is refused with 409 and the base branch does not move
    Given the branch "main" of "dev/app" changes "shared.txt" to "alpha\nbeta\ngamma\ndelta\nEpsilon!\n"
    When "dev" merges pull request 1 of "dev/app" by merge
    Then the request is refused with status 409
    And the branch "main" of "dev/app" has not moved
    And pull request 1 of "dev/app" is open and not merged

  @gitea
  Scenario: A merged pull request cannot be merged again
    Given "dev" merged pull request 1 of "dev/app"
    When "dev" merges pull request 1 of "dev/app" by merge
    Then the request is refused with status 405
    And the branch "main" of "dev/app" has not moved

  @gitea
  Scenario: A merge without a style is refused with 422
    When "dev" merges pull request 1 of "dev/app" with the body
      """
      {"merge_title_field": "No style given"}
      """
    Then the request is refused with status 422
    And pull request 1 of "dev/app" is open and not merged

@pulls
Feature: A pull request's head branch is brought up to date with its base
  POST /repos/{owner}/{repo}/pulls/{index}/update merges the base branch into the head branch
  (style=merge, the default) or replays the head's own commits on the base (style=rebase), and answers
  200 with an empty body, as in Gitea 1.27. Writers of the head branch only (403 otherwise); a closed
  or merged pull request is refused with 422; a conflict with 409 "merge failed because of conflict"
  (or "rebase failed because of conflict"), and the head branch stays where it was. The reference
  merges without a work tree (git merge-tree) and announces the moved head branch like any push.

  Background:
    Given a repository "dev/app"
    And a user "bob"
    And the branch "main" of "dev/app" changes "shared.txt" to "alpha\nbeta\ngamma\ndelta\nepsilon\n"
    And the repository "dev/app" has the branch "feature" changing "shared.txt" to "alpha\nbeta\ngamma\ndelta\nEPSILON\n"
    And "dev" opened a pull request of "feature" into "main" in "dev/app"

  @gitea
  Scenario: Merging the base into the head brings the base's changes to the head branch
    Given the branch "main" of "dev/app" changes "base-only.txt" to "from main\n"
    When "dev" updates the branch of pull request 1 of "dev/app" by merge
    Then the response status is 200
    And the branch "feature" of "dev/app" has moved
    And the file "base-only.txt" on the branch "feature" of "dev/app" reads "from main\n"
    And the file "shared.txt" on the branch "feature" of "dev/app" reads "alpha\nbeta\ngamma\ndelta\nEPSILON\n"

  @gitea
  Scenario: Rebasing replays the head's commits on the base
    Given the branch "main" of "dev/app" changes "shared.txt" to "ALPHA\nbeta\ngamma\ndelta\nepsilon\n"
    When "dev" updates the branch of pull request 1 of "dev/app" by rebase
    Then the response status is 200
    And the branch "feature" of "dev/app" has moved
    And the file "shared.txt" on the branch "feature" of "dev/app" reads "ALPHA\nbeta\ngamma\ndelta\nEPSILON\n"

  @gitea
  Scenario: A conflicting merge is refused with 409 and the head branch does not move
    Given the branch "main" of "dev/app" changes "shared.txt" to "alpha\nbeta\ngamma\ndelta\nEpsilon!\n"
    When "dev" updates the branch of pull request 1 of "dev/app" by merge
    Then the request is refused with status 409
    And the error message mentions "merge failed because of conflict"
    And the branch "feature" of "dev/app" has not moved

  @gitea
  Scenario: A conflicting rebase is refused with 409 and the head branch does not move
    Given the branch "main" of "dev/app" changes "shared.txt" to "alpha\nbeta\ngamma\ndelta\nEpsilon!\n"
    When "dev" updates the branch of pull request 1 of "dev/app" by rebase
    Then the request is refused with status 409
    And the error message mentions "rebase failed because of conflict"
    And the branch "feature" of "dev/app" has not moved

  @gitea
  Scenario: A closed pull request is not updated
    Given the branch "main" of "dev/app" changes "base-only.txt" to "from main\n"
    And "dev" closed pull request 1 of "dev/app"
    When "dev" updates the branch of pull request 1 of "dev/app" by merge
    Then the request is refused with status 422
    And the branch "feature" of "dev/app" has not moved

  @gitea
  Scenario: A reader cannot update the head branch
    Given the branch "main" of "dev/app" changes "base-only.txt" to "from main\n"
    When "bob" updates the branch of pull request 1 of "dev/app" by merge
    Then the request is refused with status 403
    And the branch "feature" of "dev/app" has not moved

  @gitea
  Scenario: Updating an unknown pull request is not found
    When "dev" updates the branch of pull request 3 of "dev/app" by merge
    Then the request is refused with status 404

@stars
Feature: Watching repositories
  Gitea makes the creator of a repository watch it (AUTO_WATCH_NEW_REPOS is on by default), so a new
  repository has one watcher. PUT /repos/{owner}/{repo}/subscription watches and answers the WatchInfo
  (subscribed, never ignored, its own URL and the repository's); GET answers the same while the watch
  stands and 404 otherwise; DELETE stops it (204). Watching needs a signed-in caller.

  Background:
    Given a user "alice"
    And a user "bob"
    And a repository "alice/demo"

  @gitea
  Scenario: The creator of a repository watches it
    When "an anonymous client" lists the watchers of "alice/demo"
    Then the response status is 200
    And the response lists exactly "alice"
    And the repository "alice/demo" has 1 watchers

  @gitea
  Scenario: Watching answers the watch
    When "bob" watches "alice/demo"
    Then the response status is 200
    And the watch answered is of "alice/demo"
    And the repository "alice/demo" has 2 watchers
    And "bob" is among the watchers of "alice/demo"

  @gitea
  Scenario: Checking a watch that stands answers it
    Given "bob" is watching "alice/demo"
    When "bob" checks whether they watch "alice/demo"
    Then the response status is 200
    And the watch answered is of "alice/demo"

  @gitea
  Scenario: Checking a watch that does not stand is not found
    When "bob" checks whether they watch "alice/demo"
    Then the request is refused with status 404

  @gitea
  Scenario: Unwatching stops the watch
    Given "bob" is watching "alice/demo"
    When "bob" stops watching "alice/demo"
    Then the response status is 204
    And "bob" is not among the watchers of "alice/demo"

  @gitea
  Scenario: Watching needs a signed-in caller
    When "an anonymous client" watches "alice/demo"
    Then the request is refused with status 401

  @gitea
  Scenario: A user lists the repositories they watch
    Given a repository "alice/other"
    And "bob" is watching "alice/other"
    When "bob" lists the repositories they watch
    Then the response status is 200
    And the response lists the repositories "alice/other"

  @gitea
  Scenario: A repository the watcher cannot see stays out of another user's list
    Given a private repository "alice/secret"
    When "bob" lists the repositories "alice" watches
    Then the response status is 200
    And the response lists the repositories "alice/demo"

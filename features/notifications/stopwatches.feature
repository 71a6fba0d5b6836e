@notifications
Feature: Stopwatches on issues, and the time they track
  POST /repos/{owner}/{repo}/issues/{index}/stopwatch/start and .../stop, DELETE .../stopwatch/delete and
  GET /user/stopwatches (Gitea 1.27). Writers of the issues start, stop or cancel their own stopwatch (403
  for others); a second start on the same issue, or a stop or cancel without one running, is 409. Starting
  one on another issue stops the running one first. Stopping tracks the elapsed time; cancelling tracks
  nothing.

  Background:
    Given a repository "dev/app"
    And a user "bob"
    And "bob" opened the issue "Crash" in "dev/app"
    And "bob" opened the issue "Leak" in "dev/app"

  @gitea
  Scenario: Starting a stopwatch answers 201 and lists it
    When "dev" starts the stopwatch on issue 1 of "dev/app"
    Then the response status is 201
    And "dev" has 1 running stopwatches

  @gitea
  Scenario: The running stopwatch names its issue and repository
    Given "dev" started the stopwatch on issue 1 of "dev/app"
    When "dev" lists their stopwatches
    Then the response status is 200
    And the stopwatches listed are on the issues "Crash" of "dev/app"
    And the response field "0.issue_index" is 1

  @gitea
  Scenario: A second start on the same issue is a conflict
    Given "dev" started the stopwatch on issue 1 of "dev/app"
    When "dev" starts the stopwatch on issue 1 of "dev/app"
    Then the request is refused with status 409
    And the error message mentions "cannot start a stopwatch again if it already exists"

  @gitea
  Scenario: Stopping tracks the time and ends the stopwatch
    Given "dev" started the stopwatch on issue 1 of "dev/app"
    When "dev" stops the stopwatch on issue 1 of "dev/app"
    Then the response status is 201
    And issue 1 of "dev/app" has 1 tracked times of "dev"
    And "dev" has 0 running stopwatches

  @gitea
  Scenario: Starting on another issue stops the running stopwatch and tracks its time
    Given "dev" started the stopwatch on issue 1 of "dev/app"
    When "dev" starts the stopwatch on issue 2 of "dev/app"
    Then the response status is 201
    And issue 1 of "dev/app" has 1 tracked times of "dev"
    And "dev" has a running stopwatch on the issue "Leak" of "dev/app" only

  @gitea
  Scenario: Cancelling ends the stopwatch without tracking time
    Given "dev" started the stopwatch on issue 1 of "dev/app"
    When "dev" cancels the stopwatch on issue 1 of "dev/app"
    Then the response status is 204
    And issue 1 of "dev/app" has 0 tracked times of "dev"
    And "dev" has 0 running stopwatches

  @gitea
  Scenario Outline: Without a running stopwatch there is nothing to stop or cancel
    When "dev" <action> the stopwatch on issue 1 of "dev/app"
    Then the request is refused with status 409
    And the error message mentions "<message>"

    Examples:
      | action  | message                                 |
      | stops   | cannot stop a non-existent stopwatch    |
      | cancels | cannot cancel a non-existent stopwatch  |

  @gitea
  Scenario: Someone who may not write the issues may not start a stopwatch
    When "bob" starts the stopwatch on issue 1 of "dev/app"
    Then the request is refused with status 403
    And "bob" has 0 running stopwatches

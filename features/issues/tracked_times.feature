@issues
Feature: Time tracked on issues, by whom it may be tracked, seen and deleted
  POST/GET/DELETE /repos/{owner}/{repo}/issues/{index}/times, DELETE .../times/{id}, GET
  /repos/{owner}/{repo}/times, GET .../times/{user} and GET /user/times (Gitea 1.27, signed-in callers). Only contributors
  track time (writers of the issues, the issue's poster and its assignees; 403 for anyone else); a
  repository administrator or a site administrator may track for another user_name, anyone else tracks
  for themselves; time is required (422 for 0). Listings show others' times to issue writers and site
  administrators only: others see their own, and naming someone else is 403. An entry is deleted by its
  owner or a site administrator only; a reset deletes the caller's times on the issue (404 when none).

  Background:
    Given a repository "dev/app"
    And a user "bob"
    And a user "carol"
    And "bob" opened the issue "Crash" in "dev/app"

  @gitea
  Scenario: The issue's poster tracks time on it
    When "bob" tracks 90 seconds on issue 1 of "dev/app"
    Then the response status is 200
    And the response field "time" is 90
    And the tracked time is of "bob" on issue 1

  @gitea
  Scenario: Someone who is no contributor may not track time
    When "carol" tracks 90 seconds on issue 1 of "dev/app"
    Then the request is refused with status 403
    And the tracked times of "dev/app" are "none"

  @gitea
  Scenario: Zero seconds is no time
    When "dev" tracks 0 seconds on issue 1 of "dev/app"
    Then the request is refused with status 422

  @gitea
  Scenario: The repository's administrator tracks time for another user
    When "dev" tracks 30 seconds on issue 1 of "dev/app" for "bob"
    Then the response status is 200
    And the tracked time is of "bob" on issue 1

  @gitea
  Scenario: Anyone else naming another user still tracks for themselves
    When "bob" tracks 30 seconds on issue 1 of "dev/app" for "dev"
    Then the response status is 200
    And the tracked time is of "bob" on issue 1

  @gitea
  Scenario: Without the issues of the repository there is no time tracking
    Given "dev" tracked 30 seconds on issue 1 of "dev/app"
    And the repository "dev/app" has its issues turned off
    When "dev" lists the tracked times of "dev/app"
    Then the request is refused with status 400
    And the error message mentions "time tracking disabled"

  @gitea
  Scenario: A writer lists everyone's times in the repository
    Given "bob" tracked 90 seconds on issue 1 of "dev/app"
    And "dev" tracked 30 seconds on issue 1 of "dev/app"
    When "dev" lists the tracked times of "dev/app"
    Then the response status is 200
    And the listed times are "bob: 90, dev: 30"
    And the response header "X-Total-Count" is "2"

  @gitea
  Scenario: Someone who may not write issues sees only their own times
    Given "bob" tracked 90 seconds on issue 1 of "dev/app"
    And "dev" tracked 30 seconds on issue 1 of "dev/app"
    When "bob" lists the tracked times of "dev/app"
    Then the response status is 200
    And the listed times are "bob: 90"

  @gitea
  Scenario: A writer lists the times of one issue
    Given "dev" opened the issue "Other" in "dev/app"
    And "bob" tracked 90 seconds on issue 1 of "dev/app"
    And "dev" tracked 30 seconds on issue 2 of "dev/app"
    And "dev" tracked 45 seconds on issue 1 of "dev/app"
    When "dev" lists the tracked times of issue 1 of "dev/app"
    Then the response status is 200
    And the listed times are "bob: 90, dev: 45"
    And the response header "X-Total-Count" is "2"

  @gitea
  Scenario: Someone who may not write issues sees only their own times of an issue
    Given "bob" tracked 90 seconds on issue 1 of "dev/app"
    And "dev" tracked 30 seconds on issue 1 of "dev/app"
    When "bob" lists the tracked times of issue 1 of "dev/app"
    Then the response status is 200
    And the listed times are "bob: 90"

  @gitea
  Scenario: Someone who may not write issues may not ask for another user's times
    Given "dev" tracked 30 seconds on issue 1 of "dev/app"
    When "bob" lists the tracked times of "dev/app" of the user "dev"
    Then the request is refused with status 403

  @gitea
  Scenario: The times are filtered by their creation time
    Given "dev" tracked 10 seconds on issue 1 of "dev/app" on 2024-01-01
    And "dev" tracked 20 seconds on issue 1 of "dev/app" on 2025-01-01
    When "dev" lists the tracked times of "dev/app" since 2024-06-01
    Then the response status is 200
    And the listed times are "dev: 20"

  @gitea
  Scenario Outline: A user's times in a repository are for the user and the repository's administrators
    Given "bob" tracked 90 seconds on issue 1 of "dev/app"
    When "<who>" reads the tracked times of "bob" in "dev/app"
    Then the response status is <status>

    Examples:
      | who   | status |
      | bob   | 200    |
      | dev   | 200    |
      | carol | 403    |

  @gitea
  Scenario: A user lists their own times of every repository
    Given a repository "dev/other"
    And "bob" opened the issue "Leak" in "dev/other"
    And "bob" tracked 90 seconds on issue 1 of "dev/app"
    And "bob" tracked 20 seconds on issue 1 of "dev/other"
    And "dev" tracked 30 seconds on issue 1 of "dev/app"
    When "bob" lists their own tracked times
    Then the response status is 200
    And the listed times are "bob: 90, bob: 20"

  @gitea
  Scenario: The owner of an entry deletes it
    Given "bob" tracked 90 seconds on issue 1 of "dev/app"
    When "bob" deletes the time "bob" tracked on issue 1 of "dev/app"
    Then the response status is 204
    And the tracked times of "dev/app" are "none"

  @gitea
  Scenario: A repository administrator may not delete another user's entry, a site administrator may
    Given "bob" tracked 90 seconds on issue 1 of "dev/app"
    When "dev" deletes the time "bob" tracked on issue 1 of "dev/app"
    Then the request is refused with status 403
    And the tracked times of "dev/app" are "bob: 90"

  @gitea
  Scenario: A site administrator deletes another user's entry
    Given "bob" tracked 90 seconds on issue 1 of "dev/app"
    When "the admin" deletes the time "bob" tracked on issue 1 of "dev/app"
    Then the response status is 204
    And the tracked times of "dev/app" are "none"

  @gitea
  Scenario: A reset deletes the caller's times on the issue, and a second finds none
    Given "bob" tracked 90 seconds on issue 1 of "dev/app"
    And "dev" tracked 30 seconds on issue 1 of "dev/app"
    And "bob" reset the tracked time on issue 1 of "dev/app"
    When "bob" resets the tracked time on issue 1 of "dev/app"
    Then the request is refused with status 404
    And the tracked times of "dev/app" are "dev: 30"

@locks
Feature: Issues are locked and unlocked
  PUT /repos/{owner}/{repo}/issues/{index}/lock locks an issue (an optional LockIssueOption gives the
  lock_reason) and DELETE on the same path unlocks it; both answer 204. Repository administrators
  only, as in Gitea 1.27: a reader gets 403, an anonymous client 401, an unknown issue 404. Locking a
  locked issue (or unlocking an unlocked one) answers 204 again and adds no second timeline entry. While
  an issue is locked, users without write access cannot comment on it ("You cannot comment on a locked
  issue.", 403); writers still can.

  Background:
    Given a repository "dev/app"
    And a user "bob"
    And "dev" opened the issue "Flamewar" in "dev/app"

  @spec @clause_S3_issue_lock @clause_S4_3_lock @clause_S1_issue_locking_pinning
  Scenario: An administrator locks an issue: is_locked flips and the timeline records the reason
    When "dev" locks issue 1 of "dev/app" with the reason "Too heated"
    Then the response status is 204
    And issue 1 of "dev/app" is locked
    And the last timeline entry of issue 1 of "dev/app" is a "lock" by "dev" saying "Too heated"

  @spec @clause_S3_issue_unlock @clause_S4_3_unlock @clause_S1_issue_locking_pinning
  Scenario: An administrator unlocks a locked issue and the timeline records it
    Given "dev" locked issue 1 of "dev/app"
    When "dev" unlocks issue 1 of "dev/app"
    Then the response status is 204
    And issue 1 of "dev/app" is not locked
    And the timeline of issue 1 of "dev/app" has the types "lock, unlock"

  @gitea
  Scenario: A lock without a body is a lock without a reason
    When "dev" locks issue 1 of "dev/app"
    Then the response status is 204
    And issue 1 of "dev/app" is locked
    And the last timeline entry of issue 1 of "dev/app" is a "lock" by "dev" saying ""

  @gitea
  Scenario: Locking a locked issue answers 204 and adds no second timeline entry
    Given "dev" locked issue 1 of "dev/app"
    When "dev" locks issue 1 of "dev/app" with the reason "Spam"
    Then the response status is 204
    And issue 1 of "dev/app" is locked
    And the timeline of issue 1 of "dev/app" has the types "lock"

  @gitea
  Scenario: Unlocking an unlocked issue answers 204 and adds nothing to the timeline
    When "dev" unlocks issue 1 of "dev/app"
    Then the response status is 204
    And the timeline of issue 1 of "dev/app" has the types "nothing"

  @gitea
  Scenario: A locked issue refuses a reader's comment and stores nothing
    Given "dev" locked issue 1 of "dev/app"
    When "bob" comments "But why?" on issue 1 of "dev/app"
    Then the request is refused with status 403
    And the error message mentions "You cannot comment on a locked issue."
    And issue 1 of "dev/app" has 0 comments

  @gitea
  Scenario: A writer may still comment on a locked issue
    Given "dev" locked issue 1 of "dev/app"
    When "dev" comments "Locked until the release" on issue 1 of "dev/app"
    Then the response status is 201
    And issue 1 of "dev/app" has 1 comments

  @gitea
  Scenario: A reader cannot lock an issue and it stays unlocked
    When "bob" locks issue 1 of "dev/app" with the reason "Off-topic"
    Then the request is refused with status 403
    And issue 1 of "dev/app" is not locked
    And the timeline of issue 1 of "dev/app" has the types "nothing"

  @gitea
  Scenario: A reader cannot unlock a locked issue
    Given "dev" locked issue 1 of "dev/app"
    When "bob" unlocks issue 1 of "dev/app"
    Then the request is refused with status 403
    And issue 1 of "dev/app" is locked

  @gitea
  Scenario: An anonymous client cannot lock an issue
    When "an anonymous client" locks issue 1 of "dev/app"
    Then the request is refused with status 401
    And issue 1 of "dev/app" is not locked

  @gitea
  Scenario: Locking an unknown issue is not found
    When "dev" locks issue 7 of "dev/app" with the reason "Resolved"
    Then the request is refused with status 404

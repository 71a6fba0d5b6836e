@reactions
Feature: Reactions to issues and comments
  /repos/{owner}/{repo}/issues/{index}/reactions and /issues/comments/{id}/reactions list, add and remove
  the caller's reactions, as in Gitea 1.27. Only the instance's allowed reactions are taken (Gitea's
  default [ui] REACTIONS: +1 -1 laugh hooray confused heart rocket eyes); any other content is refused
  with 403 "'<content>' is not an allowed reaction". A new reaction answers 201, the same one again 200
  with the existing reaction; a removal answers 200 without a body (Gitea's handler; its API description
  says 204). A locked issue (and its comments) takes reaction changes from writers only. An issue's reactions are paged; a comment's are not.

  Background:
    Given a repository "dev/app"
    And a user "bob"
    And "dev" opened the issue "Crash" in "dev/app"

  @gitea
  Scenario: A reader reacts to an issue
    When "bob" reacts "heart" to issue 1 of "dev/app"
    Then the response status is 201
    And the response field "content" is "heart"
    And the response field "user.login" is the name of "bob"
    And the reactions to issue 1 of "dev/app" are "bob:heart"

  @gitea
  Scenario: The same reaction again answers 200 and is stored once
    Given "bob" reacted "heart" to issue 1 of "dev/app"
    When "bob" reacts "heart" to issue 1 of "dev/app"
    Then the response status is 200
    And the response field "content" is "heart"
    And the reactions to issue 1 of "dev/app" are "bob:heart"

  @gitea
  Scenario: A reaction that is not allowed is refused with 403 and not stored
    When "bob" reacts "xyz" to issue 1 of "dev/app"
    Then the request is refused with status 403
    And the error message mentions "'xyz' is not an allowed reaction"
    And the reactions to issue 1 of "dev/app" are "nothing"

  @gitea
  Scenario: A locked issue takes no reaction from a reader
    Given "dev" locked issue 1 of "dev/app"
    When "bob" reacts "eyes" to issue 1 of "dev/app"
    Then the request is refused with status 403
    And the reactions to issue 1 of "dev/app" are "nothing"

  @gitea
  Scenario: A writer still reacts to a locked issue
    Given "dev" locked issue 1 of "dev/app"
    When "dev" reacts "rocket" to issue 1 of "dev/app"
    Then the response status is 201
    And the reactions to issue 1 of "dev/app" are "dev:rocket"

  @gitea
  Scenario: A user removes their reaction and keeps the others
    Given "bob" reacted "heart" to issue 1 of "dev/app"
    And "bob" reacted "eyes" to issue 1 of "dev/app"
    And "dev" reacted "heart" to issue 1 of "dev/app"
    When "bob" removes the reaction "heart" from issue 1 of "dev/app"
    Then the response status is 200
    And the reactions to issue 1 of "dev/app" are "bob:eyes, dev:heart"

  @gitea
  Scenario: An issue's reactions are listed oldest first and paged with a total count
    Given "bob" reacted "heart" to issue 1 of "dev/app"
    And "bob" reacted "eyes" to issue 1 of "dev/app"
    And "dev" reacted "+1" to issue 1 of "dev/app"
    When "bob" lists the reactions to issue 1 of "dev/app" with "limit=2&page=2"
    Then the response status is 200
    And the response lists the reactions "dev:+1"
    And the response header "X-Total-Count" is "3"

  @gitea
  Scenario: Reactions to an unknown issue are not found
    When "bob" reacts "heart" to issue 42 of "dev/app"
    Then the request is refused with status 404

  @gitea
  Scenario: A reader reacts to a comment
    Given "dev" commented "Fixed in main" on issue 1 of "dev/app"
    When "bob" reacts "hooray" to the comment of "dev/app"
    Then the response status is 201
    And the response field "content" is "hooray"
    And the reactions to the comment of "dev/app" are "bob:hooray"
    And the reactions to issue 1 of "dev/app" are "nothing"

  @gitea
  Scenario: A comment's reactions are listed
    Given "dev" commented "Fixed in main" on issue 1 of "dev/app"
    And "bob" reacted "+1" to the comment of "dev/app"
    And "dev" reacted "laugh" to the comment of "dev/app"
    When "bob" lists the reactions to the comment of "dev/app"
    Then the response status is 200
    And the response lists the reactions "bob:+1, dev:laugh"

  @gitea
  Scenario: A reaction to a comment that is not allowed is refused
    Given "dev" commented "Fixed in main" on issue 1 of "dev/app"
    When "bob" reacts "thumbsup" to the comment of "dev/app"
    Then the request is refused with status 403
    And the error message mentions "'thumbsup' is not an allowed reaction"

  @gitea
  Scenario: A reader may not react to a comment of a locked issue
    Given "dev" commented "Fixed in main" on issue 1 of "dev/app"
    And "dev" locked issue 1 of "dev/app"
    When "bob" reacts "heart" to the comment of "dev/app"
    Then the request is refused with status 403
    And the reactions to the comment of "dev/app" are "nothing"

  @gitea
  Scenario: A user removes their reaction to a comment
    Given "dev" commented "Fixed in main" on issue 1 of "dev/app"
    And "bob" reacted "confused" to the comment of "dev/app"
    When "bob" removes the reaction "confused" from the comment of "dev/app"
    Then the response status is 200
    And the reactions to the comment of "dev/app" are "nothing"

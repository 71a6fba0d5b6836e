@notifications
Feature: Who follows an issue, and who may change whose subscription
  GET /repos/{owner}/{repo}/issues/{index}/subscriptions, GET .../subscriptions/check and PUT/DELETE
  .../subscriptions/{user} (Gitea 1.27). A user's own choice wins; without one, a user follows an issue when
  it watches the repository or takes part in it (its poster, a commenter). The subscriber list shows the
  explicit subscribers and the commenters who did not unsubscribe. Only the user itself or a site
  administrator changes a subscription (403 otherwise); the change answers 201, and 200 when it already was
  so; an unknown user is 404.

  Background:
    Given a repository "dev/app"
    And a user "bob"
    And a user "carol"
    And "bob" opened the issue "Crash" in "dev/app"

  @gitea
  Scenario: The poster and the repository's watchers follow the issue, a stranger does not
    When "bob" checks whether they are subscribed to issue 1 of "dev/app"
    Then the response status is 200
    And the response field "subscribed" is true
    And the response field "ignored" is false
    And "dev" is subscribed to issue 1 of "dev/app"
    And "carol" is unsubscribed to issue 1 of "dev/app"

  @gitea
  Scenario: Subscribing oneself answers 201, and 200 the second time
    Given "carol" subscribed to issue 1 of "dev/app"
    When "carol" subscribes "carol" to issue 1 of "dev/app"
    Then the response status is 200
    And "carol" is subscribed to issue 1 of "dev/app"

  @gitea
  Scenario: A new subscriber answers 201 and is listed
    When "carol" subscribes "carol" to issue 1 of "dev/app"
    Then the response status is 201
    And "carol" is subscribed to issue 1 of "dev/app"

  @gitea
  Scenario: Unsubscribing answers 201, and the poster no longer follows
    When "bob" unsubscribes "bob" from issue 1 of "dev/app"
    Then the response status is 201
    And "bob" is unsubscribed to issue 1 of "dev/app"

  @gitea
  Scenario: Unsubscribing someone who does not follow answers 200
    When "carol" unsubscribes "carol" from issue 1 of "dev/app"
    Then the response status is 200
    And "carol" is unsubscribed to issue 1 of "dev/app"

  @gitea
  Scenario: Someone else may not change a user's subscription
    When "bob" subscribes "carol" to issue 1 of "dev/app"
    Then the request is refused with status 403
    And the error message mentions "is not permitted to change subscriptions"
    And "carol" is unsubscribed to issue 1 of "dev/app"

  @gitea
  Scenario: A site administrator changes a user's subscription
    When "the admin" subscribes "carol" to issue 1 of "dev/app"
    Then the response status is 201
    And "carol" is subscribed to issue 1 of "dev/app"

  @gitea
  Scenario: Subscribing a user who does not exist is not found
    When "bob" subscribes "nobody" to issue 1 of "dev/app"
    Then the request is refused with status 404

  @gitea
  Scenario: The subscribers are the explicit ones and the commenters
    Given "carol" subscribed to issue 1 of "dev/app"
    And "dev" commented "Looking" on issue 1 of "dev/app"
    When "bob" lists the subscribers of issue 1 of "dev/app"
    Then the response status is 200
    And the subscribers listed are "dev, carol"
    And the response header "X-Total-Count" is "2"

  @gitea
  Scenario: A commenter who unsubscribed is not listed
    Given "dev" commented "Looking" on issue 1 of "dev/app"
    And "dev" unsubscribed from issue 1 of "dev/app"
    When "bob" lists the subscribers of issue 1 of "dev/app"
    Then the response status is 200
    And the subscribers listed are "none"

  @gitea
  Scenario: The subscriptions of a private repository's issue are not found for a stranger
    Given a private repository "dev/secret"
    And "dev" opened the issue "Leak" in "dev/secret"
    When "carol" checks whether they are subscribed to issue 1 of "dev/secret"
    Then the request is refused with status 404

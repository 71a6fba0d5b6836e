@feeds
Feature: The activity feed of a user
  GET /users/{username}/activities/feeds lists what the user did and what others did in the user's
  repositories (the reference stores one row per action and decides visibility when the feed is read;
  Gitea stores one row per receiver, the doer, the owner and the watchers; the reference has no watching,
  so an owner's repositories stand for them). only-performed-by=true keeps the user's own actions.
  user_id of every item is the user whose feed it is. A private repository's actions appear only to the
  user themself and site administrators, and only when the viewer can read the repository; a user who
  hides their activity (hide_activity) has an empty feed for everybody else, and their actions do not
  show in other feeds either.

  Background:
    Given a repository "dev/app"
    And a user "bob"

  @spec @clause_S2_3_feed @clause_S4_4_feeds
  Scenario: A user's feed holds their actions and those in their repositories
    Given a repository "bob/lib"
    And "bob" opened the issue "Typo" in "dev/app"
    When "an anonymous client" lists the activity feed of the user "dev"
    Then the response status is 200
    And the feed lists, newest first, "create_issue by bob, create_repo by dev"
    And every feed item belongs to the feed of "dev"

  @gitea
  Scenario: only-performed-by keeps the user's own actions
    Given "bob" opened the issue "Typo" in "dev/app"
    When "dev" lists the activity feed of the user "dev" with "only-performed-by=true"
    Then the response status is 200
    And the feed lists, newest first, "create_repo by dev"

  @gitea
  Scenario: A user's actions elsewhere are in their feed
    Given "bob" opened the issue "Typo" in "dev/app"
    When "dev" lists the activity feed of the user "bob"
    Then the feed lists, newest first, "create_issue by bob"

  @gitea
  Scenario: Actions in a private repository are hidden from other users
    Given a private repository "dev/secret"
    And "dev" opened the issue "Keys leaked" in "dev/secret"
    When "bob" lists the activity feed of the user "dev"
    Then the response status is 200
    And the feed has no item of "dev/secret"
    And the feed has a "create_repo" item by "dev"

  @gitea
  Scenario: Private actions stay out of another user's feed even for a reader of the repository
    Gitea includes private actions in a user's feed only for that user and site administrators.

    Given a private repository "dev/secret"
    And "bob" is a collaborator of "dev/secret" with the permission "read"
    And "dev" opened the issue "Keys leaked" in "dev/secret"
    When "bob" lists the activity feed of the user "dev"
    Then the response status is 200
    And the feed has no item of "dev/secret"
    And the feed has a "create_repo" item by "dev"

  @gitea
  Scenario: A user sees the actions of their private repositories in their own feed
    Given a private repository "dev/secret"
    And "dev" opened the issue "Keys leaked" in "dev/secret"
    When "dev" lists the activity feed of the user "dev"
    Then the feed has a "create_issue" item by "dev"
    And the feed item "create_issue" is private

  @gitea
  Scenario: A user who hides their activity has an empty feed for others
    Given "bob" opened the issue "Typo" in "dev/app"
    And "bob" hides their activity
    When "an anonymous client" lists the activity feed of the user "bob"
    Then the response status is 200
    And the feed lists, newest first, "nothing"

  @gitea
  Scenario: A user who hides their activity still sees their own feed
    Given "bob" opened the issue "Typo" in "dev/app"
    And "bob" hides their activity
    When "bob" lists the activity feed of the user "bob"
    Then the feed lists, newest first, "create_issue by bob"

  @gitea
  Scenario: The feed of an unknown user is not found
    When "bob" sends GET "/users/nobody-at-all-here/activities/feeds"
    Then the request is refused with status 404

@badges
Feature: A site administrator manages a user's badges
  GET /admin/users/{username}/badges lists the badges a user holds (an array, with X-Total-Count);
  POST gives badges and DELETE takes them, both with {"badge_slugs": [...]} and answering 204.
  Taking a badge the user does not hold is ignored. Only site administrators may do this (403),
  and an unknown user is not found (404). Badges are defined by the operator: Gitea has no API to
  define them, so the scenarios that need defined badges use the reference server's test hook
  and are unsupported elsewhere. Two documented choices of the reference differ from Gitea 1.27:
  an unknown slug is refused with 422 and nothing is given (Gitea answers 500), and a badge is
  listed with the swagger's keys id, slug, description, image_url (Gitea sends ID, Slug,
  Description, ImageURL). A third: giving a badge the user already holds leaves it listed once
  (Gitea's AddUserBadges inserts a second row, listed twice, or answers 500 where the unique
  index on user and badge exists).
  Defining badges changes instance-wide state, so those scenarios are @destructive: against a live
  target they run only with --allow-destructive.

  Background:
    Given a user "alice"

  @spec @clause_S1_badges @clause_S2_3_user_badge @clause_S4_4_badges @capability_badge_definitions @destructive
  Scenario: The administrator gives a user badges and lists them
    Given the badges "helper, reviewer" are defined
    When the admin gives "alice" the badges "helper, reviewer"
    Then the response status is 204
    And "alice" holds exactly the badges "helper, reviewer"

  @spec @clause_S1_badges @clause_S4_4_badges @capability_badge_definitions @destructive
  Scenario: The administrator takes a badge from a user
    Given the badges "helper, reviewer" are defined
    And "alice" holds the badges "helper, reviewer"
    When the admin takes the badges "reviewer" from "alice"
    Then the response status is 204
    And "alice" holds exactly the badges "helper"

  @gitea @clause_S4_4_badges @capability_badge_definitions @destructive
  Scenario: Taking badges the user does not hold is ignored
    Given the badges "helper, spare" are defined
    And "alice" holds the badges "helper"
    When the admin takes the badges "spare, never-defined" from "alice"
    Then the response status is 204
    And "alice" holds exactly the badges "helper"

  @reference @clause_S4_4_badges @capability_badge_definitions @destructive
  Scenario: Giving a badge twice leaves it listed once
    Given the badges "helper" are defined
    And "alice" holds the badges "helper"
    When the admin gives "alice" the badges "helper"
    Then the response status is 204
    And "alice" holds exactly the badges "helper"

  @reference @clause_S4_4_badges @capability_badge_definitions @destructive
  Scenario: An unknown badge is refused with 422 and nothing is given
    Given the badges "helper" are defined
    When the admin gives "alice" the badges "helper, never-defined"
    Then the request is refused with status 422
    And "alice" holds no badges

  @reference @clause_S2_3_user_badge @capability_badge_definitions @destructive
  Scenario: A listed badge carries the swagger's keys
    Given the badges "helper" are defined
    And "alice" holds the badges "helper"
    When the admin lists the badges of "alice"
    Then the response status is 200
    And the listed badge "helper" carries its description and image

  @spec @clause_S4_4_badges
  Scenario: A new user holds no badges
    When the admin lists the badges of "alice"
    Then the response status is 200
    And the response is a list of 0 items
    And the response header "X-Total-Count" is "0"

  @gitea @clause_S2_3_user_badge
  Scenario Outline: A user who is not a site administrator <action> the badges with 403
    Given a user "mallory"
    When "mallory" <action> the badges of "alice"
    Then the request is refused with status 403

    Examples:
      | action |
      | lists  |
      | gives  |
      | takes  |

  @gitea @clause_S4_4_badges
  Scenario Outline: The badges of a user that does not exist are not found (<action>)
    When the admin <action> badges of a user that does not exist
    Then the request is refused with status 404

    Examples:
      | action |
      | lists  |
      | gives  |
      | takes  |

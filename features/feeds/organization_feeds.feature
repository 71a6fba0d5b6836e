@feeds
Feature: The activity feeds of organizations and teams
  GET /orgs/{org}/activities/feeds lists what happened in the organization's repositories; actions of
  its private repositories only for members and site administrators. GET /teams/{id}/activities/feeds
  lists what happened in the team's repositories, for the team's members and the organization's owners
  (a token is required: 401 without one; 404 for a user outside the organization, as Gitea's team
  routes answer). user_id of every item is the organization.

  Background:
    Given a user "bob"
    And an organization "acme" owned by "dev"
    And a repository "acme/app"

  @spec @clause_S4_4_feeds
  Scenario: An organization's feed lists what happened in its repositories
    Given "dev" opened the issue "Plan" in "acme/app"
    When "an anonymous client" lists the activity feed of the organization "acme"
    Then the response status is 200
    And the feed has a "create_issue" item by "dev"
    And every feed item is of "acme/app"
    And every feed item belongs to the feed of "acme"

  @gitea
  Scenario: Actions of an organization's private repositories are for its members
    Given a private repository "acme/secret"
    And "dev" opened the issue "Budget" in "acme/secret"
    And "dev" opened the issue "Roadmap" in "acme/app"
    When "bob" lists the activity feed of the organization "acme"
    Then the response status is 200
    And the feed has no item of "acme/secret"
    And the feed has a "create_issue" item by "dev"

  @gitea
  Scenario: A member sees the actions of the organization's private repositories
    Given a private repository "acme/secret"
    And "dev" opened the issue "Budget" in "acme/secret"
    When "dev" lists the activity feed of the organization "acme"
    Then the feed has a "create_issue" item by "dev"
    And the feed item "create_issue" is private

  @gitea
  Scenario: A team's feed lists what happened in the team's repositories
    Given a repository "acme/other"
    And a team "devs" of "acme" with the permission "read"
    And "bob" is in the team "devs" of "acme"
    And the team "devs" of "acme" has the repository "acme/app"
    And "dev" opened the issue "Plan" in "acme/app"
    When "bob" lists the activity feed of the team "devs" of "acme"
    Then the response status is 200
    And the feed has a "create_issue" item by "dev"
    And every feed item is of "acme/app"

  @gitea
  Scenario: A team's feed needs a token
    Given a team "devs" of "acme" with the permission "read"
    When "an anonymous client" lists the activity feed of the team "devs" of "acme"
    Then the request is refused with status 401

  @gitea
  Scenario: A team's feed is not found for a user outside the organization
    Given a team "devs" of "acme" with the permission "read"
    When "bob" lists the activity feed of the team "devs" of "acme"
    Then the request is refused with status 404

@orgs
Feature: Organizations are created by a user, read by name, and deleted
  POST /orgs creates an organization owned by the caller; its name is unique among users and
  organizations. GET /orgs/{org} reads it, DELETE /orgs/{org} removes it.

  @gitea
  Scenario: A user creates an organization
    Given a user "alice"
    When "alice" creates the organization "acme"
    Then the response status is 201
    And the response field "name" is the name of "acme"
    And the organization "acme" exists

  @gitea
  Scenario: An organization is read by name
    Given a user "alice"
    And an organization "acme" owned by "alice"
    When "alice" fetches the organization "acme"
    Then the response status is 200
    And the response field "username" is the name of "acme"

  @gitea
  Scenario: An organization name that is taken is a validation error
    Given a user "alice"
    And an organization "acme" owned by "alice"
    When "alice" creates the organization "acme"
    Then the request is refused with status 422

  @gitea
  Scenario: An organization name that a user has is taken too
    Given a user "alice"
    And a user "bob"
    When "alice" creates the organization "bob"
    Then the request is refused with status 422

  @gitea
  Scenario: An organization needs a name
    Given a user "alice"
    When "alice" creates an organization without a name
    Then the request is refused with status 422

  @gitea
  Scenario: An unknown organization is not found
    Given a user "alice"
    When "alice" fetches the organization "ghost"
    Then the request is refused with status 404

  @gitea
  Scenario: The owner deletes an organization
    Given a user "alice"
    And an organization "acme" owned by "alice"
    When "alice" deletes the organization "acme"
    Then the response status is 204
    And the organization "acme" does not exist

  @gitea
  Scenario: Someone who does not own the organization cannot delete it
    Given a user "alice"
    And a user "bob"
    And an organization "acme" owned by "alice"
    When "bob" deletes the organization "acme"
    Then the request is refused with status 403
    And the organization "acme" exists

  @gitea
  Scenario Outline: A name Gitea reserves is refused for an organization: <name>
    The same reserved names and patterns as for users (routers/api/v1/org/org.go answers 422).
    Given a user "alice"
    When "alice" sends POST "orgs" with the body
      """
      {"username": "<name>"}
      """
    Then the request is refused with status 422
    And the error message mentions "<message>"

    Examples:
      | name         | message                |
      | api          | name is reserved       |
      | explore      | name is reserved       |
      | someone.rss  | pattern is not allowed |

@users
Feature: Reading users: the authenticated user and any user by name
  GET /user answers the account behind the credentials; GET /users/{username} answers any account
  by its name and 404 for a name nobody has.

  @gitea
  Scenario: The authenticated user is the token's owner
    Given a user "alice"
    When "alice" fetches the authenticated user
    Then the response status is 200
    And the response field "login" is the name of "alice"

  @gitea
  Scenario: The authenticated user needs credentials
    When an anonymous client fetches the authenticated user
    Then the request is refused with status 401

  @gitea
  Scenario: Any user reads another user by name
    Given a user "alice"
    And a user "bob"
    When "alice" fetches the user "bob"
    Then the response status is 200
    And the response field "login" is the name of "bob"

  @gitea
  Scenario: A name nobody has is not found
    Given a user "alice"
    When "alice" fetches the user "nobody"
    Then the request is refused with status 404

@users
Feature: A site administrator creates user accounts
  POST /admin/users is the administrator's way to open an account. The answer is the new User;
  missing required fields and taken names are validation errors (422, Gitea's error body), and an
  account that is not a site administrator is refused with 403.

  @gitea
  Scenario: The admin creates a user and can read it back
    When the admin creates the user "bob"
    Then the response status is 201
    And the response field "login" is the name of "bob"
    And the response field "is_admin" is false
    And the user "bob" exists

  @gitea @clause_S7_left_open
  Scenario Outline: A creation body without <field> is a validation error and creates nothing
    When the admin creates the user "carol" without the field "<field>"
    Then the request is refused with status 422
    And the user "carol" does not exist

    Examples:
      | field    |
      | username |
      | email    |

  @gitea @clause_S7_left_open
  Scenario: A taken user name is a validation error
    Given a user "bob"
    When the admin creates the user "bob"
    Then the request is refused with status 422

  @gitea
  Scenario: An email address that is not one is a validation error
    When the admin creates the user "dave" with the email "not-an-address"
    Then the request is refused with status 422
    And the user "dave" does not exist

  @gitea
  Scenario: A user who is not a site administrator cannot create users
    Given a user "alice"
    When "alice" tries to create the user "mallory"
    Then the request is refused with status 403
    And the user "mallory" does not exist

  @gitea
  Scenario Outline: A name Gitea reserves is refused for a user: <name>
    Gitea reserves names that its web routes or system users use (models/user/user.go
    reservedUsernames, reservedUserPatterns) and answers 422 "name is reserved [name: ...]" or "name
    pattern is not allowed [pattern: ...]" (routers/api/v1/admin/user.go); the names below are on every
    list of 1.22 to 1.27 (docs/gitea-security-facts.md, section 3).
    When the admin sends POST "admin/users" with the body
      """
      {"username": "<name>", "email": "reserved-<suffix>@example.com", "password": "a-long-password-1", "must_change_password": false}
      """
    Then the request is refused with status 422
    And the error message mentions "<message>"

    Examples:
      | name          | suffix   | message             |
      | api           | api      | name is reserved    |
      | assets        | assets   | name is reserved    |
      | explore       | explore  | name is reserved    |
      | user          | user     | name is reserved    |
      | ghost         | ghost    | name is reserved    |
      | gitea-actions | actions  | name is reserved    |
      | someone.keys  | keys     | pattern is not allowed |

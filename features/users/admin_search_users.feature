@users
Feature: A site administrator searches and deletes users
  GET /admin/users lists users, narrowed by q (name, full name or e-mail), login_name (the exact sign-in
  name) and the account flags is_active, is_admin, is_restricted, is_prohibit_login (Go's boolean
  spellings; anything else filters nothing). DELETE /admin/users/{username} removes a user; one who still
  owns repositories is refused (422 "user still has ownership of repositories") unless purge=true, which
  removes them too (routers/api/v1/admin/user.go).

  Background:
    Given a user "bob"

  @gitea
  Scenario: The admin finds a user by its sign-in name
    When the admin searches the users by the login name of "bob"
    Then the response status is 200
    And the user list holds only "bob"

  @gitea
  Scenario: An active user is found among the active ones
    When the admin searches the users named like "bob" with "is_active" set to "true"
    Then the user list holds only "bob"

  @gitea
  Scenario: An active user is not among the inactive ones
    When the admin searches the users named like "bob" with "is_active" set to "false"
    Then the response is a list of 0 items

  @gitea
  Scenario: A deactivated user is found among the inactive ones only
    Given the admin edits the user "bob" with
      """
      {"active": false}
      """
    When the admin searches the users named like "bob" with "is_active" set to "false"
    Then the user list holds only "bob"

  @gitea
  Scenario: A user who is no site administrator is not among the administrators
    When the admin searches the users named like "bob" with "is_admin" set to "true"
    Then the response is a list of 0 items

  @gitea
  Scenario: A restricted user is found among the restricted ones
    Given the admin edits the user "bob" with
      """
      {"restricted": true}
      """
    When the admin searches the users named like "bob" with "is_restricted" set to "true"
    Then the user list holds only "bob"

  @gitea
  Scenario: A user who is not restricted is not among the restricted ones
    When the admin searches the users named like "bob" with "is_restricted" set to "true"
    Then the response is a list of 0 items

  @gitea
  Scenario: A user who owns a repository is not deleted without purge
    Given a repository "bob/app"
    When the admin deletes the user "bob" without purge
    Then the request is refused with status 422
    And the error message mentions "user still has ownership of repositories"

  @gitea
  Scenario: Purge deletes the user with its repositories
    Given a repository "bob/app"
    When the admin deletes the user "bob" with purge
    Then the response status is 204
    And the user "bob" and the repository "bob/app" are gone

  @gitea
  Scenario: A user who is not a site administrator cannot search users
    When "bob" sends GET "/admin/users?login_name=bob"
    Then the request is refused with status 403

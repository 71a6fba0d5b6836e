@users
Feature: OAuth2 applications
  A user registers OAuth2 applications under /user/applications/oauth2. Creating one answers its
  client_id (a UUID) and its client_secret (gto_ and 52 characters) once; reading or listing never shows
  the secret again; PATCH replaces the settings and regenerates the secret, answered once more. Name and
  redirect URIs are required (422); a redirect URI must be an absolute http(s) URL (400). Another user's
  application is not found.

  Background:
    Given a user "alice"
    And a user "bob"

  @gitea
  Scenario: Creating an application answers its secret once
    When "alice" creates an OAuth2 application with the body
      """
      {"name": "ci", "redirect_uris": ["https://ci.example/callback"], "confidential_client": true,
       "skip_secondary_authorization": true}
      """
    Then the response status is 201
    And the answer carries a new client secret
    And the response field "name" is "ci"
    And the response field "confidential_client" is true
    And the response field "skip_secondary_authorization" is true
    And the response field "redirect_uris" lists "https://ci.example/callback"

  @gitea
  Scenario: Reading an application shows no secret
    Given "alice" created the OAuth2 application "ci"
    When "alice" reads the OAuth2 application
    Then the response status is 200
    And the answer is the OAuth2 application created
    And the answer shows no client secret

  @gitea
  Scenario: Listing the applications shows no secret
    Given "alice" created the OAuth2 application "ci"
    When "alice" lists their OAuth2 applications
    Then the answer is the OAuth2 application created
    And the answer shows no client secret
    And the response header "X-Total-Count" is "1"

  @gitea
  Scenario: Updating an application regenerates its secret
    Given "alice" created the OAuth2 application "ci"
    When "alice" updates the OAuth2 application with the body
      """
      {"name": "ci-2", "redirect_uris": ["https://ci.example/other"], "confidential_client": false}
      """
    Then the response status is 200
    And the answer carries a new client secret
    And the response field "name" is "ci-2"
    And the response field "confidential_client" is false

  @gitea
  Scenario: A redirect URI without an http scheme is refused
    When "alice" creates an OAuth2 application with the body
      """
      {"name": "ci", "redirect_uris": ["my-app:callback"]}
      """
    Then the request is refused with status 400

  @gitea
  Scenario: An application without a name is refused
    When "alice" creates an OAuth2 application with the body
      """
      {"redirect_uris": ["https://ci.example/callback"]}
      """
    Then the request is refused with status 422

  @gitea
  Scenario: Another user's application is not found
    Given "alice" created the OAuth2 application "ci"
    When "bob" reads the OAuth2 application
    Then the request is refused with status 404

  @gitea
  Scenario: Another user cannot update the application
    Given "alice" created the OAuth2 application "ci"
    When "bob" updates the OAuth2 application with the body
      """
      {"name": "mine", "redirect_uris": ["https://evil.example/cb"]}
      """
    Then the request is refused with status 404

  @gitea
  Scenario: Deleting an application removes it
    Given "alice" created the OAuth2 application "ci"
    When "alice" deletes the OAuth2 application
    Then the response status is 204
    And the OAuth2 application no longer exists

  @gitea
  Scenario: Another user cannot delete the application
    Given "alice" created the OAuth2 application "ci"
    When "bob" deletes the OAuth2 application
    Then the request is refused with status 404

@secrets
Feature: Repository and user secrets, as Gitea has them
  A repository's owner keeps secrets for that repository's workflows (list, PUT create-or-update,
  DELETE), with the same rules as organization secrets. A user keeps secrets for the workflows of
  every repository they own under /user/actions/secrets: PUT and DELETE only, as in Gitea, which has
  no route to list them.

  Background:
    Given a repository "dev/app"
    And a user "visitor"

  @gitea
  Scenario: A repository secret is created with 201, then updated with 204
    Given the repository "dev/app" has the secret "API_KEY" set to "ck-api-value-1"
    When "dev" sets the secret "API_KEY" of the repository "dev/app" to "ck-api-value-2"
    Then the response status is 204
    And the response body is empty
    And the repository "dev/app" has exactly the secrets "API_KEY"

  @gitea
  Scenario: The repository's secrets are listed without their values
    Given the repository "dev/app" has the secret "API_KEY" set to "ck-api-value-1" with the description "the API"
    When "dev" lists the secrets of the repository "dev/app"
    Then the response status is 200
    And the secret list holds exactly "API_KEY"
    And the listed secret "API_KEY" has the description "the API"
    And no response of the scenario reveals a secret value

  @gitea
  Scenario: A repository without secrets lists none
    When "dev" lists the secrets of the repository "dev/app"
    Then the response status is 200
    And the secret list is empty

  @gitea
  Scenario: Deleting a repository secret answers 204, and again 404
    Given the repository "dev/app" has the secret "API_KEY" set to "ck-api-value-1"
    And "dev" has deleted the secret "API_KEY" of the repository "dev/app"
    When "dev" deletes the secret "API_KEY" of the repository "dev/app"
    Then the request is refused with status 404
    And the repository "dev/app" has exactly the secrets ""

  @gitea
  Scenario: A name that no secret can have is refused with 400 on delete too
    When "dev" deletes the secret "000" of the repository "dev/app"
    Then the request is refused with status 400
    And the error message mentions "invalid variable or secret name"

  @gitea
  Scenario: A data field that is not a string is refused with 422
    When "dev" sets the secret "API_KEY" of the repository "dev/app" with the body
      """
      {"data": 12345}
      """
    Then the request is refused with status 422
    And the repository "dev/app" has exactly the secrets ""

  @gitea
  Scenario: Another user cannot list a repository's secrets
    Given the repository "dev/app" has the secret "API_KEY" set to "ck-api-value-1"
    When "visitor" lists the secrets of the repository "dev/app"
    Then the request is refused with status 403
    And no response of the scenario reveals a secret value

  @gitea
  Scenario: Another user cannot set a repository's secret
    When "visitor" sets the secret "API_KEY" of the repository "dev/app" to "ck-visitor-value"
    Then the request is refused with status 403
    And the repository "dev/app" has exactly the secrets ""

  @gitea
  Scenario: A token without write:repository cannot set a repository secret
    Given "dev" has a token "read-only" scoped "read:repository"
    When the token "read-only" is used to set the secret "API_KEY" of the repository "dev/app" to "ck-read-only-value"
    Then the request is refused with status 403
    And the repository "dev/app" has exactly the secrets ""

  @gitea
  Scenario: A user secret is created with 201, then updated with 204
    Given the user "dev" has the secret "PERSONAL" set to "ck-personal-value-1"
    When "dev" sets the secret "personal" of the user "dev" to "ck-personal-value-2"
    Then the response status is 204
    And the response body is empty

  @gitea
  Scenario: A user secret is deleted with 204
    Given the user "dev" has the secret "PERSONAL" set to "ck-personal-value-1"
    When "dev" deletes the secret "PERSONAL" of the user "dev"
    Then the response status is 204

  @gitea
  Scenario: A user's secrets are their own: another user deleting the same name finds nothing
    Given the user "dev" has the secret "PERSONAL" set to "ck-personal-value-1"
    When "visitor" deletes the secret "PERSONAL" of the user "visitor"
    Then the request is refused with status 404

  @gitea
  Scenario: User secrets have no list route
    When "dev" sends GET "/user/actions/secrets"
    Then the response status is 404

  @gitea
  Scenario: A token without write:user cannot set a user secret
    Given "dev" has a token "read-user" scoped "read:user"
    When the token "read-user" is used to set the secret "PERSONAL" of the user "dev" to "ck-read-user-value"
    Then the request is refused with status 403

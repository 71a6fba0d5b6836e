@secrets
Feature: Organization secrets are listed, created or updated in one operation, and deleted
  An organization's owners keep secrets for the organization's workflows. One PUT creates a secret
  (201) or replaces its value (204), both without a body. The list shows each secret's name,
  description and creation time; the value is write-only and never comes back. Names follow Gitea's
  rule: letters, digits and underscores, not starting with a digit, and no GITEA_ or GITHUB_ prefix,
  compared without regard to case and stored upper-cased.

  Background:
    Given a user "owner"
    And a user "outsider"
    And an organization "acme" owned by "owner"

  @spec @clause_S2_3_org_secret @clause_S4_4_org_secrets @clause_S1_org_secrets_variables
  Scenario: Creating an organization secret answers 201 without a body
    When "owner" sets the secret "DEPLOY_KEY" of the organization "acme" to "ck-deploy-value-1"
    Then the response status is 201
    And the response body is empty
    And the organization "acme" has exactly the secrets "DEPLOY_KEY"

  @spec @clause_S2_3_org_secret @clause_S4_4_org_secrets
  Scenario: Setting an existing secret again updates it and answers 204
    Given the organization "acme" has the secret "DEPLOY_KEY" set to "ck-deploy-value-1"
    When "owner" sets the secret "DEPLOY_KEY" of the organization "acme" to "ck-deploy-value-2"
    Then the response status is 204
    And the response body is empty
    And the organization "acme" has exactly the secrets "DEPLOY_KEY"

  @spec @clause_S2_3_org_secret @clause_S4_4_org_secrets
  Scenario: The list shows names and descriptions but never a value
    Given the organization "acme" has the secret "DEPLOY_KEY" set to "ck-deploy-value-1" with the description "for deploys"
    And the organization "acme" has the secret "NPM_TOKEN" set to "ck-npm-value-1"
    When "owner" lists the secrets of the organization "acme"
    Then the response status is 200
    And the secret list holds exactly "DEPLOY_KEY, NPM_TOKEN"
    And the listed secret "DEPLOY_KEY" has the description "for deploys"
    And no response of the scenario reveals a secret value

  @gitea @clause_S2_3_org_secret
  Scenario: A name given in lower case is the same secret, stored upper-cased
    Given the organization "acme" has the secret "DEPLOY_KEY" set to "ck-deploy-value-1"
    When "owner" sets the secret "deploy_key" of the organization "acme" to "ck-deploy-value-2"
    Then the response status is 204
    And the organization "acme" has exactly the secrets "DEPLOY_KEY"

  @spec @clause_S4_4_org_secrets
  Scenario: Deleting a secret answers 204 and it is gone
    Given the organization "acme" has the secret "DEPLOY_KEY" set to "ck-deploy-value-1"
    And the organization "acme" has the secret "KEEP_ME" set to "ck-keep-value-1"
    When "owner" deletes the secret "DEPLOY_KEY" of the organization "acme"
    Then the response status is 204
    And the organization "acme" has exactly the secrets "KEEP_ME"

  @gitea @clause_S4_4_org_secrets
  Scenario: Deleting a secret that does not exist is 404
    When "owner" deletes the secret "NEVER_SET" of the organization "acme"
    Then the request is refused with status 404

  @gitea @clause_S2_3_org_secret
  Scenario Outline: A name outside Gitea's rule is refused with 400 and nothing is stored
    When "owner" sets the secret "<name>" of the organization "acme" to "ck-bad-name-value"
    Then the request is refused with status 400
    And the error message mentions "invalid variable or secret name"
    And the organization "acme" has exactly the secrets ""

    Examples:
      | name          |
      | -             |
      | 2SECRET       |
      | GITEA_TOKEN   |
      | github_secret |
      | with-dash     |

  @gitea @clause_S2_3_org_secret
  Scenario: A body without data is refused with 422 and nothing is stored
    When "owner" sets the secret "DEPLOY_KEY" of the organization "acme" with the body
      """
      {"description": "no value"}
      """
    Then the request is refused with status 422
    And the organization "acme" has exactly the secrets ""

  @gitea @clause_S2_3_org_secret
  Scenario: A value longer than 65536 bytes is refused with 400 and the old value stays
    Gitea refuses secret data longer than 65536 bytes as an invalid argument (400); the reference
    server does the same.
    Given the organization "acme" has the secret "DEPLOY_KEY" set to "ck-deploy-value-1"
    When "owner" sets the secret "DEPLOY_KEY" of the organization "acme" to a value of 65537 bytes
    Then the request is refused with status 400
    And the organization "acme" has exactly the secrets "DEPLOY_KEY"

  @gitea @clause_S4_4_org_secrets
  Scenario: A user who does not own the organization cannot list its secrets
    Given the organization "acme" has the secret "DEPLOY_KEY" set to "ck-deploy-value-1"
    When "outsider" lists the secrets of the organization "acme"
    Then the request is refused with status 403
    And no response of the scenario reveals a secret value

  @gitea @clause_S4_4_org_secrets
  Scenario: A user who does not own the organization cannot set its secrets
    When "outsider" sets the secret "DEPLOY_KEY" of the organization "acme" to "ck-outsider-value"
    Then the request is refused with status 403
    And the organization "acme" has exactly the secrets ""

  @gitea @clause_S4_4_org_secrets
  Scenario: An anonymous client cannot list organization secrets
    When an anonymous client sends GET "/orgs/{acme}/actions/secrets"
    Then the request is refused with status 401

  @gitea @clause_S4_4_org_secrets
  Scenario Outline: A token without write:organization cannot set a secret
    Given "owner" has a token "limited" scoped "<scopes>"
    When the token "limited" is used to set the secret "DEPLOY_KEY" of the organization "acme" to "ck-limited-value"
    Then the request is refused with status 403
    And the organization "acme" has exactly the secrets ""

    Examples:
      | scopes                             |
      | read:organization                  |
      | write:repository, write:user       |

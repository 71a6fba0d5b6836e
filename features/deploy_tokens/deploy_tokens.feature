@deploy_tokens @capability_deploy_tokens
Feature: Deploy tokens are repository credentials for Git over HTTPS, managed over REST
  A deploy token is the HTTPS counterpart of an SSH deploy key: a secret bound to one repository, read-only
  or read-write. As in Gitea's development line (1.28-dev), a repository's administrators create one with
  POST /repos/{owner}/{repo}/keys/tokens and the answer is a DeployKey whose key holds the secret, "gdt_"
  followed by 43 letters and digits, shown only in that answer. Tokens are listed, read and deleted with the
  repository's keys (/keys, /keys/{id}). Gitea has no route to regenerate one yet: the reference's choice is
  POST /repos/{owner}/{repo}/keys/tokens/{id}/regenerate, which keeps the id and title and answers the new
  secret once; the old secret stops working at once.

  Background:
    Given a repository "dev/app"

  @spec @clause_S2_3_deploy_token
  Scenario: A read-only deploy token is created and its secret is shown once
    When "dev" creates a read-only deploy token "ci-read" for "dev/app"
    Then the response status is 201
    And the response holds the secret of the deploy token "ci-read"
    When "dev" lists the keys of "dev/app"
    Then the response status is 200
    And the key list holds the deploy token "ci-read" without its secret

  @gitea
  Scenario: A deploy token needs a title
    When "dev" sends POST "/repos/{dev/app}/keys/tokens" with the body
      """
      {"read_only": true}
      """
    Then the request is refused with status 422
    And the error message mentions "Title"

  @gitea
  Scenario: Two deploy tokens of a repository cannot share a title
    Given the repository "dev/app" has a read-only deploy token "deploy"
    When "dev" creates a read-write deploy token "deploy" for "dev/app"
    Then the request is refused with status 422
    And the error message mentions "same name"

  @gitea
  Scenario: Only the repository's administrators manage its deploy tokens
    Given a user "visitor"
    When "visitor" creates a read-write deploy token "mine" for "dev/app"
    Then the request is refused with status 403

  @reference
  Scenario: Regenerating a deploy token keeps its id and replaces its secret
    Given the repository "dev/app" has a read-write deploy token "ci"
    When "dev" regenerates the deploy token "ci"
    Then the response status is 200
    And the deploy token "ci" kept its id and has a new secret

  @gitea
  Scenario: A deleted deploy token is gone from the repository's keys
    Given the repository "dev/app" has a read-only deploy token "old"
    When "dev" deletes the deploy token "old"
    Then the response status is 204
    And the key list of "dev/app" does not hold the deploy token "old"

@deploy_tokens
Feature: SSH deploy keys are added to a repository and listed with its keys
  POST /repos/{owner}/{repo}/keys adds an SSH public key as a deploy key of the repository (its
  administrators only): the answer is Gitea's DeployKey with the key as "<type> <base64>" (the comment
  dropped), its SHA256 fingerprint as ssh-keygen prints it, the title and read_only. Gitea refuses with 422 a
  text that is no public key or a key below its default minimum size ("Invalid key content: ..."), the same
  key twice in one repository ("This key has already been added to this repository") and a title used
  twice ("A key with the same name already exists") (routers/api/v1/repo/key.go, models/asymkey).

  Background:
    Given a repository "dev/app"

  @gitea
  Scenario: A deploy key is added with its fingerprint and listed
    When "dev" adds the "ed25519" public key "k1" to "dev/app" as a deploy key titled "ci"
    Then the response status is 201
    And the answer is the read-only deploy key "k1" titled "ci" with its fingerprint
    And the key list of "dev/app" holds the deploy key "k1" titled "ci"

  @gitea
  Scenario: The same key cannot be added twice to a repository
    Given the repository "dev/app" has the deploy key "k1" titled "first"
    When "dev" adds the "ed25519" public key "k1" to "dev/app" as a deploy key titled "second"
    Then the request is refused with status 422
    And the error message mentions "This key has already been added to this repository"

  @gitea
  Scenario: A title is used once per repository
    Given the repository "dev/app" has the deploy key "k1" titled "ci"
    When "dev" adds the "ed25519" public key "k2" to "dev/app" as a deploy key titled "ci"
    Then the request is refused with status 422
    And the error message mentions "A key with the same name already exists"

  @gitea
  Scenario: A text that is no public key is refused
    When "dev" adds the text "ssh-ed25519 not-a-key" to "dev/app" as a deploy key titled "bad"
    Then the request is refused with status 422
    And the error message mentions "Invalid key content"

  @gitea
  Scenario: An RSA key below 3071 bits is refused
    When "dev" adds the "weak rsa" public key "k3" to "dev/app" as a deploy key titled "weak"
    Then the request is refused with status 422
    And the error message mentions "key length is not enough"

  @gitea
  Scenario: Someone who only reads the repository may not add a deploy key
    Given a user "bob"
    When "bob" adds the "ed25519" public key "k1" to "dev/app" as a deploy key titled "ci"
    Then the request is refused with status 403

  @gitea
  Scenario: A deploy key is read back by its id
    Given the repository "dev/app" has the deploy key "laptop" titled "Laptop"
    When "dev" reads the deploy key titled "Laptop" of "dev/app"
    Then the response status is 200
    And the answer is the read-only deploy key "laptop" titled "Laptop" with its fingerprint

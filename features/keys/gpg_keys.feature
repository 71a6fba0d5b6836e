@keys
Feature: Users import GPG keys and prove them with a signature
  POST /user/gpg_keys imports an ASCII-armored public key: its key id, its subkeys (each with the primary's
  id), what its algorithms can do, and the user's activated e-mail addresses its user ids name. Without a
  signature at least one such address must exist (404 "None of the emails attached to the GPG key could be
  found ..."); with a detached signature of the token of GET /user/gpg_key_token the key is verified at once.
  POST /user/gpg_key_verify verifies an imported key the same way (422 when the signature is not the key's).
  A key id is imported once on the whole forge (422 "A key with the same id already exists")
  (routers/api/v1/user/gpg_key.go, models/asymkey/gpg_key*.go).

  Background:
    Given a user "bob"
    And a GPG key pair "main" naming the "primary" e-mail address of "bob"

  @gitea
  Scenario: A key naming the user's address is imported, unverified, with its subkey
    When "bob" imports the GPG key "main"
    Then the response status is 201
    And the answer is the GPG key "main", unverified, naming the "primary" e-mail address of "bob"

  @gitea
  Scenario: A key naming none of the user's addresses is not imported without a signature
    Given a GPG key pair "stray" naming the "elsewhere" e-mail address of "bob"
    When "bob" imports the GPG key "stray"
    Then the request is refused with status 404
    And the error message mentions "None of the emails attached to the GPG key could be found"
    And the error message mentions the verification token of "bob"

  @gitea
  Scenario: A key signed over the verification token is imported verified
    Given a GPG key pair "stray" naming the "elsewhere" e-mail address of "bob"
    When "bob" imports the GPG key "stray" signed by "stray" over their verification token
    Then the response status is 201
    And the answer is the GPG key "stray", verified, naming no e-mail address

  @gitea
  Scenario: A signature by another key is refused
    Given a GPG key pair "other" naming the "elsewhere" e-mail address of "bob"
    When "bob" imports the GPG key "main" signed by "other" over their verification token
    Then the request is refused with status 422
    And the error message mentions "do not match"

  @gitea
  Scenario: A key is imported once
    Given "bob" has imported the GPG key "main"
    When "bob" imports the GPG key "main"
    Then the request is refused with status 422
    And the error message mentions "A key with the same id already exists"

  @gitea
  Scenario: A text that is no armored key is refused
    When "bob" imports the text "not a key at all" as a GPG key
    Then the request is refused with status 422
    And the error message mentions "failed to parse gpg key"

  @gitea
  Scenario: The verification token is a SHA-256 in hexadecimal
    When "bob" asks for their GPG verification token
    Then the response status is 200
    And the answer is a verification token of 64 hexadecimal digits

  @gitea
  Scenario: An imported key is verified by a signature of the token
    Given "bob" has imported the GPG key "main"
    When "bob" verifies the GPG key "main" with a signature by "main" of their verification token
    Then the response status is 200
    And the answer is the GPG key "main", verified, naming the "primary" e-mail address of "bob"

  @gitea
  Scenario: A verification signed by another key is refused
    Given "bob" has imported the GPG key "main"
    And a GPG key pair "other" naming the "elsewhere" e-mail address of "bob"
    When "bob" verifies the GPG key "main" with a signature by "other" of their verification token
    Then the request is refused with status 422
    And the error message mentions the verification token of "bob"

  @gitea
  Scenario: Another user cannot verify a key that is not theirs
    Given "bob" has imported the GPG key "main"
    And a user "carol"
    When "carol" verifies the GPG key "main" with a signature by "main" of their verification token
    Then the request is refused with status 404

  @gitea
  Scenario: The owner lists and reads their keys
    Given "bob" has imported the GPG key "main"
    When "bob" lists their GPG keys
    Then the list holds only the GPG key "main"
    And the response header "X-Total-Count" is "1"

  @gitea
  Scenario: The owner reads a key by its id
    Given "bob" has imported the GPG key "main"
    When "bob" reads the GPG key "main"
    Then the response status is 200
    And the answer is the GPG key "main", unverified, naming the "primary" e-mail address of "bob"

  @gitea
  Scenario: Another user lists an account's keys but cannot read one by id
    Given "bob" has imported the GPG key "main"
    And a user "carol"
    When "carol" lists the GPG keys of "bob"
    Then the list holds only the GPG key "main"

  @gitea
  Scenario: Reading another user's key by id is not found
    Given "bob" has imported the GPG key "main"
    And a user "carol"
    When "carol" reads the GPG key "main"
    Then the request is refused with status 404

  @gitea
  Scenario: The owner deletes a key with its subkeys
    Given "bob" has imported the GPG key "main"
    When "bob" deletes the GPG key "main"
    Then the response status is 204
    And "bob" has no GPG keys

  @gitea
  Scenario: Another user may not delete a key
    Given "bob" has imported the GPG key "main"
    And a user "carol"
    When "carol" deletes the GPG key "main"
    Then the request is refused with status 403
    And the error message mentions "You do not have access to this key"

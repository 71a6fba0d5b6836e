@keys
Feature: Users keep SSH public keys on their account
  POST /user/keys adds an SSH public key to the caller's account (a site administrator adds one to any
  account with POST /admin/users/{username}/keys); GET /user/keys and GET /users/{username}/keys list them,
  GET /user/keys/{id} reads one and DELETE /user/keys/{id} removes it. Gitea's PublicKey carries the key as
  "<type> <base64>", its SHA256 fingerprint, the title and the url under /user/keys/; its owner, key_type
  and read_only only for the owner or an administrator. One key belongs to one account or to deploy keys on
  the whole forge ("Key content has been used as non-deploy key"), a title once per account ("Key title has
  been used"), and a malformed or too short key is refused ("Invalid key content: ..."), all with 422
  (routers/api/v1/user/key.go, models/asymkey/ssh_key.go).

  Background:
    Given a user "bob"

  @gitea
  Scenario: A user adds an SSH key and is shown it with its fingerprint and owner
    When "bob" adds the "ed25519" public key "k1" to their account titled "laptop"
    Then the response status is 201
    And the answer is the SSH key "k1" titled "laptop" of "bob"

  @gitea
  Scenario: The owner reads a key back by its id
    Given "bob" has the SSH key "k1" titled "laptop"
    When "bob" reads the SSH key titled "laptop"
    Then the response status is 200
    And the answer is the SSH key "k1" titled "laptop" of "bob"

  @gitea
  Scenario: The owner lists their keys
    Given "bob" has the SSH key "k1" titled "laptop"
    When "bob" lists their SSH keys
    Then the list holds only the SSH key "k1" titled "laptop" of "bob"
    And the response header "X-Total-Count" is "1"

  @gitea
  Scenario: Another user sees the keys of an account without their owner, type or access
    Given "bob" has the SSH key "k1" titled "laptop"
    And a user "carol"
    When "carol" lists the SSH keys of "bob"
    Then the list holds only the SSH key "k1" titled "laptop", without its owner

  @gitea
  Scenario: The fingerprint filter of /user/keys finds the key whoever owns it
    Given "bob" has the SSH key "k1" titled "laptop"
    And a user "carol"
    When "carol" lists their SSH keys with the fingerprint of "k1"
    Then the list holds only the SSH key "k1" titled "laptop", without its owner

  @gitea
  Scenario: The fingerprint filter of an account's list stays within that account
    Given "bob" has the SSH key "k1" titled "laptop"
    And a user "carol"
    When "carol" lists the SSH keys of "carol" with the fingerprint of "k1"
    Then the response is a list of 0 items

  @gitea
  Scenario: A key already on another account is refused
    Given "bob" has the SSH key "k1" titled "laptop"
    And a user "carol"
    When "carol" adds the "ed25519" public key "k1" to their account titled "mine"
    Then the request is refused with status 422
    And the error message mentions "Key content has been used as non-deploy key"

  @gitea
  Scenario: A key already used as a deploy key is refused as an account's key
    Given a repository "dev/app"
    And the repository "dev/app" has the deploy key "k1" titled "ci"
    When "bob" adds the "ed25519" public key "k1" to their account titled "laptop"
    Then the request is refused with status 422
    And the error message mentions "Key content has been used as non-deploy key"

  @gitea
  Scenario: An account's key is refused as a deploy key
    Given "bob" has the SSH key "k1" titled "laptop"
    And a repository "dev/app"
    When "dev" adds the "ed25519" public key "k1" to "dev/app" as a deploy key titled "ci"
    Then the request is refused with status 422
    And the error message mentions "Key content has been used as non-deploy key"

  @gitea
  Scenario: A title is used once per account
    Given "bob" has the SSH key "k1" titled "laptop"
    When "bob" adds the "ed25519" public key "k2" to their account titled "laptop"
    Then the request is refused with status 422
    And the error message mentions "Key title has been used"

  @gitea
  Scenario: A text that is no public key is refused
    When "bob" adds the text "ssh-ed25519 not-a-key" to their account as an SSH key titled "bad"
    Then the request is refused with status 422
    And the error message mentions "Invalid key content"

  @gitea
  Scenario: An RSA key below Gitea's default minimum of 3071 bits is refused
    When "bob" adds the "weak rsa" public key "k3" to their account titled "weak"
    Then the request is refused with status 422
    And the error message mentions "key length is not enough"

  @gitea
  Scenario: The owner deletes a key
    Given "bob" has the SSH key "k1" titled "laptop"
    When "bob" deletes the SSH key titled "laptop"
    Then the response status is 204
    And "bob" has no SSH keys

  @gitea
  Scenario: Another user may not delete a key
    Given "bob" has the SSH key "k1" titled "laptop"
    And a user "carol"
    When "carol" deletes the SSH key titled "laptop"
    Then the request is refused with status 403
    And the error message mentions "You do not have access to this key"

  @gitea
  Scenario: A key id that does not exist is not found
    When "bob" reads an SSH key that does not exist
    Then the request is refused with status 404

  @gitea
  Scenario: A site administrator adds a key to an account
    When the admin adds the "ed25519" public key "k1" to the account of "bob" titled "provisioned"
    Then the response status is 201
    And the answer is the SSH key "k1" titled "provisioned" of "bob"

  @gitea
  Scenario: A site administrator deletes a key through its owner's account
    Given "bob" has the SSH key "k1" titled "laptop"
    When the admin deletes the SSH key titled "laptop" through the account of "bob"
    Then the response status is 204
    And "bob" has no SSH keys

  @gitea
  Scenario: Through another account the administrator's deletion is judged as that account's
    Given "bob" has the SSH key "k1" titled "laptop"
    And a user "carol"
    When the admin deletes the SSH key titled "laptop" through the account of "carol"
    Then the request is refused with status 403
    And the error message mentions "You do not have access to this key"

  @gitea
  Scenario: A token without the write:user scope cannot add a key
    Given a user "reader" with a token scoped "read:user"
    When "reader" adds the "ed25519" public key "k1" to their account titled "laptop"
    Then the request is refused with status 403

@keys
Feature: Users add and remove e-mail addresses
  GET /user/emails lists the caller's addresses (Gitea's Email: the address, verified, primary, the user's id
  and name); POST /user/emails adds a list and answers with all of them (201); DELETE /user/emails removes a
  list (204). An address is used once on the whole forge whatever its case ("Email address has been used:
  ..."), a malformed one is refused ('Email address "..." invalid'), both with 422; removing an address the
  user lacks is a 404 ("Email address does not exist"), and nothing of the list changes on a refusal
  (routers/api/v1/user/email.go, services/user/email.go).

  Background:
    Given a user "bob"

  @gitea
  Scenario: A new account lists its primary address only
    When "bob" lists their e-mail addresses
    Then the response status is 200
    And the e-mail addresses of "bob" are only its primary one

  @gitea
  Scenario: An added address is listed after the primary one, verified
    When "bob" adds the "work" e-mail address of "bob"
    Then the response status is 201
    And the answer lists the primary e-mail address of "bob" and its "work" one

  @gitea
  Scenario: Another user's address cannot be added
    Given a user "carol"
    When "carol" adds the "primary" e-mail address of "bob"
    Then the request is refused with status 422
    And the error message mentions "Email address has been used"

  @gitea
  Scenario: A malformed address is refused
    When "bob" adds the e-mail addresses "not-an-address"
    Then the request is refused with status 422
    And the error message mentions "invalid"

  @gitea
  Scenario: An empty list is refused
    When "bob" adds the e-mail addresses ""
    Then the request is refused with status 422
    And the error message mentions "Email list empty"

  @gitea
  Scenario: An added address is removed
    Given "bob" has added the "work" e-mail address
    When "bob" deletes the "work" e-mail address of "bob"
    Then the response status is 204
    And the e-mail addresses of "bob" are only its primary one

  @gitea
  Scenario: Removing an address the user does not have is not found
    When "bob" deletes the "unknown" e-mail address of "bob"
    Then the request is refused with status 404
    And the error message mentions "Email address does not exist"

  @reference
  Scenario: The primary address cannot be removed
    When "bob" deletes the "primary" e-mail address of "bob"
    Then the request is refused with status 422
    And the error message mentions "Primary email address cannot be deleted"
    And the e-mail addresses of "bob" are only its primary one

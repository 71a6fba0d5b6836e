@orgs
Feature: A member shows or hides its membership of an organization
  As in Gitea 1.27, a member makes its own membership public (PUT /orgs/{org}/public_members/{username}) and
  hides it again (DELETE); nobody else may do it for the member (403). Anyone who sees the organization
  lists its public members and asks whether a user is one: 204 when public, 404 otherwise.

  Background:
    Given a user "alice"
    And an organization "acme" owned by "alice"
    And a team "readers" of "acme" with the permission "read"
    And "bob" is in the team "readers" of "acme"

  @gitea
  Scenario: Only the memberships made public are listed, to anyone
    Given "bob" shows its membership of "acme"
    When "an anonymous client" lists the public members of "acme"
    Then the response status is 200
    And the response lists exactly "bob"
    And the response header "X-Total-Count" is "1"

  @gitea
  Scenario: A public membership is confirmed and a hidden one is not
    Given "bob" shows its membership of "acme"
    When "an anonymous client" checks whether "bob" is a public member of "acme"
    Then the response status is 204
    When "an anonymous client" checks whether "alice" is a public member of "acme"
    Then the request is refused with status 404

  @gitea
  Scenario: A member hides its membership again
    Given "bob" shows its membership of "acme"
    When "bob" hides the membership of "bob" in "acme"
    Then the response status is 204
    And "bob" is not a public member of "acme"
    When "an anonymous client" lists the public members of "acme"
    Then the response lists nobody

  @gitea
  Scenario: Nobody hides another member's membership, not even an owner
    Given "bob" shows its membership of "acme"
    When "alice" hides the membership of "bob" in "acme"
    Then the request is refused with status 403
    And "bob" is a public member of "acme"

@orgs
Feature: Repository collaborators and the access they get
  A repository's admins (its owner, the owners of its organization, admin collaborators and site
  administrators) add users as collaborators with the permission read, write or admin (write when
  the body names none), list them, check one, and remove them. A read collaborator reads a private
  repository's files but cannot change them (403); a write collaborator can. The permission route
  answers a RepoCollaboratorPermission; a user asks about itself, repository admins about anybody.
  As in Gitea, an unknown user is a validation error (422) on the collaborator routes and 404 on the
  permission route; every collaborator route needs a token.

  Background:
    Given a user "alice"
    And a private repository "alice/vault"
    And the repository "alice/vault" has the file "secret.txt" with content "shh"
    And a user "bob"

  @gitea
  Scenario: The owner adds a collaborator
    When "alice" adds "bob" as a collaborator of "alice/vault" with the permission "read"
    Then the response status is 204
    And "bob" sees the repository "alice/vault"

  @gitea
  Scenario: A read collaborator reads a private repository's file
    Given "bob" is a collaborator of "alice/vault" with the permission "read"
    When "bob" reads the file "secret.txt" of "alice/vault"
    Then the response status is 200
    And the response holds the file "secret.txt" with content "shh"

  @gitea
  Scenario: A read collaborator cannot write a file
    Given "bob" is a collaborator of "alice/vault" with the permission "read"
    When "bob" creates the file "bob.txt" in "alice/vault" with content "mine"
    Then the request is refused with status 403
    And the file "bob.txt" of "alice/vault" does not exist

  @gitea
  Scenario: A write collaborator writes a file
    Given "bob" is a collaborator of "alice/vault" with the permission "write"
    When "bob" creates the file "bob.txt" in "alice/vault" with content "mine"
    Then the response status is 201
    And the file "bob.txt" of "alice/vault" holds "mine"

  @gitea
  Scenario: Without a permission in the body a collaborator gets write
    Given "alice" added "bob" as a collaborator of "alice/vault" with an empty body
    When "bob" asks for the permission of "bob" on "alice/vault"
    Then the response status is 200
    And the response field "permission" of the collaborator is "write" for "bob"

  @gitea
  Scenario: A collaborator asks for its own permission
    Given "bob" is a collaborator of "alice/vault" with the permission "read"
    When "bob" asks for the permission of "bob" on "alice/vault"
    Then the response status is 200
    And the response field "permission" of the collaborator is "read" for "bob"

  @gitea
  Scenario: The owner's permission is owner
    When "alice" asks for the permission of "alice" on "alice/vault"
    Then the response status is 200
    And the response field "permission" of the collaborator is "owner" for "alice"

  @gitea
  Scenario: A reader cannot ask for another user's permission
    Given "bob" is a collaborator of "alice/vault" with the permission "read"
    When "bob" asks for the permission of "alice" on "alice/vault"
    Then the request is refused with status 403

  @gitea
  Scenario: The permission of an unknown user is not found
    When "alice" asks for the permission of "ghost" on "alice/vault"
    Then the request is refused with status 404

  @gitea
  Scenario: A repository lists its collaborators
    Given "bob" is a collaborator of "alice/vault" with the permission "read"
    When "bob" lists the collaborators of "alice/vault"
    Then the response status is 200
    And the response lists exactly "bob"
    And the response header "X-Total-Count" is "1"

  @gitea
  Scenario: A collaborator is confirmed
    Given "bob" is a collaborator of "alice/vault" with the permission "read"
    When "alice" checks whether "bob" is a collaborator of "alice/vault"
    Then the response status is 204

  @gitea
  Scenario: A user who is not a collaborator is not found
    Given a user "carol"
    When "alice" checks whether "carol" is a collaborator of "alice/vault"
    Then the request is refused with status 404

  @gitea
  Scenario: A removed collaborator no longer sees the private repository
    Given "bob" is a collaborator of "alice/vault" with the permission "write"
    When "alice" removes the collaborator "bob" from "alice/vault"
    Then the response status is 204
    And "bob" does not see the repository "alice/vault"

  @gitea
  Scenario: A write collaborator cannot manage collaborators
    Given "bob" is a collaborator of "alice/vault" with the permission "write"
    And a user "carol"
    When "bob" adds "carol" as a collaborator of "alice/vault" with the permission "read"
    Then the request is refused with status 403

  @gitea
  Scenario: An admin collaborator manages collaborators
    Given "bob" is a collaborator of "alice/vault" with the permission "admin"
    And a user "carol"
    When "bob" adds "carol" as a collaborator of "alice/vault" with the permission "read"
    Then the response status is 204

  @gitea
  Scenario: An unknown user cannot be added as a collaborator
    When "alice" adds "ghost" as a collaborator of "alice/vault" with the permission "read"
    Then the request is refused with status 422

  @reference
  Scenario: The reference refuses an organization as a collaborator (422), as Gitea's settings page does
    Given an organization "acme" owned by "alice"
    When "alice" adds "acme" as a collaborator of "alice/vault" with the permission "read"
    Then the request is refused with status 422

  @reference
  Scenario: The reference refuses a permission other than read, write or admin (422) where Gitea fails with 500
    When "alice" adds "bob" as a collaborator of "alice/vault" with the permission "owner"
    Then the request is refused with status 422

  @gitea
  Scenario: The collaborator routes need a token
    When "an anonymous client" lists the collaborators of "alice/vault"
    Then the request is refused with status 401

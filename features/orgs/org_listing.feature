@orgs
Feature: Organizations seen from outside: the list of all of them, and a user's permissions in one
  GET /orgs lists every organization the caller may see, by name and paged: public ones to anyone,
  limited ones to signed-in users, private ones to their members and site administrators.
  GET /users/{username}/orgs/{org}/permissions answers Gitea's OrganizationPermissions of that user, from
  the best access of its teams there (read, write, admin, owner) and whether a team lets it create
  repositories; an organization hidden from the user is not found.

  Background:
    Given a user "alice"
    And a user "bob"
    And an organization "guild" owned by "alice"

  @gitea
  Scenario: A public organization is listed to anyone
    Then "an anonymous client" finds the organization "guild" among all organizations
    And "bob" finds the organization "guild" among all organizations

  @gitea
  Scenario: A private organization is listed to its members only
    Given the organization "guild" is private
    Then "alice" finds the organization "guild" among all organizations
    And "bob" does not find the organization "guild" among all organizations
    And "an anonymous client" does not find the organization "guild" among all organizations

  @gitea
  Scenario: The owner holds every permission
    When "bob" asks for the permissions of "alice" in "guild"
    Then the permissions are "can_read, can_write, is_admin, is_owner, can_create_repository" and nothing more

  @gitea
  Scenario: A member of a read team may read and nothing more
    Given a team "readers" of "guild" with the permission "read"
    And "bob" is in the team "readers" of "guild"
    When "alice" asks for the permissions of "bob" in "guild"
    Then the permissions are "can_read" and nothing more

  @gitea
  Scenario: A user outside the organization holds no permission
    When "alice" asks for the permissions of "bob" in "guild"
    Then the permissions are "none" and nothing more

  @gitea
  Scenario: A private organization is not found for a user who cannot see it
    Given the organization "guild" is private
    When "alice" asks for the permissions of "bob" in "guild"
    Then the request is refused with status 404

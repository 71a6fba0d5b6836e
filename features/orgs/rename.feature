@orgs
Feature: Renaming an organization
  POST /orgs/{org}/rename with {"new_name"} renames an organization (owners and site
  administrators, 204). A name another account holds, a reserved name or a malformed one is refused
  with 422; renaming to the same name changes nothing, and a change of case only is allowed. As in
  Gitea, the old name then redirects: a request naming it answers 307 Temporary Redirect with a
  Location naming the new one, for the organization and for its repositories, whose Git data moves
  with the new name.

  Background:
    Given a user "alice"
    And an organization "acme" owned by "alice"

  @spec @clause_S4_3_org_rename @clause_S1_rename_sync_multifile
  Scenario: The owner renames an organization
    When "alice" renames the organization "acme" to "acme2"
    Then the response status is 204
    And the organization "acme" is found under its new name

  @gitea
  Scenario: The old name of an organization redirects to the new one
    Given "alice" renamed the organization "acme" to "acme2"
    When "alice" fetches the organization "acme" by its old name
    Then the response status is 307
    And the response redirects to the organization "acme"

  @gitea
  Scenario: A repository under the old owner name redirects to the new one
    Given a repository "acme/app"
    And "alice" renamed the organization "acme" to "acme2"
    When "alice" fetches the repository "acme/app" by its old owner name
    Then the response status is 307
    And the response redirects to the repository "acme/app"

  @gitea
  Scenario: A renamed organization's repository keeps its files under the new owner name
    Given a repository "acme/app"
    And the repository "acme/app" has the file "kept.txt" with content "still here"
    And "alice" renamed the organization "acme" to "acme2"
    When "alice" reads the file "kept.txt" of "acme/app"
    Then the response status is 200
    And the response holds the file "kept.txt" with content "still here"

  @gitea
  Scenario: A name another account holds is refused
    Given a user "bob"
    When "alice" renames the organization "acme" to the name of "bob"
    Then the request is refused with status 422
    And the organization "acme" exists

  @gitea
  Scenario: A reserved name is refused
    When "alice" renames the organization "acme" to the literal name "api"
    Then the request is refused with status 422

  @gitea
  Scenario: A malformed name is refused
    When "alice" renames the organization "acme" to the literal name "no spaces allowed"
    Then the request is refused with status 422

  @gitea
  Scenario: A member who is not an owner cannot rename the organization
    Given a team "readers" of "acme" with the permission "read"
    And "bob" is in the team "readers" of "acme"
    When "bob" renames the organization "acme" to "taken-over"
    Then the request is refused with status 403
    And the organization "acme" exists

  @gitea
  Scenario: An unknown organization cannot be renamed
    When "alice" renames the organization "nowhere" to "somewhere"
    Then the request is refused with status 404

  @gitea
  Scenario: Renaming to the same name changes nothing
    When "alice" renames the organization "acme" to its own name
    Then the response status is 204
    And the organization "acme" exists

  @gitea
  Scenario: A change of case only is allowed
    When "alice" renames the organization "acme" to its own name in upper case
    Then the response status is 204
    And the organization "acme" is found under its new name

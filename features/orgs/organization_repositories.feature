@orgs
Feature: An organization's repositories are listed, created and deleted together
  GET /orgs/{org}/repos lists the repositories of an organization the caller may see (a private one only
  to those with access). POST /org/{org}/repos is Gitea's older path of POST /orgs/{org}/repos and
  creates the same way (owners, members of a team allowed to create repositories). DELETE /orgs/{org}/repos
  deletes every repository of the organization (its owners only, 403 otherwise): Gitea 1.27 answers 202
  and deletes in the background, or 204 when there is nothing to delete.

  Background:
    Given a user "alice"
    And an organization "acme" owned by "alice"

  @gitea
  Scenario: Anyone lists the public repositories of an organization, its members the private ones too
    Given a repository "acme/site"
    And a private repository "acme/vault"
    When "an anonymous client" lists the repositories of the organization "acme"
    Then the response status is 200
    And the response lists the repositories "acme/site"
    And the response header "X-Total-Count" is "1"
    When "alice" lists the repositories of the organization "acme"
    Then the response lists the repositories "acme/site, acme/vault"

  @gitea
  Scenario: A repository is created through the older organization path
    When "alice" creates the repository "acme/legacy" through the older organization path
    Then the response status is 201
    And the response field "owner.login" is "{acme}"
    And the response field "full_name" is "{acme/legacy}"
    When "alice" lists the repositories of the organization "acme"
    Then the response lists the repositories "acme/legacy"

  @gitea
  Scenario: A member of a read team cannot create a repository through the older path
    Given a team "readers" of "acme" with the permission "read"
    And "bob" is in the team "readers" of "acme"
    When "bob" creates the repository "acme/sneaky" through the older organization path
    Then the request is refused with status 403

  @gitea
  Scenario: An owner deletes every repository of the organization
    Given a repository "acme/one"
    And a repository "acme/two"
    When "alice" deletes every repository of the organization "acme"
    Then the response status is 202
    And the organization "acme" comes to have no repositories

  @gitea
  Scenario: Deleting the repositories of an organization that has none answers 204
    When "alice" deletes every repository of the organization "acme"
    Then the response status is 204

  @gitea
  Scenario: A member who is not an owner cannot delete the organization's repositories
    Given a repository "acme/one"
    And a team "writers" of "acme" with the permission "write"
    And "bob" is in the team "writers" of "acme"
    When "bob" deletes every repository of the organization "acme"
    Then the request is refused with status 403
    When "alice" lists the repositories of the organization "acme"
    Then the response lists the repositories "acme/one"

@admin
Feature: A site administrator finds and adopts repository directories nobody claims
  GET /admin/unadopted lists the repository directories under the repository root that no repository
  record claims (owner/name, filtered by a glob pattern), POST /admin/unadopted/{owner}/{repo} adopts
  one as a private repository and DELETE removes its files. A directory that is not there, or that a
  repository already claims, is not found (404): a repository is never adopted twice nor deleted
  through this route. Only site administrators may use them.

  @gitea
  Scenario: A repository that has its record cannot be adopted or deleted as unadopted
    Given a repository "dev/app"
    When the admin adopts the unadopted repository "dev/app"
    Then the request is refused with status 404
    And the repository "dev/app" is still there

  @gitea
  Scenario: The files of a repository that has its record are not deleted as unadopted
    Given a repository "dev/app"
    When the admin deletes the unadopted repository "dev/app"
    Then the request is refused with status 404
    And the repository "dev/app" is still there

  @gitea
  Scenario: A directory that is not there cannot be adopted
    Given a user "dev"
    When the admin adopts the unadopted repository "dev/nothing-here"
    Then the request is refused with status 404

  @gitea
  Scenario: A user who is not a site administrator cannot list unadopted repositories
    Given a user "bob"
    When "bob" sends GET "/admin/unadopted"
    Then the request is refused with status 403

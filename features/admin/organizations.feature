@admin
Feature: A site administrator lists every organization
  GET /admin/orgs lists every organization of the instance, oldest first, paged with X-Total-Count, as
  Gitea's Organization (routers/api/v1/admin/org.go). Only site administrators may list them.

  @gitea
  Scenario: A new organization is on the last page of the admin's list
    Given a user "dev"
    And an organization "acme" owned by "dev"
    When the admin lists the last page of every organization
    Then the response status is 200
    And the organization "acme" is on that page, with its full name

  @gitea
  Scenario: A user who is not a site administrator cannot list every organization
    Given a user "bob"
    When "bob" sends GET "/admin/orgs"
    Then the request is refused with status 403

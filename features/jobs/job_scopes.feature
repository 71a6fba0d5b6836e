@jobs
Feature: Jobs are listed at the instance, user, organization and repository scope
  GET /actions/jobs is served at /admin/actions/jobs (site administrators), /user/actions/jobs (the
  caller's own repositories), /orgs/{org}/actions/jobs (members) and /repos/{owner}/{repo}/actions/jobs,
  each an object {jobs, total_count} holding exactly the jobs of its scope, filtered by status.

  Background:
    Given a user "dev"
    And an organization "acme" owned by "dev"
    And a repository "dev/app"
    And a repository "acme/lib"
    And a repository "ops/tool"
    And the repository "dev/app" has the file ".gitea/workflows/ci.yml" with the content
      """
      name: CI
      on: [push]
      jobs:
        build:
          runs-on: conformance-no-such-label
          steps:
            - run: echo build
        test:
          runs-on: conformance-no-such-label
          steps:
            - run: echo test
      """
    And the repository "acme/lib" has the file ".gitea/workflows/ci.yml" with the content
      """
      name: CI
      on: [push]
      jobs:
        build:
          runs-on: conformance-no-such-label
          steps:
            - run: echo lib
      """
    And the repository "ops/tool" has the file ".gitea/workflows/ci.yml" with the content
      """
      name: CI
      on: [push]
      jobs:
        build:
          runs-on: conformance-no-such-label
          steps:
            - run: echo tool
      """

  @spec @clause_S4_3_jobs_scopes @clause_S2_3_workflow_job
  Scenario: The user scope lists exactly the jobs of the caller's own repositories
    When "dev" lists the jobs of user "dev"
    Then the response status is 200
    And the listed jobs are exactly 2 of "dev/app"

  @spec @clause_S4_3_jobs_scopes @clause_S2_3_workflow_job
  Scenario: The organization scope lists exactly the jobs of the organization's repositories
    When "dev" lists the jobs of organization "acme"
    Then the response status is 200
    And the listed jobs are exactly 1 of "acme/lib"

  @spec @clause_S4_3_jobs_scopes
  Scenario: The repository scope lists exactly the repository's jobs
    When "dev" lists the jobs of repository "dev/app"
    Then the response status is 200
    And the listed jobs are exactly 2 of "dev/app"

  @spec @clause_S4_3_jobs_scopes
  Scenario: The instance scope lists the jobs of every repository
    Jobs are listed oldest first by default; a shared instance holds many, so the newest page is asked
    for with Gitea 1.27's order=desc.
    When "the admin" lists the jobs of the instance with the query "order=desc&limit=50"
    Then the response status is 200
    And the listed jobs include those of "dev/app,acme/lib,ops/tool"

  @gitea @clause_S4_3_jobs_scopes
  Scenario Outline: Only administrators, members and owners list the jobs of a wider scope
    When "<who>" lists the jobs of <scope>
    Then the request is refused with status 403

    Examples:
      | who | scope               |
      | dev | the instance        |
      | ops | organization "acme" |

  @gitea @clause_S4_3_jobs_scopes
  Scenario Outline: Jobs are filtered by status
    When "dev" lists the jobs of user "dev" with the query "status=<status>"
    Then the response status is 200
    And the listed jobs are exactly <count> of "dev/app"

    Examples:
      | status    | count |
      | queued    | 2     |
      | completed | 0     |
      | failure   | 0     |

  @gitea @clause_S4_3_jobs_scopes
  Scenario: An unknown status filter on jobs is refused with 400
    When "dev" lists the jobs of repository "dev/app" with the query "status=sleeping"
    Then the request is refused with status 400

  @gitea @clause_S4_3_jobs_scopes
  Scenario: Jobs are paged with page and limit, X-Total-Count and Link
    When "dev" lists the jobs of repository "dev/app" with the query "limit=1&page=1"
    Then the response status is 200
    And the response header "X-Total-Count" is "2"
    And the response has the header "Link"
    And the response field "total_count" is 2

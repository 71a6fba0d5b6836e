@runs
Feature: Runs are listed at the instance, user, organization and repository scope, with filters and pages
  GET /actions/runs is served at four scopes: /admin/actions/runs (site administrators: every run),
  /user/actions/runs (the runs of the caller's own repositories), /orgs/{org}/actions/runs (the
  runs of the organization's repositories, for its members) and /repos/{owner}/{repo}/actions/runs.
  Each scope sees exactly its runs. The lists filter by status (Gitea's words and aliases; an
  unknown word is 400), event, branch, actor and head_sha, and are paged with page and limit,
  X-Total-Count and Link.

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
            - run: echo app
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

  @spec @clause_S4_3_runs_scopes @clause_S1_runs_jobs_workflows
  Scenario: The user scope lists exactly the runs of the caller's own repositories
    When "dev" lists the runs of user "dev"
    Then the response status is 200
    And the listed runs are exactly 1 of "dev/app"

  @spec @clause_S4_3_runs_scopes
  Scenario: The organization scope lists exactly the runs of the organization's repositories
    When "dev" lists the runs of organization "acme"
    Then the response status is 200
    And the listed runs are exactly 1 of "acme/lib"

  @spec @clause_S4_3_runs_scopes @clause_S4_4_runs_jobs_repo
  Scenario: The repository scope lists exactly the repository's runs
    When "dev" lists the runs of repository "dev/app"
    Then the response status is 200
    And the listed runs are exactly 1 of "dev/app"

  @spec @clause_S4_3_runs_scopes
  Scenario: The instance scope lists the runs of every repository
    When "the admin" lists the runs of the instance
    Then the response status is 200
    And the listed runs include those of "dev/app,acme/lib,ops/tool"

  @gitea @clause_S4_3_runs_scopes
  Scenario: Only site administrators list the runs of the instance
    When "dev" lists the runs of the instance
    Then the request is refused with status 403

  @gitea @clause_S4_3_runs_scopes
  Scenario: A user outside an organization cannot list its runs
    When "ops" lists the runs of organization "acme"
    Then the request is refused with status 403

  @gitea @clause_S4_3_runs_scopes
  Scenario Outline: The status filter takes Gitea's words and aliases
    A run whose job no runner has taken is "queued" (Gitea's internal status waiting); the words
    "waiting" and "pending" mean a blocked run, and the words of finished runs find nothing.
    When "dev" lists the runs of user "dev" with the query "status=<status>"
    Then the response status is 200
    And the listed runs are exactly <count> of "dev/app"

    Examples:
      | status      | count |
      | queued      | 1     |
      | waiting     | 0     |
      | pending     | 0     |
      | completed   | 0     |
      | success     | 0     |
      | in_progress | 0     |

  @gitea @clause_S4_3_runs_scopes
  Scenario: An unknown status filter is refused with 400
    When "dev" lists the runs of user "dev" with the query "status=sleeping"
    Then the request is refused with status 400

  @gitea @clause_S4_3_runs_scopes
  Scenario Outline: Runs are filtered by event, branch and actor
    When "dev" lists the runs of user "dev" with the query "<query>"
    Then the response status is 200
    And the listed runs are exactly <count> of "dev/app"

    Examples:
      | query                    | count |
      | event=push               | 1     |
      | event=workflow_dispatch  | 0     |
      | branch=main              | 1     |
      | branch=no-such-branch    | 0     |
      | actor={dev}              | 1     |
      | actor={ops}              | 0     |

  @gitea @clause_S4_3_runs_scopes
  Scenario: Runs are filtered by head_sha
    When "dev" lists the runs of repository "dev/app" at the commit of its workflow
    Then the listed runs are exactly 1 of "dev/app"
    When "dev" lists the runs of repository "dev/app" at the commit of the workflow of "acme/lib"
    Then no runs are listed

  @gitea @clause_S4_3_runs_scopes
  Scenario: Runs are paged with page and limit, X-Total-Count and Link
    Given a commit adding "second.txt" is pushed to "dev/app"
    When "dev" lists the runs of repository "dev/app" with the query "limit=1&page=2"
    Then the response status is 200
    And the response header "X-Total-Count" is "2"
    And the response has the header "Link"
    And the run list of this page holds 1 run

  @gitea @clause_S4_3_runs_scopes @clause_S8_left_open
  Scenario Outline: Out-of-range page and limit are clamped, not refused
    Gitea reads a page below 1 as the first page and a limit of 0 or beyond the maximum as the
    default or the maximum.
    When "dev" lists the runs of user "dev" with the query "<query>"
    Then the response status is 200
    And the listed runs are exactly 1 of "dev/app"

    Examples:
      | query                |
      | page=0&limit=0       |
      | page=-3&limit=100000 |
      | limit=-1             |

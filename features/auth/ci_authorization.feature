@auth
Feature: Who may call the CI administration routes, as one table of operation, caller and status
  Gitea checks a route's credentials in a fixed order, and this table pins each step of it for a
  representative route of every CI family at every scope. First the token: a route that requires
  one answers 401 without credentials. Then the token's scope, before any lookup: GET needs
  read:<category>, every other method write:<category>, where the category is repository under
  /repos, organization under /orgs, user under /user and admin under /admin; a missing scope is 403,
  even on a repository that does not exist (the anonymous row of that route is left out: the notes
  do not say whether its 401 or its 404 comes first). Then the lookup: the private repository
  acme/app is invisible (404) to a user without access, and to an anonymous client on the routes
  that need no token (a run, the task list), which an anonymous client may read on a public
  repository (200). Then the role: on the public repository acme/site any signed-in user
  is a reader, so a stranger lists its runs but is refused its owner-only routes (secrets,
  variables, runners, hooks) with 403; organization routes need membership (runs) or ownership
  (secrets, variables, runners) and /admin a site administrator, refused with 403; /user routes
  serve the caller's own scope, so any signed-in user is allowed. The owner is the organization's
  owner; the site administrator may do anything. On representative rows three roles on acme/app
  complete the list: a reader (a read collaborator) and a writer (a write collaborator) read runs,
  jobs and workflows, only the writer deletes a run or dispatches a workflow, and neither reaches the
  owner-only routes (secrets, variables, runners: repository owner; hooks: repository admin), which
  answer 403; an org member (in a read team of acme covering acme/app) lists the repository's and the
  organization's runs but not the organization's secrets (owners only, 403). A refusal carries
  Gitea's error body.

  Background:
    The world: a user "owner", an organization "acme" owned by "owner", its private repository
    "acme/app" with the workflow below in ".gitea/workflows/ci.yml", a mock runner "ci" registered at
    repository "acme/app" with the label "conformance-authz" that has finished the workflow's job with
    success, the organization's public repository "acme/site" and a user "stranger". A row whose
    operation only reads (GET) uses one such world built once per worker (the reader, writer and org
    member roles and the scoped tokens are added to it once); a row whose operation changes something
    (delete a run, dispatch, put a secret, create a variable or hook, update a runner, ask for a
    registration token) builds its own.
    Given the CI authorization world, shared by the rows whose operation only reads, with the workflow
      """
      name: CI
      on: [push, workflow_dispatch]
      jobs:
        build:
          runs-on: conformance-authz
          steps:
            - run: echo authz
      """

  @gitea
  Scenario Outline: Authorization of a repository CI route: <operation> by <caller>
    Given the caller is "<caller>" for the operation "<operation>"
    When the caller sends the operation "<operation>"
    Then the operation answers <status>

    Examples:
      | operation                     | caller                     | status |
      | repository runs list          | anonymous                  | 401    |
      | repository runs list          | stranger                   | 404    |
      | repository runs list          | owner without the category | 403    |
      | repository runs list          | owner with a read token    | 200    |
      | repository runs list          | owner                      | 200    |
      | repository runs list          | site admin                 | 200    |
      | repository runs list          | reader                     | 200    |
      | repository runs list          | writer                     | 200    |
      | repository runs list          | org member                 | 200    |
      | missing repository runs list  | stranger                   | 404    |
      | missing repository runs list  | owner without the category | 403    |
      | missing repository runs list  | owner with a read token    | 404    |
      | missing repository runs list  | owner                      | 404    |
      | missing repository runs list  | site admin                 | 404    |
      | run get                       | anonymous                  | 404    |
      | run get                       | stranger                   | 404    |
      | run get                       | owner without the category | 403    |
      | run get                       | owner with a read token    | 200    |
      | run get                       | owner                      | 200    |
      | run get                       | site admin                 | 200    |
      | run delete                    | anonymous                  | 401    |
      | run delete                    | stranger                   | 404    |
      | run delete                    | owner without the category | 403    |
      | run delete                    | owner with a read token    | 403    |
      | run delete                    | owner                      | 204    |
      | run delete                    | site admin                 | 204    |
      | run delete                    | reader                     | 403    |
      | run delete                    | writer                     | 204    |
      | tasks list                    | anonymous                  | 404    |
      | tasks list                    | stranger                   | 404    |
      | tasks list                    | owner without the category | 403    |
      | tasks list                    | owner with a read token    | 200    |
      | tasks list                    | owner                      | 200    |
      | tasks list                    | site admin                 | 200    |
      | jobs list                     | anonymous                  | 401    |
      | jobs list                     | stranger                   | 404    |
      | jobs list                     | owner without the category | 403    |
      | jobs list                     | owner with a read token    | 200    |
      | jobs list                     | owner                      | 200    |
      | jobs list                     | site admin                 | 200    |
      | jobs list                     | reader                     | 200    |
      | workflows list                | anonymous                  | 401    |
      | workflows list                | stranger                   | 404    |
      | workflows list                | owner without the category | 403    |
      | workflows list                | owner with a read token    | 200    |
      | workflows list                | owner                      | 200    |
      | workflows list                | site admin                 | 200    |
      | workflows list                | reader                     | 200    |
      | workflow dispatch             | anonymous                  | 401    |
      | workflow dispatch             | stranger                   | 404    |
      | workflow dispatch             | owner without the category | 403    |
      | workflow dispatch             | owner with a read token    | 403    |
      | workflow dispatch             | owner                      | 204    |
      | workflow dispatch             | site admin                 | 204    |
      | workflow dispatch             | reader                     | 403    |
      | workflow dispatch             | writer                     | 204    |
      | repository runners list       | anonymous                  | 401    |
      | repository runners list       | stranger                   | 404    |
      | repository runners list       | owner without the category | 403    |
      | repository runners list       | owner with a read token    | 200    |
      | repository runners list       | owner                      | 200    |
      | repository runners list       | site admin                 | 200    |
      | repository registration token | anonymous                  | 401    |
      | repository registration token | stranger                   | 404    |
      | repository registration token | owner without the category | 403    |
      | repository registration token | owner with a read token    | 403    |
      | repository registration token | owner                      | 200    |
      | repository registration token | site admin                 | 200    |
      | runner update                 | anonymous                  | 401    |
      | runner update                 | stranger                   | 404    |
      | runner update                 | owner without the category | 403    |
      | runner update                 | owner with a read token    | 403    |
      | runner update                 | owner                      | 200    |
      | runner update                 | site admin                 | 200    |
      | runner update                 | writer                     | 403    |
      | repository secret put         | anonymous                  | 401    |
      | repository secret put         | stranger                   | 404    |
      | repository secret put         | owner without the category | 403    |
      | repository secret put         | owner with a read token    | 403    |
      | repository secret put         | owner                      | 201    |
      | repository secret put         | site admin                 | 201    |
      | repository secrets list       | anonymous                  | 401    |
      | repository secrets list       | stranger                   | 404    |
      | repository secrets list       | owner without the category | 403    |
      | repository secrets list       | owner with a read token    | 200    |
      | repository secrets list       | owner                      | 200    |
      | repository secrets list       | site admin                 | 200    |
      | repository secrets list       | reader                     | 403    |
      | repository secrets list       | writer                     | 403    |
      | repository variable create    | anonymous                  | 401    |
      | repository variable create    | stranger                   | 404    |
      | repository variable create    | owner without the category | 403    |
      | repository variable create    | owner with a read token    | 403    |
      | repository variable create    | owner                      | 201    |
      | repository variable create    | site admin                 | 201    |
      | repository variable create    | writer                     | 403    |
      | repository variables list     | anonymous                  | 401    |
      | repository variables list     | stranger                   | 404    |
      | repository variables list     | owner without the category | 403    |
      | repository variables list     | owner with a read token    | 200    |
      | repository variables list     | owner                      | 200    |
      | repository variables list     | site admin                 | 200    |
      | repository hooks list         | anonymous                  | 401    |
      | repository hooks list         | stranger                   | 404    |
      | repository hooks list         | owner without the category | 403    |
      | repository hooks list         | owner with a read token    | 200    |
      | repository hooks list         | owner                      | 200    |
      | repository hooks list         | site admin                 | 200    |
      | repository hooks list         | writer                     | 403    |
      | repository hook create        | anonymous                  | 401    |
      | repository hook create        | stranger                   | 404    |
      | repository hook create        | owner without the category | 403    |
      | repository hook create        | owner with a read token    | 403    |
      | repository hook create        | owner                      | 201    |
      | repository hook create        | site admin                 | 201    |

  @gitea
  Scenario Outline: Authorization of a public repository's CI route: <operation> by <caller>
    Given the caller is "<caller>" for the operation "<operation>"
    When the caller sends the operation "<operation>"
    Then the operation answers <status>

    Examples:
      | operation                         | caller                     | status |
      | public repository runs list       | anonymous                  | 401    |
      | public repository runs list       | stranger                   | 200    |
      | public repository runs list       | owner without the category | 403    |
      | public repository runs list       | owner with a read token    | 200    |
      | public repository runs list       | owner                      | 200    |
      | public repository runs list       | site admin                 | 200    |
      | public repository tasks list      | anonymous                  | 200    |
      | public repository tasks list      | stranger                   | 200    |
      | public repository tasks list      | owner without the category | 403    |
      | public repository tasks list      | owner with a read token    | 200    |
      | public repository tasks list      | owner                      | 200    |
      | public repository tasks list      | site admin                 | 200    |
      | public repository secrets list    | anonymous                  | 401    |
      | public repository secrets list    | stranger                   | 403    |
      | public repository secrets list    | owner without the category | 403    |
      | public repository secrets list    | owner with a read token    | 200    |
      | public repository secrets list    | owner                      | 200    |
      | public repository secrets list    | site admin                 | 200    |
      | public repository runners list    | anonymous                  | 401    |
      | public repository runners list    | stranger                   | 403    |
      | public repository runners list    | owner without the category | 403    |
      | public repository runners list    | owner with a read token    | 200    |
      | public repository runners list    | owner                      | 200    |
      | public repository runners list    | site admin                 | 200    |
      | public repository variable create | anonymous                  | 401    |
      | public repository variable create | stranger                   | 403    |
      | public repository variable create | owner without the category | 403    |
      | public repository variable create | owner with a read token    | 403    |
      | public repository variable create | owner                      | 201    |
      | public repository variable create | site admin                 | 201    |
      | public repository hooks list      | anonymous                  | 401    |
      | public repository hooks list      | stranger                   | 403    |
      | public repository hooks list      | owner without the category | 403    |
      | public repository hooks list      | owner with a read token    | 200    |
      | public repository hooks list      | owner                      | 200    |
      | public repository hooks list      | site admin                 | 200    |

  @gitea
  Scenario Outline: Authorization of an organization CI route: <operation> by <caller>
    Given the caller is "<caller>" for the operation "<operation>"
    When the caller sends the operation "<operation>"
    Then the operation answers <status>

    Examples:
      | operation                   | caller                     | status |
      | organization runs list      | anonymous                  | 401    |
      | organization runs list      | stranger                   | 403    |
      | organization runs list      | owner without the category | 403    |
      | organization runs list      | owner with a read token    | 200    |
      | organization runs list      | owner                      | 200    |
      | organization runs list      | site admin                 | 200    |
      | organization runs list      | org member                 | 200    |
      | organization secrets list   | anonymous                  | 401    |
      | organization secrets list   | stranger                   | 403    |
      | organization secrets list   | owner without the category | 403    |
      | organization secrets list   | owner with a read token    | 200    |
      | organization secrets list   | owner                      | 200    |
      | organization secrets list   | site admin                 | 200    |
      | organization secrets list   | org member                 | 403    |
      | organization variables list | anonymous                  | 401    |
      | organization variables list | stranger                   | 403    |
      | organization variables list | owner without the category | 403    |
      | organization variables list | owner with a read token    | 200    |
      | organization variables list | owner                      | 200    |
      | organization variables list | site admin                 | 200    |
      | organization runners list   | anonymous                  | 401    |
      | organization runners list   | stranger                   | 403    |
      | organization runners list   | owner without the category | 403    |
      | organization runners list   | owner with a read token    | 200    |
      | organization runners list   | owner                      | 200    |
      | organization runners list   | site admin                 | 200    |

  @gitea
  Scenario Outline: Authorization of a user CI route: <operation> by <caller>
    Given the caller is "<caller>" for the operation "<operation>"
    When the caller sends the operation "<operation>"
    Then the operation answers <status>

    Examples:
      | operation           | caller                     | status |
      | user runners list   | anonymous                  | 401    |
      | user runners list   | stranger                   | 200    |
      | user runners list   | owner without the category | 403    |
      | user runners list   | owner with a read token    | 200    |
      | user runners list   | owner                      | 200    |
      | user runners list   | site admin                 | 200    |
      | user variables list | anonymous                  | 401    |
      | user variables list | stranger                   | 200    |
      | user variables list | owner without the category | 403    |
      | user variables list | owner with a read token    | 200    |
      | user variables list | owner                      | 200    |
      | user variables list | site admin                 | 200    |

  @gitea
  Scenario Outline: Authorization of an instance CI route: <operation> by <caller>
    Given the caller is "<caller>" for the operation "<operation>"
    When the caller sends the operation "<operation>"
    Then the operation answers <status>

    Examples:
      | operation                | caller                     | status |
      | admin runs list          | anonymous                  | 401    |
      | admin runs list          | stranger                   | 403    |
      | admin runs list          | owner without the category | 403    |
      | admin runs list          | owner with a read token    | 403    |
      | admin runs list          | owner                      | 403    |
      | admin runs list          | site admin                 | 200    |
      | admin runners list       | anonymous                  | 401    |
      | admin runners list       | stranger                   | 403    |
      | admin runners list       | owner without the category | 403    |
      | admin runners list       | owner with a read token    | 403    |
      | admin runners list       | owner                      | 403    |
      | admin runners list       | site admin                 | 200    |
      | admin registration token | anonymous                  | 401    |
      | admin registration token | stranger                   | 403    |
      | admin registration token | owner without the category | 403    |
      | admin registration token | owner with a read token    | 403    |
      | admin registration token | owner                      | 403    |
      | admin registration token | site admin                 | 200    |

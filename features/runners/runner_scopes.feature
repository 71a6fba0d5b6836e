@runners
Feature: Runners are managed at the instance, user, organization and repository scope
  Every scope has its own registration token (POST, and the legacy GET the specification keeps), and
  lists, gets, deletes, disables and enables its own runners. A runner of a repository belongs to
  that repository only: its owner's user scope and any other scope answer 404 for it. The instance
  scope (site administrators) reaches every runner, as Gitea's admin routes do.

  Background:
    Given a user "dev"
    And a user "ops"
    And an organization "acme" owned by "dev"
    And a repository "dev/app"

  @spec @clause_S4_4_registration_tokens @clause_S1_runners
  Scenario Outline: A registration token is given at every scope, by POST and by the legacy GET
    When "<who>" sends <method> "<path>"
    Then the response status is 200
    And the response field "token" is a non-empty text

    Examples:
      | who       | method | path                                          |
      | the admin | POST   | /admin/actions/runners/registration-token     |
      | the admin | GET    | /admin/actions/runners/registration-token     |
      | the admin | GET    | /admin/runners/registration-token             |
      | dev       | POST   | /user/actions/runners/registration-token      |
      | dev       | GET    | /user/actions/runners/registration-token      |
      | dev       | POST   | /orgs/{acme}/actions/runners/registration-token |
      | dev       | GET    | /orgs/{acme}/actions/runners/registration-token |
      | dev       | POST   | /repos/{dev/app}/actions/runners/registration-token |
      | dev       | GET    | /repos/{dev/app}/actions/runners/registration-token |

  @gitea @clause_S4_4_registration_tokens
  Scenario Outline: Registration tokens of scopes the caller does not manage are refused
    When "ops" sends <method> "<path>"
    Then the request is refused with status <status>

    Examples:
      | method | path                                              | status |
      | POST   | /admin/actions/runners/registration-token         | 403    |
      | GET    | /admin/runners/registration-token                 | 403    |
      | POST   | /orgs/{acme}/actions/runners/registration-token   | 403    |
      | POST   | /repos/{dev/app}/actions/runners/registration-token | 403  |

  @spec @clause_S4_4_runners @clause_S2_3_runner
  Scenario: Each scope lists exactly its own runners
    Given a mock runner "repo-runner" registered at repository "dev/app" with the labels "ubuntu-latest"
    And a mock runner "org-runner" registered at organization "acme" with the labels "ubuntu-latest"
    And a mock runner "user-runner" registered at user "dev" with the labels "ubuntu-latest"
    When "dev" lists the runners of repository "dev/app"
    Then the response status is 200
    And the runner list holds exactly the runners "repo-runner"
    When "dev" lists the runners of organization "acme"
    Then the runner list holds exactly the runners "org-runner"
    When "dev" lists the runners of user "dev"
    Then the runner list holds exactly the runners "user-runner"

  @spec @clause_S4_4_runners @clause_S2_3_runner
  Scenario Outline: A runner is read at its own scope, with its disabled state
    Given a mock runner "mine" registered at <scope> with the labels "ubuntu-latest"
    When "dev" gets the runner "mine" at <scope>
    Then the response status is 200
    And the answer is the runner "mine" with disabled false

    Examples:
      | scope                  |
      | repository "dev/app"   |
      | organization "acme"    |
      | user "dev"             |

  @gitea @clause_S4_4_runners
  Scenario: The instance scope reaches the runner of a repository
    Given a mock runner "repo-runner" registered at repository "dev/app" with the labels "ubuntu-latest"
    When "the admin" gets the runner "repo-runner" at the instance
    Then the response status is 200
    And the answer is the runner "repo-runner" with disabled false

  @gitea @clause_S4_4_runners
  Scenario: The instance scope deletes the runner of a repository
    Given a mock runner "repo-runner" registered at repository "dev/app" with the labels "ubuntu-latest"
    When "the admin" deletes the runner "repo-runner" at the instance
    Then the response status is 204
    When "dev" gets the runner "repo-runner" at repository "dev/app"
    Then the request is refused with status 404

  @gitea @clause_S4_4_runners
  Scenario Outline: A runner of another scope is not found
    Given a mock runner "mine" registered at <home> with the labels "ubuntu-latest"
    When "dev" gets the runner "mine" at <elsewhere>
    Then the request is refused with status 404

    Examples:
      | home                 | elsewhere            |
      | repository "dev/app" | user "dev"           |
      | repository "dev/app" | organization "acme"  |
      | organization "acme"  | user "dev"           |
      | user "dev"           | repository "dev/app" |

  @gitea @clause_S4_4_runners
  Scenario: A deleted runner is no longer listed nor found, and cannot fetch tasks
    Given a mock runner "old" registered at organization "acme" with the labels "ubuntu-latest"
    When "dev" deletes the runner "old" at organization "acme"
    Then the response status is 204
    When "dev" gets the runner "old" at organization "acme"
    Then the request is refused with status 404
    When "dev" lists the runners of organization "acme"
    Then the runner list holds exactly the runners ""

  @gitea @clause_S4_4_runners
  Scenario: Deleting a runner through another scope is not found and leaves it in place
    Given a mock runner "mine" registered at repository "dev/app" with the labels "ubuntu-latest"
    When "dev" deletes the runner "mine" at user "dev"
    Then the request is refused with status 404
    When "dev" gets the runner "mine" at repository "dev/app"
    Then the answer is the runner "mine" with disabled false

  @gitea @clause_S1_runners @clause_S2_3_runner
  Scenario: PATCH with disabled switches a runner off and on, as Gitea 1.27
    Given a mock runner "mine" registered at organization "acme" with the labels "ubuntu-latest"
    When "dev" disables the runner "mine" at organization "acme"
    Then the response status is 200
    And the answer is the runner "mine" with disabled true
    When "dev" lists the runners of organization "acme"
    Then the runner list holds exactly the runners "mine"
    And the response field "runners.0.disabled" is true
    When "dev" enables the runner "mine" at organization "acme"
    Then the answer is the runner "mine" with disabled false

  @gitea @clause_S1_runners
  Scenario: PATCH without disabled is refused with 422 and changes nothing
    Given a mock runner "mine" registered at repository "dev/app" with the labels "ubuntu-latest"
    When "dev" edits the runner "mine" at repository "dev/app" with the body
      """
      {"name": "renamed"}
      """
    Then the request is refused with status 422
    When "dev" gets the runner "mine" at repository "dev/app"
    Then the answer is the runner "mine" with disabled false

  @gitea @clause_S4_4_runners
  Scenario: A user who does not own the repository cannot read its runners
    Given a mock runner "mine" registered at repository "dev/app" with the labels "ubuntu-latest"
    When "ops" lists the runners of repository "dev/app"
    Then the request is refused with status 403

  @gitea @clause_S4_4_runners @clause_S2_3_runner
  Scenario: The runner list is filtered by the disabled state
    Given a mock runner "on" registered at organization "acme" with the labels "ubuntu-latest"
    And a mock runner "off" registered at organization "acme" with the labels "ubuntu-latest"
    When "dev" disables the runner "off" at organization "acme"
    And "dev" lists the runners of organization "acme" with the query "disabled=true"
    Then the runner list holds exactly the runners "off"
    When "dev" lists the runners of organization "acme" with the query "disabled=false"
    Then the runner list holds exactly the runners "on"

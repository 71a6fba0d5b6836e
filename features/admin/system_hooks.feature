@admin
Feature: A site administrator's system webhooks hear every repository
  POST /admin/hooks creates a system webhook (Gitea's CreateHookOption; its API makes system hooks, the
  web interface also default ones that new repositories copy). A system hook belongs to no repository:
  the repositories' own hook lists do not show it, yet it receives the events of every repository it
  subscribes to, signed with its secret like any hook. Only site administrators manage them.

  @gitea @destructive
  Scenario: A system webhook is told of the workflow runs of a user's repository
    Given a repository "dev/app"
    And a mock runner registered to "dev/app" with the labels "ubuntu-latest"
    And the admin has a system webhook for the events "workflow_run" with the secret "sys-secret-1"
    When the workflow "ci.yml" named "CI" is pushed to the repository
    And the mock runner takes the job
    And the mock runner reports the job's result as "success"
    Then the webhook receives "workflow_run" deliveries with the actions "requested, in_progress, completed" in this order
    And every "workflow_run" delivery is signed with the secret "sys-secret-1"
    And the webhooks of "dev/app" are 0

  @gitea
  Scenario: A user who is not a site administrator cannot list the system webhooks
    Given a user "bob"
    When "bob" sends GET "/admin/hooks"
    Then the request is refused with status 403

  @gitea
  Scenario: The admin reads a system webhook back
    Given the admin has a system webhook for the events "push" with the secret "sys-secret-2"
    When the admin reads the system webhook
    Then the response status is 200
    And the answer is the active system webhook for the events "push"

  @gitea
  Scenario: The admin changes a system webhook's events and switches it off
    Given the admin has a system webhook for the events "push" with the secret "sys-secret-3"
    When the admin changes the system webhook to the events "issues, create", inactive
    Then the response status is 200
    And the system webhook reads back with the events "issues, create", inactive

  @gitea
  Scenario: The admin deletes a system webhook
    Given the admin has a system webhook for the events "push" with the secret "sys-secret-4"
    When the admin deletes the system webhook
    Then the response status is 204
    And the system webhook is no longer found


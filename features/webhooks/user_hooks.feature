@webhooks
Feature: A user's own webhooks hear the user's repositories
  A user manages its own webhooks under /user/hooks, as in Gitea 1.27 (scope category user): the same
  Hook, CreateHookOption and EditHookOption as repository hooks, the secret write-only. Gitea fires a
  user's hooks for the events of every repository the user owns; the repositories' own hook lists do not
  show them. Another user's hook is not found through one's own /user/hooks.

  Background:
    Given a user "carol"

  @gitea
  Scenario: A user's webhook is created, listed and read without its secret
    When "carol" creates a webhook of their own with the body
      """
      {"type": "gitea", "active": true, "events": ["workflow_job"],
       "config": {"url": "{receiver}", "content_type": "json", "secret": "user-created-secret-1"}}
      """
    Then the response status is 201
    And the response is the webhook pointed at the receiver
    And the response field "events" lists "workflow_job"
    And the response holds no hook secret
    When "carol" lists their own webhooks
    Then the response status is 200
    And the response is a list of 1 items
    And the response header "X-Total-Count" is "1"
    And the response holds no hook secret
    When "carol" gets the webhook
    Then the response status is 200
    And the response is the webhook pointed at the receiver

  @gitea
  Scenario: A user's webhook is changed and deleted
    Given "carol" has a webhook of their own for the events "push" with the secret "user-edit-secret-1"
    When "carol" edits the webhook with the body
      """
      {"events": ["workflow_run", "workflow_job"], "branch_filter": "main"}
      """
    Then the response status is 200
    And the response field "events" lists "workflow_run"
    And the response field "branch_filter" is "main"
    And the response holds no hook secret
    When "carol" deletes the webhook
    Then the response status is 204
    And the own webhooks of "carol" are 0

  @gitea
  Scenario: A user's webhook with an unknown type is refused with 422 and nothing is stored
    When "carol" creates a webhook of their own with the body
      """
      {"type": "no-such-type", "active": true, "config": {"url": "{receiver}", "content_type": "json"}}
      """
    Then the request is refused with status 422
    And the own webhooks of "carol" are 0

  @gitea
  Scenario: A user's webhook is told of the workflow jobs of the user's repositories
    Given a repository "carol/app"
    And a mock runner registered to "carol/app" with the labels "ubuntu-latest"
    And "carol" has a webhook of their own for the events "workflow_job" with the secret "user-job-secret-1"
    When the workflow "ci.yml" named "CI" is pushed to the repository
    And the mock runner takes the job
    And the mock runner reports the job's result as "success"
    Then the webhook receives "workflow_job" deliveries with the actions "queued, in_progress, completed" in this order
    And every "workflow_job" delivery is signed with the secret "user-job-secret-1"
    And the "completed" "workflow_job" delivery field "repository.full_name" is "{carol/app}"
    And the webhooks of "carol/app" are 0

  @gitea
  Scenario: Another user's webhook is not found through one's own hooks, nor listed
    Given a user "dave"
    And "carol" has a webhook of their own for the events "push" with the secret "user-other-secret-1"
    When "dave" gets the webhook
    Then the request is refused with status 404
    And the own webhooks of "dave" are 0

  @gitea
  Scenario: An anonymous client has no webhooks of its own
    When "an anonymous client" lists their own webhooks
    Then the request is refused with status 401

@webhooks
Feature: Organization webhooks hear every repository of the organization
  An organization's owners manage its webhooks under /orgs/{org}/hooks, as in Gitea 1.27: the same Hook,
  CreateHookOption and EditHookOption as repository hooks, the secret write-only. Gitea fires an
  organization's hooks for the events of every repository the organization owns, and the repositories'
  own hook lists do not show them. Only owners of the organization manage them: a member who is not an
  owner is refused with 403, an anonymous client with 401.

  Background:
    Given a user "alice"
    And an organization "acme" owned by "alice"

  @gitea
  Scenario: An organization webhook is created, listed and read without its secret
    When "alice" creates a webhook on the organization "acme" with the body
      """
      {"type": "gitea", "active": true, "events": ["workflow_run"],
       "config": {"url": "{receiver}", "content_type": "json", "secret": "org-created-secret-1"}}
      """
    Then the response status is 201
    And the response is the webhook pointed at the receiver
    And the response field "events" lists "workflow_run"
    And the response field "active" is true
    And the response holds no hook secret
    When "alice" lists the webhooks of the organization "acme"
    Then the response status is 200
    And the response is a list of 1 items
    And the response header "X-Total-Count" is "1"
    And the response holds no hook secret
    When "alice" gets the webhook
    Then the response status is 200
    And the response is the webhook pointed at the receiver

  @gitea
  Scenario: An organization webhook is changed: only the given fields change
    Given "alice" has a webhook on the organization "acme" for the events "workflow_run" with the secret "org-edit-secret-1"
    When "alice" edits the webhook with the body
      """
      {"active": false, "events": ["workflow_job"]}
      """
    Then the response status is 200
    And the response field "active" is false
    And the response field "events" lists "workflow_job"
    And the response is the webhook pointed at the receiver
    And the response holds no hook secret

  @gitea
  Scenario: A deleted organization webhook is gone
    Given "alice" has a webhook on the organization "acme" for the events "push" with the secret "org-deleted-secret-1"
    When "alice" deletes the webhook
    Then the response status is 204
    And the webhooks of the organization "acme" are 0
    When "alice" gets the webhook
    Then the request is refused with status 404

  @gitea
  Scenario: An organization webhook with an unusable config is refused with 422 and nothing is stored
    When "alice" creates a webhook on the organization "acme" with the body
      """
      {"type": "gitea", "active": true, "config": {"url": "not a url", "content_type": "json"}}
      """
    Then the request is refused with status 422
    And the webhooks of the organization "acme" are 0

  @gitea
  Scenario: An organization webhook is told of the workflow runs of the organization's repositories
    Given a repository "acme/app"
    And a mock runner registered to "acme/app" with the labels "ubuntu-latest"
    And "alice" has a webhook on the organization "acme" for the events "workflow_run" with the secret "org-run-secret-1"
    When the workflow "ci.yml" named "CI" is pushed to the repository
    And the mock runner takes the job
    And the mock runner reports the job's result as "success"
    Then the webhook receives "workflow_run" deliveries with the actions "requested, in_progress, completed" in this order
    And every "workflow_run" delivery is signed with the secret "org-run-secret-1"
    And the "completed" "workflow_run" delivery field "repository.full_name" is "{acme/app}"
    And the webhooks of "acme/app" are 0

  @gitea
  Scenario: Only the organization's owners manage its webhooks
    Given a user "bob"
    And a team "writers" of "acme" with the permission "write"
    And "bob" is in the team "writers" of "acme"
    And "alice" has a webhook on the organization "acme" for the events "push" with the secret "org-guard-secret-1"
    When "bob" lists the webhooks of the organization "acme"
    Then the request is refused with status 403
    When "bob" gets the webhook
    Then the request is refused with status 403
    When "an anonymous client" lists the webhooks of the organization "acme"
    Then the request is refused with status 401

  @gitea
  Scenario: A webhook of another organization is not found through this one
    Given an organization "other" owned by "alice"
    And "alice" has a webhook on the organization "other" for the events "push" with the secret "org-other-secret-1"
    When "alice" gets the webhook through the organization "acme"
    Then the request is refused with status 404

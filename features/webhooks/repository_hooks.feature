@webhooks
Feature: Repository webhooks are managed over REST
  A repository's administrators create, list, read, change and delete its webhooks under
  /repos/{owner}/{repo}/hooks, as in Gitea 1.27. A hook's config carries the delivery URL, the body's
  content type (json or form) and a secret that signs deliveries; the secret is write-only and never
  comes back. As Gitea does, the reference requires config.url and config.content_type, refuses an
  unknown hook type, a content type other than json or form and a URL that is not an absolute http or
  https URL with a host, each with 422 and without storing anything.

  Background:
    Given a repository "dev/app"

  @gitea
  Scenario: A webhook is created and its secret is never returned
    When "dev" creates a webhook on "dev/app" with the body
      """
      {"type": "gitea", "active": true, "events": ["workflow_run", "workflow_job"],
       "config": {"url": "{receiver}", "content_type": "json", "secret": "created-secret-1"}}
      """
    Then the response status is 201
    And the response is the webhook pointed at the receiver
    And the response field "type" is "gitea"
    And the response field "config.content_type" is "json"
    And the response field "events" lists "workflow_run"
    And the response field "events" lists "workflow_job"
    And the response field "active" is true
    And the response holds no hook secret

  @gitea
  Scenario: The webhooks of a repository are listed and read one by one without their secrets
    Given "dev" has a webhook on "dev/app" for the events "push" with the secret "listed-secret-1"
    And "dev" has a webhook on "dev/app" for the events "workflow_run" with the secret "listed-secret-2"
    When "dev" lists the webhooks of "dev/app"
    Then the response status is 200
    And the response is a list of 2 items
    And the response header "X-Total-Count" is "2"
    And the response holds no hook secret
    When "dev" gets the webhook
    Then the response status is 200
    And the response is the webhook pointed at the receiver
    And the response holds no hook secret

  @gitea
  Scenario: A webhook is changed: only the given fields change
    Given "dev" has a webhook on "dev/app" for the events "workflow_run" with the secret "edited-secret-1"
    When "dev" edits the webhook with the body
      """
      {"active": false, "events": ["workflow_job"]}
      """
    Then the response status is 200
    And the response field "active" is false
    And the response field "events" lists "workflow_job"
    And the response is the webhook pointed at the receiver
    And the response holds no hook secret

  @gitea
  Scenario: A deleted webhook is gone
    Given "dev" has a webhook on "dev/app" for the events "push" with the secret "deleted-secret-1"
    When "dev" deletes the webhook
    Then the response status is 204
    And the webhooks of "dev/app" are 0
    When "dev" gets the webhook
    Then the request is refused with status 404

  @gitea
  Scenario Outline: A webhook with an unusable config or type is refused with 422 and nothing is stored
    When "dev" creates a webhook on "dev/app" with the body
      """
      <body>
      """
    Then the request is refused with status 422
    And the webhooks of "dev/app" are 0

    Examples:
      | body                                                                                   |
      | {"type": "gitea", "active": true, "config": {"url": "not a url", "content_type": "json"}} |
      | {"type": "gitea", "active": true, "config": {"url": "http://[::1", "content_type": "json"}} |
      | {"type": "gitea", "active": true, "config": {"content_type": "json"}}                  |
      | {"type": "gitea", "active": true, "config": {"url": "{receiver}", "content_type": "xml"}} |
      | {"type": "no-such-type", "active": true, "config": {"url": "{receiver}", "content_type": "json"}} |

  @gitea
  Scenario: Testing a webhook sends it a signed push delivery of the default branch's head
    Gitea's test ignores the hook's events and sends even to an inactive hook; so does the reference.
    Given "dev" has a webhook on "dev/app" for the events "workflow_run" with the secret "tested-secret-1"
    When "dev" tests the webhook
    Then the response status is 204
    And the webhook receives a "push" delivery of the head of the default branch
    And every "push" delivery is signed with the secret "tested-secret-1"
    And every "push" delivery names its event and has its own delivery id

  @gitea
  Scenario: Only the repository's administrators manage its webhooks
    Given a user "mallory"
    And "dev" has a webhook on "dev/app" for the events "push" with the secret "guarded-secret-1"
    When "mallory" lists the webhooks of "dev/app"
    Then the request is refused with status 403
    When "an anonymous client" lists the webhooks of "dev/app"
    Then the request is refused with status 401

  @gitea
  Scenario: A webhook of another repository is not found through this one
    Given a repository "dev/other"
    And "dev" has a webhook on "dev/app" for the events "push" with the secret "other-secret-1"
    When "dev" gets the webhook through the repository "dev/other"
    Then the request is refused with status 404

@webhooks
Feature: Workflow runs and jobs are announced to repository webhooks
  A repository webhook subscribed to workflow_run receives a delivery when a run is requested, starts
  and completes (action requested, in_progress, completed); one subscribed to workflow_job receives
  one for each status of a job, with the job's REST status as the action (queued, in_progress,
  completed). The payloads have Gitea's shape: workflow_run is the run as the REST API renders it,
  workflow_job the job as the REST API renders it, whose url has no runs/<run> part while run_url
  keeps it. Every delivery names its event in X-Gitea-Event and X-GitHub-Event, carries its own
  delivery id, and is signed: X-Gitea-Signature is the hex HMAC-SHA256 of the JSON payload with the
  hook's secret and X-Hub-Signature-256 the same prefixed with "sha256=". Deliveries come
  asynchronously, so the steps wait for them. A live Gitea must be allowed to deliver to the
  harness's address (its webhook ALLOWED_HOST_LIST), and told it with --webhook-url.

  Background:
    Given a repository "dev/app"
    And a mock runner registered to "dev/app" with the labels "ubuntu-latest"

  @spec @clause_S6_1
  Scenario: A workflow run is announced as requested, in progress and completed
    Given "dev" has a webhook on "dev/app" for the events "workflow_run" with the secret "run-secret-1"
    When the workflow "ci.yml" named "CI" is pushed to the repository
    And the mock runner takes the job
    And the mock runner reports the job's result as "success"
    Then the webhook receives "workflow_run" deliveries with the actions "requested, in_progress, completed" in this order
    And every "workflow_run" delivery is signed with the secret "run-secret-1"
    And every "workflow_run" delivery names its event and has its own delivery id
    And the "completed" "workflow_run" delivery is about the run of "ci.yml"

  @spec @clause_S6_2
  Scenario: A job is announced as queued, in progress and completed with a url without the runs part
    Given "dev" has a webhook on "dev/app" for the events "workflow_job" with the secret "job-secret-1"
    When the workflow "ci.yml" named "CI" is pushed to the repository
    And the mock runner takes the job
    And the mock runner reports the job's result as "success"
    Then the webhook receives "workflow_job" deliveries with the actions "queued, in_progress, completed" in this order
    And every "workflow_job" delivery is signed with the secret "job-secret-1"
    And every "workflow_job" delivery names its event and has its own delivery id
    And every workflow_job delivery has a job url without the runs part and a run url with it
    And the "completed" "workflow_job" delivery is about the run of "ci.yml"

  @gitea @clause_S6_1 @clause_S6_4
  Scenario: The workflow_run payload has Gitea's shape
    Given "dev" has a webhook on "dev/app" for the events "workflow_run" with the secret "shape-secret-1"
    When the workflow "ci.yml" named "CI" is pushed to the repository
    And the mock runner takes the job
    And the mock runner reports the job's result as "failure"
    Then the webhook receives "workflow_run" deliveries with the actions "requested, in_progress, completed" in this order
    And every "workflow_run" delivery body matches the schema "workflow_run_payload"
    And the "completed" "workflow_run" delivery field "workflow_run.status" is "completed"
    And the "completed" "workflow_run" delivery field "workflow_run.conclusion" is "failure"
    And the "completed" "workflow_run" delivery field "workflow.id" is "ci.yml"
    And the "completed" "workflow_run" delivery field "repository.full_name" is "{dev/app}"
    And the "requested" "workflow_run" delivery field "workflow_run.status" is "queued"

  @gitea @clause_S6_2 @clause_S6_4
  Scenario: The workflow_job payload has Gitea's shape
    Given "dev" has a webhook on "dev/app" for the events "workflow_job" with the secret "shape-secret-2"
    When the workflow "ci.yml" named "CI" is pushed to the repository
    And the mock runner takes the job
    And the mock runner reports the job's result as "success"
    Then the webhook receives "workflow_job" deliveries with the actions "queued, in_progress, completed" in this order
    And every "workflow_job" delivery body matches the schema "workflow_job_payload"
    And the "completed" "workflow_job" delivery field "workflow_job.conclusion" is "success"
    And the "in_progress" "workflow_job" delivery field "workflow_job.status" is "in_progress"
    And the "completed" "workflow_job" delivery field "repository.full_name" is "{dev/app}"

  @gitea @clause_S6_2
  Scenario: A hook subscribed only to workflow_job receives no workflow_run delivery
    Given "dev" has a webhook on "dev/app" for the events "workflow_job" with the secret "only-jobs-1"
    When the workflow "ci.yml" named "CI" is pushed to the repository
    And the mock runner takes the job
    And the mock runner reports the job's result as "success"
    Then the webhook receives no "workflow_run" delivery once the "completed" "workflow_job" delivery has arrived

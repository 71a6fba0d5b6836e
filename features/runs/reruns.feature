@runs
Feature: A finished run is rerun, whole, its failed jobs or one job with what needs it, as a new attempt
  POST /repos/{owner}/{repo}/actions/runs/{run}/rerun reruns every job (201 with the run),
  .../rerun-failed-jobs the failed and cancelled ones (201, 400 when there are none) and
  .../jobs/{job_id}/rerun one job (201 with the job, 404 for a job not of the run). Every job that needs
  a rerun job reruns too and waits blocked behind it; the other jobs keep their results; rerun jobs are
  handed to runners again. A run that is not done is refused with 400, and a rerun whose attempt another
  rerun opened first with 409. Each rerun opens the next
  attempt: run_attempt counts them, previous_attempt_url names the one before, and GET
  .../attempts/{attempt} and .../attempts/{attempt}/jobs answer an earlier attempt as it ended
  (services/actions/rerun.go, routers/api/v1/repo/action.go of Gitea 1.27).

  Background:
    Given a mock runner registered to "dev/app" with the labels "linux"
    And the workflow "pipeline.yml" is pushed to the repository with
      """
      on: push
      jobs:
        build:
          runs-on: linux
          steps:
            - run: echo build
        test:
          runs-on: linux
          needs: build
          steps:
            - run: echo test
        lint:
          runs-on: linux
          steps:
            - run: echo lint
      """

  @gitea
  Scenario: A whole rerun queues every job again as attempt 2, the dependant blocked behind its need
    Given the mock runner has run the jobs of "pipeline.yml" with the results "lint: failure"
    When "dev" reruns the run of "pipeline.yml"
    Then the response status is 201
    And the response field "run_attempt" is 2
    And the jobs of the run of "pipeline.yml" are "build: queued, test: blocked, lint: queued"
    And the run of "pipeline.yml" is in attempt 2

  @gitea
  Scenario: Reruns sent at once open one attempt; the others are refused
    Given the mock runner has run the jobs of "pipeline.yml" with the results "lint: failure"
    When "dev" sends 3 reruns of the run of "pipeline.yml" at once
    Then one of the reruns sent at once is accepted and the others are refused with 409 or 400
    And the run of "pipeline.yml" is in attempt 2

  @gitea
  Scenario: Rerunning a job reruns the jobs that need it and leaves the others
    Given the mock runner has run the jobs of "pipeline.yml" with the results "lint: success"
    When "dev" reruns the job "build" of the run of "pipeline.yml"
    Then the response status is 201
    And the response field "name" is "build"
    And the jobs of the run of "pipeline.yml" are "build: queued, test: blocked, lint: success"

  @gitea
  Scenario: A rerun job is handed to a runner again
    Given the mock runner has run the jobs of "pipeline.yml" with the results "lint: failure"
    And "dev" has rerun the run of "pipeline.yml"
    When the mock runner takes the job
    Then the task handed out is the job "build"

  @gitea
  Scenario: Rerunning the failed jobs requeues only them
    Given the mock runner has run the jobs of "pipeline.yml" with the results "lint: failure"
    When "dev" reruns the failed jobs of the run of "pipeline.yml"
    Then the response status is 201
    And the jobs of the run of "pipeline.yml" are "build: success, test: success, lint: queued"

  @gitea
  Scenario: A run without failed jobs has nothing to rerun
    Given the mock runner has run the jobs of "pipeline.yml" with the results "lint: success"
    When "dev" reruns the failed jobs of the run of "pipeline.yml"
    Then the request is refused with status 400
    And the error message mentions "no failed jobs"

  @gitea
  Scenario: A run that is not done is not rerun
    When "dev" reruns the run of "pipeline.yml"
    Then the request is refused with status 400
    And the error message mentions "not done"
    And the jobs of the run of "pipeline.yml" are "build: queued, test: blocked, lint: queued"
    And the run of "pipeline.yml" is in attempt 1

  @gitea
  Scenario: An earlier attempt is read as it ended
    Given the mock runner has run the jobs of "pipeline.yml" with the results "lint: failure"
    And "dev" has rerun the run of "pipeline.yml"
    When "dev" reads attempt 1 of the run of "pipeline.yml"
    Then the response status is 200
    And the response field "run_attempt" is 1
    And the response field "conclusion" is "failure"

  @gitea
  Scenario: The jobs of an earlier attempt keep their results
    Given the mock runner has run the jobs of "pipeline.yml" with the results "lint: failure"
    And "dev" has rerun the run of "pipeline.yml"
    When "dev" lists the jobs of attempt 1 of the run of "pipeline.yml"
    Then the response status is 200
    And the listed jobs are "build: success, test: success, lint: failure"

  @gitea
  Scenario: An attempt the run has not reached is not found
    Given the mock runner has run the jobs of "pipeline.yml" with the results "lint: success"
    When "dev" reads attempt 2 of the run of "pipeline.yml"
    Then the request is refused with status 404

  @gitea
  Scenario: Who may only read the repository may not rerun its runs
    Given a user "bob"
    And the mock runner has run the jobs of "pipeline.yml" with the results "lint: failure"
    When "bob" reruns the run of "pipeline.yml"
    Then the request is refused with status 403
    And the run of "pipeline.yml" is in attempt 1

  @gitea
  Scenario: A job of another run is not found through this run
    Given the workflow "other.yml" is pushed to the repository with
      """
      on: push
      jobs:
        solo:
          runs-on: linux
          steps:
            - run: echo solo
      """
    And the mock runner has run the jobs of "pipeline.yml" with the results "lint: success"
    When "dev" reruns the job "solo" of "other.yml" through the run of "pipeline.yml"
    Then the request is refused with status 404

  @gitea
  Scenario: The runs of one workflow are listed apart from the others
    Given the workflow "other.yml" is pushed to the repository with
      """
      on: push
      jobs:
        solo:
          runs-on: linux
          steps:
            - run: echo solo
      """
    When "dev" lists the runs of the workflow "other.yml"
    Then the response status is 200
    And the listed runs are the 1 of "other.yml"

  @gitea
  Scenario: A workflow the repository does not have has no runs to list
    When "dev" lists the runs of the workflow "missing.yml"
    Then the request is refused with status 404

@runs
Feature: A finished run is deleted with its jobs and artifacts; a run still going is not
  DELETE /repos/{owner}/{repo}/actions/runs/{run} removes a run that is done, together with its jobs
  and the artifacts its jobs uploaded (204). A run that is still queued or in progress is refused
  with 400 and stays as it was.

  Background:
    Given a mock runner has taken a job of a new repository

  @gitea @clause_S4_4_runs_jobs_repo
  Scenario: A finished run is deleted with its jobs and artifacts
    Given the job has uploaded the artifact "report" containing "done"
    And the job has finished with result "success"
    When the repository's owner deletes the run of the job
    Then the response status is 204
    And the run of the job, its jobs and its artifacts are gone

  @gitea @clause_S4_4_runs_jobs_repo
  Scenario: A run in progress cannot be deleted
    When the repository's owner deletes the run of the job
    Then the request is refused with status 400
    And the run of the job still exists

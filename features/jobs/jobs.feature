@jobs
Feature: The jobs of a run are listed and read over REST, with their labels, needs and logs
  Each job of a workflow becomes a job of the run with the runs-on labels as its labels. A job
  that needs another waits until that one has succeeded. Jobs are listed per run and per
  repository as an object {jobs, total_count}; a job's log is the text its runner sent.

  Background:
    Given a repository "dev/app"
    And a mock runner registered to "dev/app" with the labels "ubuntu-latest,linux"
    And the workflow "pipeline.yml" is pushed to the repository with
      """
      name: pipeline
      on: [push]
      jobs:
        compile:
          runs-on: [ubuntu-latest, linux]
          steps:
            - run: echo compiling
        package:
          needs: compile
          runs-on: ubuntu-latest
          steps:
            - run: echo packaging
      """

  @spec @clause_S2_3_workflow_job @clause_S4_4_runs_jobs_repo
  Scenario: The jobs of a run are listed with their labels
    When the repository's owner lists the jobs of the run of "pipeline.yml"
    Then the response status is 200
    And the REST job list holds exactly the jobs "compile,package" with a total_count of 2
    And the job "compile" has the labels "ubuntu-latest,linux"
    And the job "package" has the labels "ubuntu-latest"
    And every listed job belongs to the run of "pipeline.yml"

  @gitea @clause_S2_3_workflow_job
  Scenario: A job that needs another is not handed out before that one has succeeded
    Blocked jobs show as "waiting" up to Gitea 1.26 and "pending" in later versions; both are accepted.
    Then the job "compile" has status "queued"
    And the job "package" has status "waiting" or "pending"
    When the mock runner takes the job
    Then the task handed out is the job "compile"
    When the mock runner reports the job's result as "success"
    Then the job "compile" has completed with conclusion "success"
    And the job "package" has status "queued"
    When the mock runner takes the job
    Then the task handed out is the job "package"

  @spec @clause_S4_3_jobs_scopes
  Scenario: The jobs of a repository are listed at repository and at user scope
    When the repository's owner lists the jobs of the repository
    Then the response status is 200
    And the REST job list holds exactly the jobs "compile,package" with a total_count of 2
    When the repository's owner lists the jobs at user scope
    Then the response status is 200
    And the REST job list includes the jobs "compile,package"

  @gitea @clause_S4_4_runs_jobs_repo
  Scenario: One job is read by its id
    When the repository's owner gets the job "compile"
    Then the response status is 200
    And the REST job is "compile" of the run of "pipeline.yml"

  @gitea @clause_S4_4_runs_jobs_repo
  Scenario: A job is not found through another repository
    Given the repository's owner has a second repository
    When the repository's owner gets the job "compile" through the second repository
    Then the request is refused with status 404

  @gitea @clause_S4_4_runs_jobs_repo
  Scenario: A job's log holds the lines its runner sent, in order
    When the mock runner takes the job
    And the mock runner sends the log lines "first line,second line,third line"
    And the mock runner reports the job's result as "success"
    And the repository's owner gets the log of the job "compile"
    Then the response status is 200
    And the log holds the lines "first line,second line,third line" in that order

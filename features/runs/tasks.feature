@runs
Feature: The tasks of a repository show runs in the shape of specification section 2.2
  /repos/{owner}/{repo}/actions/tasks lists the tasks runners have taken as an object
  {workflow_runs, total_count}. Each entry has the fields of section 2.2: workflow_id is a string
  (the workflow's file name), url is the relative path of the run in the web interface, times are
  ISO 8601 with a UTC offset, and status is the internal status, "success" or "failure" once done.

  Background:
    Given a repository "dev/app"
    And a mock runner registered to "dev/app" with the labels "ubuntu-latest"
    And the workflow "build.yml" named "Build" is pushed to the repository
    And the mock runner has taken the job

  @spec @clause_S2_2_list @clause_S2_2_id @clause_S2_2_name @clause_S2_2_head_branch @clause_S2_2_head_sha @clause_S2_2_run_number @clause_S2_2_event @clause_S2_2_display_title @clause_S2_2_workflow_id @clause_S2_2_url @clause_S2_2_created_at @clause_S2_2_updated_at @clause_S2_2_run_started_at
  Scenario: A taken task is listed with every field of section 2.2
    When the repository's owner lists the tasks
    Then the response status is 200
    And the task list holds 1 task with a total_count of 1
    And the task is named "Build" with workflow_id "build.yml" and event "push"
    And the task is on the default branch at the pushed commit with run number 1
    And the task's url is a relative path that names the run
    And the task's created_at, updated_at and run_started_at are ISO 8601 with a UTC offset
    And the task has a non-empty display_title

  @spec @clause_S2_2_status
  Scenario Outline: A finished task's status is the result the runner reported
    When the mock runner reports the job's result as "<result>"
    And the repository's owner lists the tasks
    Then the task has status "<result>"

    Examples:
      | result  |
      | success |
      | failure |

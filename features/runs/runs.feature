@runs
Feature: Workflow runs are created on push and listed over REST
  A push that adds or changes a workflow under .gitea/workflows or .github/workflows on which "push"
  triggers starts a run. A run takes its name from the workflow's name: when one is set, otherwise
  from the workflow's file name; the name is part of the run shape of section 2.2, which the forge
  serves for the tasks runners have taken (Gitea's ActionWorkflowRun has no name field). Runs are listed as an object {workflow_runs, total_count}; a run's
  id is unique across the service and its run_number counts the runs of its repository.

  Background:
    Given a repository "dev/app"
    And a mock runner registered to "dev/app" with the labels "ubuntu-latest"

  @spec @clause_S2_2_name @clause_S2_2_name_rule @clause_S2_2_event @clause_S2_2_head_branch @clause_S2_2_head_sha
  Scenario: A pushed workflow with a name starts a run of that name
    When the workflow "nightly.yml" named "Nightly build" is pushed to the repository
    Then the repository has exactly 1 workflow run
    And the run of "nightly.yml" has event "push" on the default branch at the pushed commit
    When the mock runner takes the job
    Then the task of "nightly.yml" is named "Nightly build"

  @spec @clause_S2_2_name_rule
  Scenario: A pushed workflow without a name starts a run named after its file
    When the workflow "unnamed.yml" without a name is pushed to the repository
    And the mock runner takes the job
    Then the task of "unnamed.yml" is named "unnamed.yml"

  @spec @clause_S2_2_list @clause_S4_4_runs_jobs_repo
  Scenario: The runs of a repository are listed as an object with workflow_runs and total_count
    Every push runs every workflow of the pushed commit that "push" triggers: the workflow's own
    commit and a later commit of another file make two runs.
    Given the workflow "ci.yml" named "CI" is pushed to the repository
    And a commit adding "notes.txt" is pushed to the repository
    When the repository's owner lists the workflow runs
    Then the response status is 200
    And the REST run list holds 2 runs with a total_count of 2

  @spec @clause_S2_2_id @clause_S2_2_run_number
  Scenario: Run numbers count per repository while run ids are unique across the service
    Given another repository has already had a workflow run
    And the workflow "ci.yml" named "CI" is pushed to the repository
    And a commit adding "notes.txt" is pushed to the repository
    Then the runs of the repository have the run numbers 1 and 2
    And the run of the other repository has the run number 1
    And the ids of the three runs are distinct

  @gitea @clause_S4_4_runs_jobs_repo
  Scenario: One run is read by its id in the shape of Gitea 1.27
    Given the workflow "ci.yml" named "CI" is pushed to the repository
    When the repository's owner gets the run of "ci.yml" by its id
    Then the response status is 200
    And the REST run is the run of "ci.yml" with status "queued"

  @gitea @clause_S4_4_runs_jobs_repo
  Scenario: A run of another repository is not found through this repository
    Given another repository has already had a workflow run
    When the repository's owner gets the other repository's run through this repository
    Then the request is refused with status 404

  @gitea @clause_S2_2_status
  Scenario Outline: A run moves from queued to in progress to completed with the runner's conclusion
    Given the workflow "ci.yml" named "CI" is pushed to the repository
    Then the run of "ci.yml" has status "queued"
    When the mock runner takes the job
    Then the run of "ci.yml" has status "in_progress"
    When the mock runner reports the job's result as "<result>"
    Then the run of "ci.yml" has completed with conclusion "<result>"

    Examples:
      | result  |
      | success |
      | failure |

  @spec @clause_S4_3_runs_scopes
  Scenario: The runs of a user's repositories are listed at user scope and at global scope
    Given the workflow "ci.yml" named "CI" is pushed to the repository
    When the repository's owner lists the workflow runs at user scope
    Then the response status is 200
    And the REST run list includes the run of "ci.yml"
    When the administrator lists the workflow runs at global scope
    Then the response status is 200
    And the REST run list includes the run of "ci.yml"

  @gitea @clause_S4_4_runs_jobs_repo
  Scenario: A run that is not done cannot be deleted
    Given the workflow "ci.yml" named "CI" is pushed to the repository
    When the repository's owner deletes the run of "ci.yml"
    Then the request is refused with status 400
    And the run of "ci.yml" has status "queued"

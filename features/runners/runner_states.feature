@runners
Feature: A runner is disabled and enabled while it keeps calling, as specification section 3 says
  A disabled runner stays registered and keeps calling the instance, so it stays online; it is
  handed no new task while a job it could run waits, and a task it was already running still
  finishes. Enabled again, it takes the waiting job. The runner's status is online while it calls
  within the offline window (one minute in Gitea and the reference) and busy while it reports work
  on a task (UpdateTask or UpdateLog within the idle window, ten seconds in both).

  A poll for a task is FetchTask with tasks_version 0: the server looks at the waiting jobs on every
  such call and assigns one in the call, so a few polls made once the waiting run exists show that
  a disabled runner is handed nothing.

  Background:
    Given a repository "dev/app"
    And a mock runner registered to "dev/app" with the labels "ubuntu-latest"

  @spec @clause_S3_runner_disable @clause_S2_3_runner
  Scenario: A disabled runner stays registered and online
    When the repository's owner disables the mock runner
    Then the response status is 200
    And the response field "disabled" is true
    When the mock runner polls for a task once
    Then the mock runner was given no task
    And the mock runner is registered, online, not busy and disabled

  @spec @clause_S3_runner_disable @clause_S3_runner_enable
  Scenario: A disabled runner gets no task while a job waits, and takes it once enabled again
    Given the mock runner has been disabled
    And the workflow "ci.yml" named "CI" is pushed to the repository
    When the mock runner polls for a task while the run of "ci.yml" waits
    Then the mock runner was given no task
    And the run of "ci.yml" has status "queued"
    When the repository's owner enables the mock runner
    Then the response status is 200
    And the response field "disabled" is false
    When the mock runner takes the job
    Then the mock runner holds a job of the run of "ci.yml"
    And the run of "ci.yml" has status "in_progress"

  @spec @clause_S3_runner_disable
  Scenario: A task the runner was running when it was disabled still finishes
    Given the workflow "ci.yml" named "CI" is pushed to the repository
    And the mock runner has taken the job
    When the repository's owner disables the mock runner
    And the mock runner sends the log lines "still working"
    And the mock runner reports the job's result as "success"
    Then the runner call succeeds
    And the run of "ci.yml" has completed with conclusion "success"

  @spec @clause_S3_runner_disable
  Scenario: A disabled runner is not handed the next job after finishing its task
    Given the workflow "first.yml" named "First" is pushed to the repository
    And the mock runner has taken the job
    And the mock runner has been disabled
    When the mock runner reports the job's result as "success"
    And the workflow "second.yml" named "Second" is pushed to the repository
    And the mock runner polls for a task while the run of "second.yml" waits
    Then the mock runner was given no task
    And the run of "second.yml" has status "queued"

  @gitea @clause_S2_3_runner
  Scenario: A runner that only polls is online and not busy
    When the mock runner polls for a task once
    Then the mock runner is registered, online, not busy and enabled

  @gitea @clause_S2_3_runner
  Scenario: A runner is busy while it reports work on a task
    Given the workflow "ci.yml" named "CI" is pushed to the repository
    And the mock runner has taken the job
    When the mock runner sends the log lines "working"
    Then the mock runner is registered, online, busy and enabled

  @reference @reference_only @destructive @clause_S2_3_runner @clause_S3_runner_disable
  Scenario: A silent runner goes offline after the offline window and is online again once it calls
    The reference's offline window is 60 seconds, as Gitea's; its clock is moved through the
    reference-only clock hook. A disabled runner goes offline the same way: disabling does not.
    Moving the instance's clock is @destructive: on a shared live server only with --allow-destructive.
    Given the mock runner has been disabled
    When the mock runner polls for a task once
    And the reference clock moves forward by 120 seconds
    Then the mock runner is registered, offline, not busy and disabled
    When the mock runner polls for a task once
    Then the mock runner is registered, online, not busy and disabled

  @spec @clause_S3_runner_disable @clause_S3_runner_enable
  Scenario: The mock runner daemon idles while its runner is disabled and runs the job once enabled
    The daemon is the mock runner as a whole (declare, poll, execute the job's steps on the host,
    stream logs, report), started with the scenario runner's .runner file.
    Given the mock runner has been disabled
    And the workflow "ci.yml" named "CI" is pushed to the repository
    And the run of "ci.yml" waits for a runner
    When the mock runner daemon runs once, waiting at most 1 seconds for a task
    Then the daemon took no task
    And the run of "ci.yml" has status "queued"
    When the repository's owner enables the mock runner
    And the mock runner daemon runs once, waiting at most 30 seconds for a task
    Then the daemon ran a task to success
    And the run of "ci.yml" has completed with conclusion "success"

  @spec @clause_S3_runner_disable @clause_S3_runner_enable @clause_S1_runners
  Scenario Outline: At <kind> scope a disabled runner stays online, gets no task while a job waits, and takes it once enabled
    The runner is registered with the scope's registration token and a label of its own, and
    switched off and on at that scope by whoever manages it: the administrator for the instance,
    the user for the user scope, the organization's owner, the repository's owner.
    Given an organization "acme" owned by "dev"
    And the mock runner of "<repo>" is registered at <scope>
    And the mock runner has been disabled
    And the workflow "ci.yml" named "CI" is pushed to the repository
    When the mock runner polls for a task while the run of "ci.yml" waits
    Then the mock runner was given no task
    And the mock runner is registered, online, not busy and disabled
    And the run of "ci.yml" has status "queued"
    When the manager of the runner's scope enables the mock runner
    Then the response status is 200
    And the response field "disabled" is false
    When the mock runner takes the job
    Then the mock runner holds a job of the run of "ci.yml"
    And the run of "ci.yml" has status "in_progress"

    Examples:
      | kind         | scope                | repo     |
      | user         | user "dev"           | dev/app  |
      | organization | organization "acme"  | acme/app |
      | repository   | repository "dev/app" | dev/app  |

    @destructive
    Examples: an instance runner is instance-wide state (on a live target only with --allow-destructive)
      | kind         | scope                | repo     |
      | instance     | the instance         | dev/app  |

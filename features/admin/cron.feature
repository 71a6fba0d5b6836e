@admin
Feature: A site administrator lists and runs the cron tasks
  GET /admin/cron lists the instance's maintenance tasks (Gitea's Cron: name, schedule, the next and the
  last run, how often it has run), paged, to site administrators only. POST /admin/cron/{task} runs one
  now (204); a name no task has is 404. Running a task counts: its exec_times grows by one and its last
  run is set.

  @gitea
  Scenario: The admin lists the tasks with their schedules
    When the admin lists the cron tasks
    Then the response status is 200
    And the cron task "cleanup_actions" is listed with a schedule

  @gitea @destructive
  Scenario: Running a task counts as one more run
    Given the admin notes how often the cron task "cleanup_actions" has run
    When the admin runs the cron task "cleanup_actions"
    Then the response status is 204
    And the cron task "cleanup_actions" has run once more, just now

  @gitea
  Scenario: A task nobody has is not found
    When the admin runs the cron task "no_such_task"
    Then the request is refused with status 404

  @gitea
  Scenario: A user who is not a site administrator cannot list the tasks
    Given a user "bob"
    When "bob" sends GET "/admin/cron"
    Then the request is refused with status 403

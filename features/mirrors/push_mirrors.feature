@mirrors
Feature: A repository pushes every branch to its push mirrors, whose passwords never come back
  GET/POST /repos/{owner}/{repo}/push_mirrors, GET/DELETE .../push_mirrors/{name} and POST
  .../push_mirrors-sync (Gitea 1.27, repository administrators only). A mirror (CreatePushMirrorOption:
  remote_address, remote_username, remote_password, interval, sync_on_commit) is answered as PushMirror
  with a generated remote_name ("remote_mirror_..."), the address without its user info and the interval
  as Go prints a duration; the password is never answered. The interval is 0 or at least 10 minutes (400
  otherwise); an address that is not http(s) is refused with 400, a local path or a host the migrations
  allow-list refuses with 401 "Permission denied" (IsMigrateURLAllowed). A sync pushes every ref to the
  remote (git push --mirror) and records last_update and last_error. The scenarios push to another
  repository of the target over its clone URL, so a Gitea target needs [migrations] ALLOW_LOCALNETWORKS.

  Background:
    Given a repository "alice/demo"
    And an empty repository "alice/backup"

  @gitea
  Scenario: An administrator adds a push mirror and its password is never answered
    When "alice" adds a push mirror of "alice/demo" to "alice/backup" with her token
    Then the response status is 200
    And the push mirror pushes to the clone URL of "alice/backup"
    And the response field "interval" is "8h0m0s"
    And the response field "sync_on_commit" is true
    And the push mirror is of the repository "alice/demo"
    And the answer never shows the token of "alice"

  @gitea
  Scenario: A sync pushes every branch and tag to the mirror
    Given the branch "main" of "alice/demo" has 1 more commits
    And the repository "alice/demo" has a branch "feature"
    And "alice" created the tag "v1" in "alice/demo" with the message "First"
    And "alice" added a push mirror of "alice/demo" to "alice/backup" with her token
    When "alice" syncs the push mirrors of "alice/demo"
    Then the response status is 200
    And the branch "main" of "alice/backup" points at the head of the branch "main" of "alice/demo"
    And Git lists the same branches and tags over smart HTTP for "alice/backup" as for "alice/demo"

  @gitea
  Scenario: A mirror that syncs on commit follows a new commit by itself
    Given "alice" added a push mirror of "alice/demo" to "alice/backup" with her token
    When "alice" commits the file "news.txt" to "alice/demo"
    Then the response status is 201
    And the branch "main" of "alice/backup" soon points at the head of the branch "main" of "alice/demo"

  @reference
  Scenario: A sync that the remote refuses is recorded on the mirror
    Gitea records the failure in last_error too, but answers 500 "error occurred when syncing push mirror
    <name>"; the reference answers 400 with that message (a remote's refusal is no server error).
    Given "alice" added a push mirror of "alice/demo" to "alice/backup" with a wrong password
    When "alice" syncs the push mirrors of "alice/demo"
    Then the request is refused with status 400
    And the push mirror of "alice/demo" records its last error
    And the repository "alice/backup" is still empty

  @gitea
  Scenario: The mirrors are listed and read by remote name without their passwords
    Given "alice" added a push mirror of "alice/demo" to "alice/backup" with her token
    When "alice" lists the push mirrors of "alice/demo"
    Then the response status is 200
    And the response is a list of 1 items
    And the push mirror pushes to the clone URL of "alice/backup"
    And the answer never shows the token of "alice"

  @gitea
  Scenario: A deleted push mirror is gone
    Given "alice" added a push mirror of "alice/demo" to "alice/backup" with her token
    When "alice" deletes the push mirror of "alice/demo"
    Then the response status is 204
    And the push mirror of "alice/demo" is gone

  @gitea
  Scenario Outline: Only the repository's administrators manage its push mirrors
    Given "bob" is a collaborator of "alice/demo" with the permission "<permission>"
    When "bob" lists the push mirrors of "alice/demo"
    Then the request is refused with status 403

    Examples:
      | permission |
      | read       |
      | write      |

  @gitea
  Scenario Outline: An interval below ten minutes or not a Go duration is refused: "<interval>"
    When "alice" adds a push mirror of "alice/demo" to "https://example.com/x.git" every "<interval>"
    Then the request is refused with status 400
    And "alice/demo" has no push mirror

    Examples:
      | interval |
      | 5m       |
      | soon     |
      | 8        |

  @gitea
  Scenario Outline: Remote addresses Gitea refuses: <address>
    When "alice" adds a push mirror of "alice/demo" to "<address>" every "8h"
    Then the request is refused with status <status>
    And "alice/demo" has no push mirror

    Examples:
      | address                             | status |
      | ssh://git@example.com/x.git         | 400    |
      | file:///etc                         | 401    |
      | /srv/git/private.git                | 401    |
      | http://169.254.169.254/latest/x.git | 401    |
      | http://10.0.0.1/x.git               | 401    |

  # Periodic syncs: Gitea's update_mirrors task (every 10 minutes) pushes the mirrors whose interval has
  # passed since their last sync (a new mirror has never synced, so it is due); an interval of 0 turns
  # periodic syncs off. Gitea queues the pushes, so the checks wait for them; a mirror that must stay
  # behind is checked once another mirror pushed by the same run of the task has arrived.

  @gitea @destructive
  Scenario: The update_mirrors task pushes a mirror whose interval has passed
    Given the branch "main" of "alice/demo" has 1 more commits
    And "alice" added a push mirror of "alice/demo" to "alice/backup" every "10m", not syncing on commit
    When the admin runs the cron task "update_mirrors"
    Then the response status is 204
    And the branch "main" of "alice/backup" soon points at the head of the branch "main" of "alice/demo"

  @gitea @destructive
  Scenario: A mirror synced less than its interval ago is not pushed by the task
    Given an empty repository "alice/second"
    And "alice" added a push mirror of "alice/demo" to "alice/backup" every "10m", not syncing on commit
    And the admin has run the cron task "update_mirrors" and the push mirror of "alice/demo" has synced
    And the branch "main" of "alice/demo" has 1 more commits
    And "alice" added a push mirror of "alice/demo" to "alice/second" every "10m", not syncing on commit
    When the admin runs the cron task "update_mirrors"
    Then the branch "main" of "alice/second" soon points at the head of the branch "main" of "alice/demo"
    And the branch "main" of "alice/backup" does not point at the head of the branch "main" of "alice/demo"

  @gitea @destructive
  Scenario: A mirror with an interval of 0 is never pushed by the task
    Given an empty repository "alice/second"
    And "alice" added a push mirror of "alice/demo" to "alice/backup" every "0", not syncing on commit
    And "alice" added a push mirror of "alice/demo" to "alice/second" every "10m", not syncing on commit
    When the admin runs the cron task "update_mirrors"
    Then the branch "main" of "alice/second" soon points at the head of the branch "main" of "alice/demo"
    And the repository "alice/backup" is still empty

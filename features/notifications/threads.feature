@notifications
Feature: Notification threads made by what happens to issues, pull requests and releases
  GET/PUT /notifications, GET /notifications/new, GET/PATCH /notifications/threads/{id} and GET/PUT
  /repos/{owner}/{repo}/notifications (Gitea 1.27). What happens to an issue or pull request (opened,
  commented, reviewed, closed, reopened, merged) reaches its explicit subscribers, the repository's watchers
  and its participants (the poster, the commenters), never the actor nor whoever unsubscribed; an assignment
  reaches the assignee, a review request the reviewer, a mention the mentioned user, a published release the
  repository's watchers. One thread per user and issue: news sets a read thread unread again. Listings show
  unread and pinned threads unless "all" or "status-types" says otherwise; marking answers 205 with the
  threads changed. A thread is its user's own (403 for others, a site administrator may read it); a thread of
  a repository the user can no longer read is not shown.

  Background:
    Given a repository "dev/app"
    And a user "bob"
    And a user "carol"

  @gitea
  Scenario: Opening an issue tells the repository's watchers, not the one who opened it
    When "bob" opens the issue "Crash" in "dev/app"
    Then the response status is 201
    And "dev" has an unread notification thread about "Crash"
    And "bob" has no notification threads
    And "carol" has no notification threads

  @gitea
  Scenario: A thread names its issue, its repository and where to read it
    Given "bob" opened the issue "Crash" in "dev/app"
    When "dev" lists their notification threads
    Then the response status is 200
    And the threads listed are about "Crash"
    And the thread about "Crash" is a "Issue" of issue 1 of "dev/app" in the state "open"
    And the thread about "Crash" is unread and unpinned
    And the response header "X-Total-Count" is "1"

  @gitea
  Scenario: A comment tells the issue's poster and points at the comment
    Given "bob" opened the issue "Crash" in "dev/app"
    When "dev" comments "Which version?" on issue 1 of "dev/app"
    Then the response status is 201
    And "bob" has an unread notification thread about "Crash"
    And "carol" has no notification threads

  @gitea
  Scenario: The latest comment of the issue is in the thread
    Given "bob" opened the issue "Crash" in "dev/app"
    And "dev" commented "Which version?" on issue 1 of "dev/app"
    When "bob" lists their notification threads
    Then the response status is 200
    And the thread about "Crash" points at the last comment of issue 1 of "dev/app"

  @gitea
  Scenario: A mentioned user is told, though it follows nothing
    Given "bob" opened the issue "Crash" in "dev/app"
    When "dev" comments on issue 1 of "dev/app" mentioning "carol"
    Then the response status is 201
    And "carol" has an unread notification thread about "Crash"

  @gitea
  Scenario: The assignee is told
    Given "carol" is a collaborator of "dev/app" with the permission "write"
    And "dev" opened the issue "Crash" in "dev/app"
    When "dev" assigns "carol" to issue 1 of "dev/app"
    Then the response status is 201
    And "carol" has an unread notification thread about "Crash"

  @gitea
  Scenario: Whoever unsubscribed from the issue is not told
    Given "bob" opened the issue "Crash" in "dev/app"
    And "bob" unsubscribed from issue 1 of "dev/app"
    When "dev" comments "Fixed?" on issue 1 of "dev/app"
    Then the response status is 201
    And "bob" has no notification threads

  @gitea
  Scenario: A subscriber of the issue is told of its closing
    Given "dev" opened the issue "Crash" in "dev/app"
    And "carol" subscribed to issue 1 of "dev/app"
    And "dev" edited issue 1 of "dev/app" with the body
      """
      {"state": "closed"}
      """
    When "carol" lists their notification threads
    Then the response status is 200
    And the thread about "Crash" is a "Issue" of issue 1 of "dev/app" in the state "closed"

  @gitea
  Scenario: A merged pull request's thread says merged
    Given "carol" is a collaborator of "dev/app" with the permission "write"
    And the repository "dev/app" has the branch "fix" changing "README.md" to "fixed"
    And "carol" opened a pull request of "fix" into "main" in "dev/app"
    And "dev" merged pull request 1 of "dev/app"
    When "carol" lists their notification threads
    Then the response status is 200
    And the thread about "Merge fix" is a "Pull" of issue 1 of "dev/app" in the state "merged"

  @gitea
  Scenario: The reviewer asked for a review is told
    Given "carol" is a collaborator of "dev/app" with the permission "write"
    And "bob" is a collaborator of "dev/app" with the permission "write"
    And the repository "dev/app" has the branch "fix" changing "README.md" to "fixed"
    And "carol" opened a pull request of "fix" into "main" in "dev/app"
    When "carol" requests a review of pull request 1 of "dev/app" from "bob"
    Then the response status is 201
    And "bob" has an unread notification thread about "Merge fix"

  @gitea
  Scenario: A submitted review tells the pull request's poster
    Given "carol" is a collaborator of "dev/app" with the permission "write"
    And the repository "dev/app" has the branch "fix" changing "README.md" to "fixed"
    And "carol" opened a pull request of "fix" into "main" in "dev/app"
    When "dev" reviews pull request 1 of "dev/app" with the body
      """
      {"event": "APPROVED", "body": "Looks right"}
      """
    Then the response status is 200
    And "carol" has an unread notification thread about "Merge fix"

  @gitea
  Scenario: A published release tells the repository's watchers, not its publisher
    Given "bob" is watching "dev/app"
    When "dev" creates a release in "dev/app" with the body
      """
      {"tag_name": "v1.0", "name": "First"}
      """
    Then the response status is 201
    And "bob" has an unread notification thread about "First"
    And "dev" has no notification threads

  @gitea
  Scenario: A thread of a repository the user can no longer read is not shown
    Given a private repository "dev/secret"
    And "bob" is a collaborator of "dev/secret" with the permission "read"
    And "bob" is watching "dev/secret"
    And "dev" opened the issue "Leak" in "dev/secret"
    When "dev" removes the collaborator "bob" from "dev/secret"
    Then the response status is 204
    And "bob" has no notification threads

  @gitea
  Scenario: Marking the threads read answers the threads changed, and a new comment makes them unread again
    Given "bob" opened the issue "Crash" in "dev/app"
    And "dev" marked the notification thread about "Crash" as read
    And "bob" commented "Still there" on issue 1 of "dev/app"
    When "dev" lists their notification threads
    Then the response status is 200
    And the thread about "Crash" is unread and unpinned

  @gitea
  Scenario: Marking every unread thread read answers 205 with them
    Given "bob" opened the issue "Crash" in "dev/app"
    And "bob" opened the issue "Leak" in "dev/app"
    When "dev" marks their notification threads as read
    Then the response status is 205
    And the threads listed are about "Leak, Crash"
    And the thread about "Crash" is read and unpinned

  @gitea
  Scenario: A pinned thread is not marked read unless asked for
    Given "bob" opened the issue "Crash" in "dev/app"
    And "bob" opened the issue "Leak" in "dev/app"
    And "dev" marked the notification thread about "Crash" as pinned
    When "dev" marks their notification threads as read
    Then the response status is 205
    And the threads listed are about "Leak"

  @gitea
  Scenario: Pinned threads are marked when their status is named
    Given "bob" opened the issue "Crash" in "dev/app"
    And "dev" marked the notification thread about "Crash" as pinned
    When "dev" marks their notification threads with "status-types=pinned&to-status=unread"
    Then the response status is 205
    And the thread about "Crash" is unread and unpinned

  @gitea
  Scenario: Read threads are listed only when asked for
    Given "bob" opened the issue "Crash" in "dev/app"
    And "bob" opened the issue "Leak" in "dev/app"
    And "dev" marked the notification thread about "Crash" as read
    When "dev" lists their notification threads
    Then the response status is 200
    And the threads listed are about "Leak"

  @gitea
  Scenario Outline: The listing filters by status and by subject type
    Given "bob" opened the issue "Crash" in "dev/app"
    And "bob" opened the issue "Leak" in "dev/app"
    And "dev" marked the notification thread about "Crash" as read
    When "dev" lists their notification threads with "<query>"
    Then the response status is 200
    And the threads listed are about "<titles>"

    Examples:
      | query                                  | titles             |
      | status-types=read                      | Crash              |
      | all=true                               | Crash, Leak        |
      | status-types=read&status-types=unread  | Crash, Leak        |
      | subject-type=issue&all=true            | Crash, Leak        |
      | subject-type=release                   | none               |
      | subject-type=pull                      | none               |

  @gitea
  Scenario: The count of new notifications is the unread threads
    Given "bob" opened the issue "Crash" in "dev/app"
    And "bob" opened the issue "Leak" in "dev/app"
    And "dev" marked the notification thread about "Crash" as pinned
    When "dev" asks how many new notifications they have
    Then the response status is 200
    And the response field "new" is 1

  @gitea
  Scenario: The threads of one repository only
    Given a repository "dev/other"
    And "bob" opened the issue "Crash" in "dev/app"
    And "bob" opened the issue "Elsewhere" in "dev/other"
    When "dev" lists their notification threads of "dev/app"
    Then the response status is 200
    And the threads listed are about "Crash"

  @gitea
  Scenario: Marking the threads of one repository leaves the others unread
    Given a repository "dev/other"
    And "bob" opened the issue "Crash" in "dev/app"
    And "bob" opened the issue "Elsewhere" in "dev/other"
    When "dev" marks their notification threads of "dev/app" as read
    Then the response status is 205
    And the threads listed are about "Crash"
    And "dev" has an unread notification thread about "Elsewhere"

  @gitea
  Scenario Outline: A thread is read by its user and a site administrator only
    Given "bob" opened the issue "Crash" in "dev/app"
    When "<who>" reads the notification thread of "dev" about "Crash"
    Then the response status is <status>

    Examples:
      | who       | status |
      | dev       | 200    |
      | the admin | 200    |
      | carol     | 403    |

  @gitea
  Scenario: Another user may not mark a thread
    Given "bob" opened the issue "Crash" in "dev/app"
    When "carol" marks the notification thread of "dev" about "Crash" as read
    Then the request is refused with status 403
    And "dev" has an unread notification thread about "Crash"

  @gitea
  Scenario: A thread marked pinned answers 205 and is pinned
    Given "bob" opened the issue "Crash" in "dev/app"
    When "dev" marks the notification thread of "dev" about "Crash" as pinned
    Then the response status is 205
    And the thread about "Crash" is read and pinned

  @gitea
  Scenario: A thread that does not exist is not found
    When "dev" reads a notification thread that does not exist
    Then the request is refused with status 404

  @gitea
  Scenario: The threads are paged
    Given "bob" opened the issue "Crash" in "dev/app"
    And "bob" opened the issue "Leak" in "dev/app"
    When "dev" lists their notification threads with "limit=1&page=2"
    Then the response status is 200
    And the response is a list of 1 items
    And the response header "X-Total-Count" is "2"
    And the response has the header "Link"

  @gitea
  Scenario: A token without the notification scope may not list the threads
    Given a user "erin" with a token scoped "read:repository"
    When "erin" lists their notification threads
    Then the request is refused with status 403

@feeds
Feature: The activity feed of a repository
  GET /repos/{owner}/{repo}/activities/feeds lists what users did in a repository, newest first, as
  Gitea 1.27's Activity items: op_type (create_repo, create_issue, comment_issue, close_issue,
  reopen_issue, create_pull_request, merge_pull_request, commit_repo, ...), the actor (act_user), the
  repository, the comment of a comment action, the full ref name of a push, and the content Gitea writes
  ("<index>|<title>" for a new issue, "<index>|" for a closed or reopened one, Gitea's PushCommits JSON
  for a push). Paging with page and limit; X-Total-Count but no Link header, as in Gitea. Only readers of
  the repository see its feed (404 otherwise). The date parameter (YYYY-MM-DD) keeps one day; the
  reference takes the day in UTC (Gitea in its configured UI time zone) and refuses a malformed date with
  400 where Gitea ignores it.

  Background:
    Given a repository "dev/app"
    And a user "bob"

  @spec @clause_S1_feeds @clause_S2_3_feed @clause_S4_4_feeds
  Scenario: A repository's feed lists what happened in it, newest first
    Given "dev" opened the issue "Crash on start" in "dev/app"
    And "bob" commented "Same here" on issue 1 of "dev/app"
    When "bob" lists the activity feed of "dev/app"
    Then the response status is 200
    And the feed lists, newest first, "comment_issue by bob, create_issue by dev, create_repo by dev"
    And the response header "X-Total-Count" is "3"

  @gitea
  Scenario: Issue items carry the issue number and title, comment items their comment
    Given "dev" opened the issue "Crash on start" in "dev/app"
    And "bob" commented "Same here" on issue 1 of "dev/app"
    When "bob" lists the activity feed of "dev/app"
    Then the feed item "create_issue" has the content "1|Crash on start"
    And the feed item "comment_issue" has the content "1|Same here"
    And the feed item "comment_issue" carries the comment "Same here"
    And every feed item belongs to the feed of "dev"

  @gitea
  Scenario: Closing and reopening an issue are recorded with the issue number
    Given "dev" opened the issue "Flaky test" in "dev/app"
    And "dev" edited issue 1 of "dev/app" with the body
      """
      {"state": "closed"}
      """
    And "dev" edited issue 1 of "dev/app" with the body
      """
      {"state": "open"}
      """
    When "dev" lists the activity feed of "dev/app"
    Then the feed lists, newest first, "reopen_issue by dev, close_issue by dev, create_issue by dev, create_repo by dev"
    And the feed item "close_issue" has the content "1|"
    And the feed item "reopen_issue" has the content "1|"

  @gitea
  Scenario: A commit to a branch is recorded with the full ref name and the pushed commits
    Given the repository "dev/app" has the file "notes.txt" with content "hello"
    When "dev" lists the activity feed of "dev/app"
    Then the feed has a "commit_repo" item by "dev"
    And the feed item "commit_repo" has the ref name "refs/heads/main"
    And the feed item "commit_repo" lists 1 pushed commit with the message "add notes.txt"

  @gitea
  Scenario: Opening and merging a pull request are recorded
    Given the repository "dev/app" has the branch "feature" changing "README.md" to "more"
    And "dev" opened a pull request of "feature" into "main" in "dev/app"
    And "dev" merged pull request 1 of "dev/app"
    When "dev" lists the activity feed of "dev/app"
    Then the feed has a "create_pull_request" item by "dev"
    And the feed has a "merge_pull_request" item by "dev"

  @gitea
  Scenario: The feed is paged with X-Total-Count and no Link header
    Given "dev" opened the issue "One" in "dev/app"
    And "dev" opened the issue "Two" in "dev/app"
    When "dev" lists the activity feed of "dev/app" with "limit=1&page=2"
    Then the response status is 200
    And the feed lists, newest first, "create_issue by dev"
    And the feed item "create_issue" has the content "1|One"
    And the response header "X-Total-Count" is "3"
    And the response has no header "Link"

  @reference
  Scenario: The date parameter keeps the actions of one UTC day
    Given "dev" opened the issue "Today" in "dev/app"
    When "dev" lists the activity feed of "dev/app" for the day it was created
    Then the response status is 200
    And the feed lists, newest first, "create_issue by dev, create_repo by dev"

  @gitea
  Scenario: A day without activity lists nothing
    When "dev" lists the activity feed of "dev/app" with "date=2001-01-01"
    Then the response status is 200
    And the feed lists, newest first, "nothing"
    And the response header "X-Total-Count" is "0"

  @reference
  Scenario: A malformed date is refused
    The reference answers 400 with a message; Gitea logs the bad value and lists the whole feed.

    When "dev" lists the activity feed of "dev/app" with "date=yesterday"
    Then the request is refused with status 400
    And the error message mentions "YYYY-MM-DD"

  @gitea
  Scenario: The feed of a private repository is hidden from those who cannot read it
    Given a private repository "dev/secret"
    When "bob" lists the activity feed of "dev/secret"
    Then the request is refused with status 404

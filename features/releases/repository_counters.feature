@releases
Feature: A repository counts its open issues, open pull requests and releases
  The Repository model's open_issues_count, open_pr_counter and release_counter are what the repository
  holds: issues not closed (pull requests apart), open pull requests, and releases that are not drafts.
  The scenario makes each one itself, so a forge that answers 0 (or counts drafts) fails.

  Background:
    Given a repository "dev/app"

  @gitea
  Scenario: Open issues and published releases are counted, drafts are not
    Given "dev" opened the issue "Crash" in "dev/app"
    And "dev" opened the issue "Typo" in "dev/app"
    And the repository "dev/app" has the release "v1.0"
    And the repository "dev/app" has the draft release "v2.0"
    When "dev" sends GET "/repos/{dev/app}"
    Then the response status is 200
    And the response field "open_issues_count" is 2
    And the response field "release_counter" is 1
    And the response field "open_pr_counter" is 0

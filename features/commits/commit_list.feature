@commits
Feature: The commit list of a repository, its count headers, filters and single commits
  GET /repos/{owner}/{repo}/commits lists commits newest first, paged with page and limit, from the
  default branch or the ref in sha, filtered by path, since/until (RFC 3339) and not. The total is in
  X-Total-Count; the one further count header of specification 4.2 is X-PageCount (the number of pages),
  which is the reference's choice; X-Total is never sent. Gitea 1.27 also sends X-Total (and X-Page,
  X-PerPage, X-HasMore): a deviation from the specification that the Gitea profiles record.

  Background:
    Given a repository "alice/demo"
    And the branch "main" of "alice/demo" has 3 more commits

  @spec @clause_S4_2_2 @clause_S8_total_count
  Scenario: The commit list gives its total in X-Total-Count and never sends X-Total
    When "alice" lists the commits of "alice/demo" with "limit=2"
    Then the response status is 200
    And the response lists the newest 2 commits of "main" of "alice/demo"
    And the response header "X-Total-Count" is "4"
    And the response has no header "X-Total"

  @spec @clause_S4_2_3
  Scenario: The commit list sends exactly one further count header, X-PageCount, next to X-Total-Count
    When "alice" lists the commits of "alice/demo" with "limit=3"
    Then the response status is 200
    And the response header "X-Total-Count" is "4"
    And the response header "X-PageCount" is "2"
    And the response has the header "Link"
    And the response has no header "X-Total"

  @gitea
  Scenario: The second page holds the older commits
    When "alice" lists the commits of "alice/demo" with "limit=2&page=2"
    Then the response status is 200
    And the response lists the 2 commits of "main" of "alice/demo" after the newest 2

  @gitea
  Scenario: A path limits the list to the commits that touched it
    When "alice" lists the commits of "alice/demo" with "path=main-2.txt"
    Then the response status is 200
    And the response header "X-Total-Count" is "1"
    And the response is a list of 1 items

  @gitea
  Scenario: The list starts at the branch named in sha
    Given the repository "alice/demo" has a branch "dev"
    And the branch "dev" of "alice/demo" has 2 more commits
    When "alice" lists the commits of "alice/demo" with "sha=dev&limit=2"
    Then the response status is 200
    And the response lists the commits made on "dev" of "alice/demo", newest first

  @gitea
  Scenario: Commits reachable from the ref in not are left out
    Given the repository "alice/demo" has a branch "dev"
    And the branch "dev" of "alice/demo" has 2 more commits
    When "alice" lists the commits of "alice/demo" with "sha=dev&not=main"
    Then the response status is 200
    And the response header "X-Total-Count" is "2"
    And the response lists the commits made on "dev" of "alice/demo", newest first

  @gitea
  Scenario: A since date in the future leaves nothing to list
    When "alice" lists the commits of "alice/demo" with "since=2999-01-01T00:00:00Z"
    Then the response status is 200
    And the response is a list of 0 items
    And the response header "X-Total-Count" is "0"

  @gitea
  Scenario: A since date that is not RFC 3339 is refused
    When "alice" lists the commits of "alice/demo" with "since=yesterday"
    Then the request is refused with status 422

  @gitea
  Scenario: An unknown sha is not found
    When "alice" lists the commits of "alice/demo" with "sha=no-such-branch"
    Then the request is refused with status 404

  @gitea
  Scenario: The commits of an empty repository are a conflict
    Given an empty repository "alice/void"
    When "alice" lists the commits of "alice/void"
    Then the request is refused with status 409
    And the error message mentions "Git Repository is empty."

  @gitea
  Scenario: A single commit carries its stats and affected files
    When "alice" gets the commit at the head of "main" of "alice/demo"
    Then the response status is 200
    And the response is the commit at the head of "main" of "alice/demo" with its stats and files
    And the response field "files.0.filename" is "main-3.txt"
    And the response field "files.0.status" is "added"
    And the response field "stats.additions" is 1

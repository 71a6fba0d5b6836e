@dependencies
Feature: Issues depend on and block other issues
  POST /repos/{owner}/{repo}/issues/{index}/dependencies with an IssueMeta {owner, repo, index} makes the
  issue in the path depend on the issue in the body; POST .../issues/{index}/blocks makes the issue in the
  body blocked by the issue in the path. Both are the same link seen from its two ends, so "A depends on
  B" always shows as "B blocks A". DELETE with the same body removes the link. POST and DELETE answer 201
  with the path's issue (Gitea's code; its swagger says 200 for DELETE). GET .../dependencies lists the
  issues blocking the path's issue, GET .../blocks the issues it blocks, paged with X-Total-Count and
  Link. Links may cross repositories: the caller needs write access to the blocked issue's repository and
  read access to the other (404 otherwise, as Gitea). Adding or removing a link adds "add_dependency" or
  "remove_dependency" to the timelines of both issues, each entry naming the other issue.

  Background:
    Given a repository "dev/app"
    And a user "bob"
    And "dev" opened the issue "Build" in "dev/app"
    And "dev" opened the issue "Release" in "dev/app"

  @spec @clause_S4_3_dependencies_create @clause_S1_issue_locking_pinning
  Scenario: An issue is made to depend on another; the other now blocks it
    When "dev" makes issue 2 of "dev/app" depend on issue 1 of "dev/app"
    Then the response status is 201
    And the response field "number" is 2
    And the dependencies of issue 2 of "dev/app" are "dev/app#1"
    And the issues blocked by issue 1 of "dev/app" are "dev/app#2"
    And the dependencies of issue 1 of "dev/app" are "none"

  @spec @clause_S4_3_dependencies_list
  Scenario: A reader lists the issues an issue depends on
    Given "dev" made issue 2 of "dev/app" depend on issue 1 of "dev/app"
    When "bob" lists the dependencies of issue 2 of "dev/app"
    Then the response status is 200
    And the response lists the issues "dev/app#1"
    And the response header "X-Total-Count" is "1"

  @spec @clause_S4_3_dependencies_delete
  Scenario: Removing a dependency removes the block too
    Given "dev" made issue 2 of "dev/app" depend on issue 1 of "dev/app"
    When "dev" removes the dependency of issue 2 of "dev/app" on issue 1 of "dev/app"
    Then the response status is 201
    And the response field "number" is 2
    And the dependencies of issue 2 of "dev/app" are "none"
    And the issues blocked by issue 1 of "dev/app" are "none"

  @spec @clause_S4_3_blocks_create
  Scenario: An issue is made to block another; the other now depends on it
    When "dev" makes issue 1 of "dev/app" block issue 2 of "dev/app"
    Then the response status is 201
    And the response field "number" is 1
    And the dependencies of issue 2 of "dev/app" are "dev/app#1"
    And the issues blocked by issue 1 of "dev/app" are "dev/app#2"

  @spec @clause_S4_3_blocks_list
  Scenario: A reader lists the issues an issue blocks
    Given "dev" made issue 2 of "dev/app" depend on issue 1 of "dev/app"
    When "bob" lists the issues blocked by issue 1 of "dev/app"
    Then the response status is 200
    And the response lists the issues "dev/app#2"
    And the response header "X-Total-Count" is "1"

  @spec @clause_S4_3_blocks_delete
  Scenario: Removing a block removes the dependency too
    Given "dev" made issue 2 of "dev/app" depend on issue 1 of "dev/app"
    When "dev" stops issue 1 of "dev/app" from blocking issue 2 of "dev/app"
    Then the response status is 201
    And the response field "number" is 1
    And the issues blocked by issue 1 of "dev/app" are "none"
    And the dependencies of issue 2 of "dev/app" are "none"

  @gitea
  Scenario: Adding a dependency records add_dependency on both issues, each naming the other
    When "dev" makes issue 2 of "dev/app" depend on issue 1 of "dev/app"
    Then the response status is 201
    And the last timeline entry of issue 2 of "dev/app" is a "add_dependency" by "dev" about issue 1 of "dev/app"
    And the last timeline entry of issue 1 of "dev/app" is a "add_dependency" by "dev" about issue 2 of "dev/app"

  @gitea
  Scenario: Removing a dependency records remove_dependency on both issues
    Given "dev" made issue 2 of "dev/app" depend on issue 1 of "dev/app"
    When "dev" stops issue 1 of "dev/app" from blocking issue 2 of "dev/app"
    Then the response status is 201
    And the timeline of issue 2 of "dev/app" has the types "add_dependency, remove_dependency"
    And the last timeline entry of issue 1 of "dev/app" is a "remove_dependency" by "dev" about issue 2 of "dev/app"

  @gitea @clause_S4_3_dependencies_create
  Scenario: A dependency may be an issue of another repository
    Given a repository "dev/lib"
    And "dev" opened the issue "Upstream fix" in "dev/lib"
    When "dev" makes issue 2 of "dev/app" depend on issue 1 of "dev/lib"
    Then the response status is 201
    And the dependencies of issue 2 of "dev/app" are "dev/lib#1"
    And the issues blocked by issue 1 of "dev/lib" are "dev/app#2"

  @gitea @clause_S4_3_dependencies_create
  Scenario: Writing to the dependent issue's repository and reading the other is enough
    Given a repository "bob/tools"
    And "bob" opened the issue "Adopt the new build" in "bob/tools"
    When "bob" makes issue 1 of "bob/tools" depend on issue 1 of "dev/app"
    Then the response status is 201
    And the issues blocked by issue 1 of "dev/app" are "bob/tools#1"

  @gitea
  Scenario: A reader cannot make an issue of the repository depend on another and nothing is stored
    Gitea hides the refusal behind 404 when the caller cannot write to the dependent issue's repository.
    When "bob" makes issue 2 of "dev/app" depend on issue 1 of "dev/app"
    Then the request is refused with status 404
    And the dependencies of issue 2 of "dev/app" are "none"
    And the timeline of issue 2 of "dev/app" has the types "nothing"

  @gitea
  Scenario: A dependency in a repository the caller cannot see is not found
    Given a private repository "dev/vault"
    And "dev" opened the issue "Secret plan" in "dev/vault"
    And a repository "bob/tools"
    And "bob" opened the issue "Adopt the plan" in "bob/tools"
    When "bob" makes issue 1 of "bob/tools" depend on issue 1 of "dev/vault"
    Then the request is refused with status 404
    And the dependencies of issue 1 of "bob/tools" are "none"

  @reference
  Scenario: The lists leave out issues the caller cannot read
    Gitea lists an unreadable blocker as a placeholder titled HIDDEN (or with a few fields for writers);
    the reference leaves it out of the page and of X-Total-Count.
    Given a private repository "dev/vault"
    And "dev" opened the issue "Secret plan" in "dev/vault"
    And "dev" made issue 1 of "dev/app" depend on issue 1 of "dev/vault"
    When "bob" lists the dependencies of issue 1 of "dev/app"
    Then the response status is 200
    And the response lists the issues "none"
    And the response header "X-Total-Count" is "0"

  @gitea @clause_S4_3_dependencies_list
  Scenario: The dependency list is paged with X-Total-Count and Link
    Given "dev" opened the issue "Docs" in "dev/app"
    And "dev" made issue 3 of "dev/app" depend on issue 1 of "dev/app"
    And "dev" made issue 3 of "dev/app" depend on issue 2 of "dev/app"
    When "bob" lists the dependencies of issue 3 of "dev/app" with "limit=1&page=2"
    Then the response status is 200
    And the response is a list of 1 items
    And the response header "X-Total-Count" is "2"
    And the response has the header "Link"

  @gitea
  Scenario: A dependency of an issue in an archived repository is refused with 423
    Given the repository "dev/app" is archived
    When "dev" makes issue 2 of "dev/app" depend on issue 1 of "dev/app"
    Then the request is refused with status 423
    And the dependencies of issue 2 of "dev/app" are "none"

  @reference @clause_S4_3_dependencies_create
  Scenario: A dependency that exists already is refused with 409 and recorded once
    Gitea answers 500 (ErrDependencyExists is not mapped); the reference answers 409.
    Given "dev" made issue 2 of "dev/app" depend on issue 1 of "dev/app"
    When "dev" makes issue 1 of "dev/app" block issue 2 of "dev/app"
    Then the request is refused with status 409
    And the error message mentions "already depends"
    And the dependencies of issue 2 of "dev/app" are "dev/app#1"
    And the timeline of issue 2 of "dev/app" has the types "add_dependency"

  @reference @clause_S4_3_dependencies_create
  Scenario: A dependency that would close a cycle is refused with 422
    Gitea answers 500 for a direct cycle (ErrCircularDependency) and does not look further; the reference
    refuses any cycle, however long, with 422 and stores nothing.
    Given "dev" opened the issue "Docs" in "dev/app"
    And "dev" made issue 2 of "dev/app" depend on issue 1 of "dev/app"
    And "dev" made issue 3 of "dev/app" depend on issue 2 of "dev/app"
    When "dev" makes issue 1 of "dev/app" depend on issue 3 of "dev/app"
    Then the request is refused with status 422
    And the error message mentions "depends on it"
    And the dependencies of issue 1 of "dev/app" are "none"
    And the timeline of issue 1 of "dev/app" has the types "add_dependency"

  @reference @clause_S4_3_dependencies_create
  Scenario: An issue cannot depend on itself
    Gitea's API accepts it (only its web form refuses); the reference refuses it with 422.
    When "dev" makes issue 1 of "dev/app" depend on issue 1 of "dev/app"
    Then the request is refused with status 422
    And the error message mentions "itself"
    And the dependencies of issue 1 of "dev/app" are "none"

  @reference @clause_S4_3_dependencies_delete
  Scenario: Removing a dependency that does not exist is not found
    Gitea answers 500 (ErrDependencyNotExists); the reference answers 404 and records nothing.
    When "dev" removes the dependency of issue 2 of "dev/app" on issue 1 of "dev/app"
    Then the request is refused with status 404
    And the error message mentions "does not depend"
    And the timeline of issue 2 of "dev/app" has the types "nothing"

  @reference
  Scenario: A body without an index is refused with 422
    The reference requires IssueMeta.index; a missing owner or repo means the path's repository.
    When "dev" adds a dependency to issue 2 of "dev/app" with the body
      """
      {"owner": "{dev}"}
      """
    Then the request is refused with status 422
    And the error message mentions "[Index]: Required"
    And the dependencies of issue 2 of "dev/app" are "none"

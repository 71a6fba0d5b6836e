@assignees
Feature: Issues have assignee lists, changed by writers and limited to users who can write
  Gitea 1.27's assignee operations: GET /repos/{owner}/{repo}/assignees lists every user who can be
  assigned (the owner of a user's repository, collaborators and team members with write access; not
  paged); GET .../assignees/{assignee} and GET .../issues/{index}/assignees/{assignee} answer 204 when
  the user can be assigned and 404 otherwise (the issue form checks assignability, not whether the user
  is assigned now). POST .../issues/{index}/assignees with {"assignees": [names]} answers 201 with the
  Issue and DELETE with the same body 200; names already assigned (or not assigned) are skipped. Every
  assignment and removal adds a timeline entry of type "assignees" (removed_assignee true for a
  removal). Only writers change assignees (403); a user without write access cannot be assigned (403,
  "user doesn't have access to repo"); an archived repository refuses with 423. Issue creation takes
  "assignees" and the deprecated "assignee" from writers; an assignee without access is 422 there.

  Background:
    Given a repository "dev/app"
    And a user "bob"
    And a user "carol"
    And "dev" opened the issue "Crash on start" in "dev/app"

  @spec @clause_S2_3_assignee @clause_S4_4_assignees @clause_S1_issue_locking_pinning
  Scenario: A writer assigns users to an issue and the timeline records each assignment
    Given "bob" is a collaborator of "dev/app" with the permission "write"
    When "dev" assigns "bob, dev" to issue 1 of "dev/app"
    Then the response status is 201
    And the response shows the assignees "bob, dev"
    And issue 1 of "dev/app" is assigned to "bob, dev"
    And the timeline of issue 1 of "dev/app" records the assignee changes "+bob, +dev" by "dev"

  @spec @clause_S2_3_assignee @clause_S4_4_assignees
  Scenario: A writer removes an assignee and the timeline records the removal
    Given "bob" is a collaborator of "dev/app" with the permission "write"
    And "dev" assigned "bob, dev" to issue 1 of "dev/app"
    When "bob" unassigns "bob" from issue 1 of "dev/app"
    Then the response status is 200
    And the response shows the assignees "dev"
    And issue 1 of "dev/app" is assigned to "dev"
    And the timeline of issue 1 of "dev/app" records the assignee changes "+bob, +dev, -bob" by "dev, bob"

  @gitea
  Scenario: Assigning somebody already assigned changes nothing
    Given "dev" assigned "dev" to issue 1 of "dev/app"
    When "dev" assigns "dev" to issue 1 of "dev/app"
    Then the response status is 201
    And issue 1 of "dev/app" is assigned to "dev"
    And the timeline of issue 1 of "dev/app" records the assignee changes "+dev" by "dev"

  @gitea
  Scenario: Unassigning somebody who is not assigned changes nothing
    When "dev" unassigns "dev" from issue 1 of "dev/app"
    Then the response status is 200
    And issue 1 of "dev/app" has no assignees
    And the timeline of issue 1 of "dev/app" has the types "nothing"

  @spec @clause_S4_4_assignees
  Scenario: The assignable users are the owner and the collaborators who can write, by name
    Given "bob" is a collaborator of "dev/app" with the permission "write"
    And "carol" is a collaborator of "dev/app" with the permission "read"
    When "carol" lists the assignees of "dev/app"
    Then the response status is 200
    And the response lists exactly "bob, dev"

  @gitea
  Scenario: Members of an organization's writing team can be assigned, members of a reading team cannot
    Given an organization "acme" owned by "dev"
    And a repository "acme/app"
    And a team "writers" of "acme" with the permission "write" on all repositories
    And a team "readers" of "acme" with the permission "read" on all repositories
    And "bob" is in the team "writers" of "acme"
    And "carol" is in the team "readers" of "acme"
    When "carol" lists the assignees of "acme/app"
    Then the response status is 200
    And the response lists exactly "bob, dev"

  @gitea
  Scenario: A writer can be assigned in the repository
    Given "bob" is a collaborator of "dev/app" with the permission "write"
    When "carol" checks whether "bob" can be assigned in "dev/app"
    Then the response status is 204

  @gitea
  Scenario: A reader cannot be assigned in the repository
    Given "carol" is a collaborator of "dev/app" with the permission "read"
    When "dev" checks whether "carol" can be assigned in "dev/app"
    Then the response status is 404

  @gitea
  Scenario: The issue check answers whether the user could be assigned to the issue
    When "bob" checks whether "dev" can be assigned to issue 1 of "dev/app"
    Then the response status is 204

  @gitea
  Scenario: The issue check of a user without write access is not found
    When "bob" checks whether "carol" can be assigned to issue 1 of "dev/app"
    Then the response status is 404

  @gitea
  Scenario: The issue check of an unknown issue is not found
    When "bob" checks whether "dev" can be assigned to issue 9 of "dev/app"
    Then the response status is 404

  @gitea
  Scenario: A user without write access cannot be assigned and nothing is assigned
    When "dev" assigns "dev, carol" to issue 1 of "dev/app"
    Then the request is refused with status 403
    And the error message mentions "doesn't have access to repo"
    And issue 1 of "dev/app" has no assignees
    And the timeline of issue 1 of "dev/app" has the types "nothing"

  @gitea
  Scenario: A reader cannot change the assignees
    When "bob" assigns "dev" to issue 1 of "dev/app"
    Then the response status is 403
    And issue 1 of "dev/app" has no assignees

  @gitea
  Scenario: An anonymous client cannot change the assignees
    When "an anonymous client" assigns "dev" to issue 1 of "dev/app"
    Then the request is refused with status 401
    And issue 1 of "dev/app" has no assignees

  @reference
  Scenario: An unknown user is refused with 422 and nobody is assigned
    The reference answers 422 "user does not exist [name: ...]" before any change, as it does when an
    issue is opened. The notes on Gitea 1.27 record 422; its handler passes the lookup error to
    APIErrorAuto, which may answer 404, and it assigns the names before the bad one.
    When "dev" assigns "dev, {dev}-nobody" to issue 1 of "dev/app"
    Then the request is refused with status 422
    And the error message mentions "user does not exist"
    And issue 1 of "dev/app" has no assignees

  @gitea
  Scenario: An archived repository refuses a change of assignees
    Given the repository "dev/app" is archived
    When "dev" assigns "dev" to issue 1 of "dev/app"
    Then the request is refused with status 423
    And the error message mentions "repo is archived"
    And issue 1 of "dev/app" has no assignees

  @gitea
  Scenario: The deprecated single assignee of a new issue is honoured
    Given "bob" is a collaborator of "dev/app" with the permission "write"
    When "dev" opens an issue in "dev/app" with the body
      """
      {"title": "Assigned the old way", "assignee": "{bob}"}
      """
    Then the response status is 201
    And issue 2 of "dev/app" is assigned to "bob"
    And the timeline of issue 2 of "dev/app" records the assignee changes "+bob" by "dev"

  @gitea
  Scenario: A new issue cannot be assigned to a user without write access
    When "dev" opens an issue in "dev/app" with the body
      """
      {"title": "Assigned to a reader", "assignees": ["{carol}"]}
      """
    Then the request is refused with status 422
    And the error message mentions "doesn't have access to repo"
    And "dev/app" has 1 issues

  @gitea
  Scenario: An edit replaces the assignees as a whole, recording removals before additions
    Given "bob" is a collaborator of "dev/app" with the permission "write"
    And "dev" assigned "dev" to issue 1 of "dev/app"
    When "dev" edits issue 1 of "dev/app" with the body
      """
      {"assignees": ["{bob}"]}
      """
    Then the response status is 201
    And issue 1 of "dev/app" is assigned to "bob"
    And the timeline of issue 1 of "dev/app" records the assignee changes "+dev, -dev, +bob" by "dev"

  @reference
  Scenario: An edit naming an unknown assignee is refused with 422 and changes nothing
    Gitea 1.27 answers 500 here (the lookup error is not mapped); the reference answers 422 with the
    message issue creation uses, before any change.
    Given "dev" assigned "dev" to issue 1 of "dev/app"
    When "dev" edits issue 1 of "dev/app" with the body
      """
      {"assignees": ["{dev}-nobody"], "title": "Renamed"}
      """
    Then the request is refused with status 422
    And the error message mentions "Assignee does not exist: [name: "
    And issue 1 of "dev/app" is assigned to "dev"
    And issue 1 of "dev/app" has the title "Crash on start" and is open

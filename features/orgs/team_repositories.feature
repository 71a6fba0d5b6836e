@orgs
Feature: A team's repositories and the access its members get
  A team covers the repositories given to it, or every repository of the organization when it
  includes all repositories. Its members get the team's permission there: a read team's member reads
  a private repository's files but cannot change them (403), a write team's member can. A member of
  the organization whose teams do not cover a private repository does not see it (404). Giving a
  repository to a team needs admin access to that repository.

  Background:
    Given a user "alice"
    And an organization "acme" owned by "alice"
    And a private repository "acme/app"
    And the repository "acme/app" has the file "notes.txt" with content "for the team"

  @gitea
  Scenario: A read team's member reads a private repository's file
    Given a team "readers" of "acme" with the permission "read"
    And the team "readers" of "acme" has the repository "acme/app"
    And "bob" is in the team "readers" of "acme"
    When "bob" reads the file "notes.txt" of "acme/app"
    Then the response status is 200
    And the response holds the file "notes.txt" with content "for the team"

  @gitea
  Scenario: A read team's member cannot write a file
    Given a team "readers" of "acme" with the permission "read"
    And the team "readers" of "acme" has the repository "acme/app"
    And "bob" is in the team "readers" of "acme"
    When "bob" creates the file "bob.txt" in "acme/app" with content "hello"
    Then the request is refused with status 403
    And the file "bob.txt" of "acme/app" does not exist

  @gitea
  Scenario: A write team's member writes a file
    Given a team "writers" of "acme" with the permission "write"
    And the team "writers" of "acme" has the repository "acme/app"
    And "bob" is in the team "writers" of "acme"
    When "bob" creates the file "bob.txt" in "acme/app" with content "hello"
    Then the response status is 201
    And the file "bob.txt" of "acme/app" holds "hello"

  @gitea
  Scenario: A member whose teams do not cover a private repository does not see it
    Given a team "readers" of "acme" with the permission "read"
    And "bob" is in the team "readers" of "acme"
    When "bob" reads the file "notes.txt" of "acme/app"
    Then the request is refused with status 404

  @gitea
  Scenario: A team that includes all repositories covers every repository of the organization
    Given a team "everything" of "acme" with the permission "read" on all repositories
    And "bob" is in the team "everything" of "acme"
    When "bob" reads the file "notes.txt" of "acme/app"
    Then the response status is 200

  @gitea
  Scenario: A team lists its repositories
    Given a team "readers" of "acme" with the permission "read"
    And the team "readers" of "acme" has the repository "acme/app"
    And "bob" is in the team "readers" of "acme"
    When "bob" lists the repositories of the team "readers" of "acme"
    Then the response status is 200
    And the response is a list of 1 items
    And the response header "X-Total-Count" is "1"

  @gitea
  Scenario: An owner gives a team a repository
    Given a team "readers" of "acme" with the permission "read"
    When "alice" adds the repository "acme/app" to the team "readers" of "acme"
    Then the response status is 204

  @gitea
  Scenario: A team member without admin access to the repository cannot give it to the team
    Given a team "writers" of "acme" with the permission "write"
    And the team "writers" of "acme" has the repository "acme/app"
    And "bob" is in the team "writers" of "acme"
    When "bob" adds the repository "acme/app" to the team "writers" of "acme"
    Then the request is refused with status 403

  @gitea
  Scenario: An unknown repository cannot be given to a team
    Given a team "readers" of "acme" with the permission "read"
    When "alice" adds the repository "acme/nothing" to the team "readers" of "acme"
    Then the request is refused with status 404

  @gitea
  Scenario: A repository taken from a team is no longer seen by its members
    Given a team "readers" of "acme" with the permission "read"
    And the team "readers" of "acme" has the repository "acme/app"
    And "bob" is in the team "readers" of "acme"
    When "alice" removes the repository "acme/app" from the team "readers" of "acme"
    Then the response status is 204
    And "bob" does not see the repository "acme/app"

  @gitea
  Scenario: A team's repository is read through the team
    Given a team "readers" of "acme" with the permission "read"
    And the team "readers" of "acme" has the repository "acme/app"
    And "bob" is in the team "readers" of "acme"
    When "bob" reads the repository "acme/app" of the team "readers" of "acme"
    Then the response status is 200
    And the response is the repository "acme/app"

  @gitea
  Scenario: A repository the team does not cover is not found through the team
    Given a team "readers" of "acme" with the permission "read"
    And "bob" is in the team "readers" of "acme"
    When "alice" reads the repository "acme/app" of the team "readers" of "acme"
    Then the request is refused with status 404

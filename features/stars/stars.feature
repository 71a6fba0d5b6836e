@stars
Feature: Starring repositories
  A user stars a repository they can read with PUT /user/starred/{owner}/{repo} and unstars it with
  DELETE; both answer 204 however often they are sent, and GET answers 204 while the star stands, 404
  otherwise. The repository counts its stars (stars_count) and lists its stargazers; a user's starred
  repositories are listed for the user with the private ones, for everybody else without them. A
  repository the caller cannot see cannot be starred, and the answer does not tell it exists.

  Background:
    Given a user "alice"
    And a user "bob"
    And a repository "alice/demo"

  @gitea
  Scenario: A star is counted once however often it is given
    Given "bob" starred "alice/demo"
    When "bob" stars "alice/demo"
    Then the response status is 204
    And the repository "alice/demo" has 1 stars

  @gitea
  Scenario: The stargazers of a repository are the users who starred it
    Given a user "carol"
    And "bob" starred "alice/demo"
    And "carol" starred "alice/demo"
    When "an anonymous client" lists the stargazers of "alice/demo"
    Then the response status is 200
    And the response lists exactly "bob, carol"
    And the response header "X-Total-Count" is "2"
    And the repository "alice/demo" has 2 stars

  @gitea
  Scenario: Checking a star that stands
    Given "bob" starred "alice/demo"
    When "bob" checks whether they starred "alice/demo"
    Then the response status is 204

  @gitea
  Scenario: Checking a star that was never given is not found
    When "bob" checks whether they starred "alice/demo"
    Then the request is refused with status 404

  @gitea
  Scenario: Unstarring takes the star away
    Given "bob" starred "alice/demo"
    When "bob" unstars "alice/demo"
    Then the response status is 204
    And the repository "alice/demo" has 0 stars

  @gitea
  Scenario: Unstarring a repository never starred is no error
    When "bob" unstars "alice/demo"
    Then the response status is 204

  @gitea
  Scenario: A private repository the caller cannot see cannot be starred
    Given a private repository "alice/secret"
    When "bob" stars "alice/secret"
    Then the request is refused with status 404
    And the repository "alice/secret" has 0 stars

  @gitea
  Scenario: Starring needs a signed-in caller
    When "an anonymous client" stars "alice/demo"
    Then the request is refused with status 401

  @gitea
  Scenario: A user sees their own private stars
    Given a private repository "alice/secret"
    And "alice" starred "alice/secret"
    And "alice" starred "alice/demo"
    When "alice" lists the repositories they starred
    Then the response status is 200
    And the response lists the repositories "alice/demo, alice/secret"

  @gitea
  Scenario: Others see only the public repositories a user starred
    Given a private repository "alice/secret"
    And "alice" starred "alice/secret"
    And "alice" starred "alice/demo"
    When "bob" lists the repositories "alice" starred
    Then the response status is 200
    And the response lists the repositories "alice/demo"
    And the response header "X-Total-Count" is "1"

  @gitea
  Scenario: The stargazers of a repository the caller cannot see are not listed
    Given a private repository "alice/secret"
    And "alice" starred "alice/secret"
    When "bob" lists the stargazers of "alice/secret"
    Then the request is refused with status 404

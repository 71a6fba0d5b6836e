@contents
Feature: A repository is found by its id
  GET /repositories/{id} answers the Repository with that id, as GET /repos/{owner}/{repo} would, to
  whoever may read it. To anyone else a private repository's id is as unknown as an id no repository
  has: 404, without naming the repository (Gitea's repoGetByID).

  @gitea
  Scenario Outline: Whoever may read a repository finds it by its id
    Given a user "bob"
    And a repository "alice/demo"
    When "<who>" reads the repository "alice/demo" by its id
    Then the response status is 200
    And the answer is the repository "alice/demo" as its name gives it

    Examples:
      | who                  |
      | alice                |
      | bob                  |
      | an anonymous client  |

  @gitea
  Scenario: The owner finds a private repository by its id
    Given a private repository "alice/secret"
    When "alice" reads the repository "alice/secret" by its id
    Then the response status is 200
    And the answer is the repository "alice/secret" as its name gives it

  @gitea
  Scenario Outline: A private repository's id names nothing to whom may not read it
    Given a user "bob"
    And a private repository "alice/secret"
    When "<who>" reads the repository "alice/secret" by its id
    Then the request is refused with status 404
    And the answer does not name the repository "alice/secret"

    Examples:
      | who                  |
      | bob                  |
      | an anonymous client  |

  @gitea
  Scenario: An id that names no repository is not found
    Given a user "bob"
    When "bob" reads a repository by an id that names none
    Then the request is refused with status 404

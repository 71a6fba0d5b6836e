@runners
Feature: Runner registration tokens are obtained over REST
  A repository's owner obtains a registration token with POST (the current route) or with the
  legacy GET the specification keeps for compatibility (Gitea 1.26 removed it: a known deviation
  of that version). Creating a token needs a token with write access to repositories.

  Background:
    Given a repository "dev/app"

  @spec @clause_S4_4_registration_tokens
  Scenario: POST gives a registration token
    When the repository's owner requests a registration token with POST
    Then the response status is 200
    And the registration token is not empty

  @spec @clause_S4_4_registration_tokens @clause_S9_4
  Scenario: The legacy GET still gives a registration token
    When the repository's owner requests a registration token with GET
    Then the response status is 200
    And the registration token is not empty

  @gitea @clause_S4_4_registration_tokens
  Scenario Outline: A read-only token cannot obtain a registration token
    When the repository's owner requests a registration token with <method> and a read-only token
    Then the request is refused with status 403

    Examples:
      | method |
      | POST   |
      | GET    |

  @gitea @clause_S4_4_registration_tokens @clause_S4_4_runners
  Scenario: A registration token registers a runner of the repository, which is then listed
    Given a mock runner registered to "dev/app" with the labels "ubuntu-latest,gpu"
    When the repository's owner lists the repository's runners
    Then the response status is 200
    And the REST runner list holds the mock runner with the labels "ubuntu-latest,gpu"

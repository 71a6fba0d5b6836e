@auth
Feature: Every way Gitea accepts credentials, and bad credentials
  A token goes in "Authorization: token T" or "Authorization: Bearer T"; basic auth takes the
  password or a token as the password; the deprecated ?token= query parameter still works and the
  answer carries an X-Gitea-Warning header. Bad credentials are refused with 401 on any route,
  even one that needs none.

  Background:
    Given a user "alice"

  @gitea @clause_S5_5
  Scenario Outline: A token in the Authorization header with the <scheme> scheme
    When "alice" fetches the authenticated user with the "<scheme>" authorization scheme
    Then the response status is 200
    And the response field "login" is the name of "alice"

    Examples:
      | scheme |
      | token  |
      | Bearer |

  @gitea @clause_S5_5
  Scenario: Basic auth with the password
    When "alice" fetches the authenticated user with basic auth and their password
    Then the response status is 200
    And the response field "login" is the name of "alice"

  @gitea @clause_S5_5
  Scenario: Basic auth with a token as the password
    When "alice" fetches the authenticated user with basic auth and their token as the password
    Then the response status is 200
    And the response field "login" is the name of "alice"

  @gitea @clause_S5_5
  Scenario Outline: Basic auth with the token as the user name and the password "<password>"
    When "alice" fetches the authenticated user with basic auth, their token as the user name and the password "<password>"
    Then the response status is 200
    And the response field "login" is the name of "alice"

    Examples:
      | password      |
      |               |
      | x-oauth-basic |

  @gitea @clause_S5_5 @clause_S9_5
  Scenario Outline: A token in the <parameter> query parameter works with a deprecation warning
    When "alice" fetches the authenticated user with their token in the "<parameter>" query parameter
    Then the response status is 200
    And the response field "login" is the name of "alice"
    And the response has the header "X-Gitea-Warning"

    Examples:
      | parameter    |
      | token        |
      | access_token |

  @gitea
  Scenario: A header token gets no deprecation warning
    When "alice" fetches the authenticated user with the "token" authorization scheme
    Then the response status is 200
    And the response has no header "X-Gitea-Warning"

  @gitea
  Scenario: A wrong password is refused
    When "alice" fetches the authenticated user with basic auth and a wrong password
    Then the request is refused with status 401

  @gitea
  Scenario Outline: A token that was never issued is refused with the <scheme> scheme
    When a client fetches the authenticated user with the "<scheme>" scheme and an unknown token
    Then the request is refused with status 401

    Examples:
      | scheme |
      | token  |
      | Bearer |

  @gitea
  Scenario: A query token that was never issued is refused
    When a client fetches the authenticated user with an unknown token in the query
    Then the request is refused with status 401

  @gitea
  Scenario: Bad credentials are refused even where none are needed
    When a client fetches the server version with an unknown token
    Then the request is refused with status 401

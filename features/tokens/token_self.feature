@tokens
Feature: A token looks at itself and deletes itself through /token
  GET /token answers the calling token's CurrentAccessToken (id, name, scopes, created_at,
  last_used_at and its owner's id and login, never the secret); DELETE /token deletes it, and the
  next request with it is unauthenticated. Any token may do both whatever its scopes. Only a token
  in the Authorization header (the token or Bearer scheme) is a "current token": a caller
  authenticated otherwise (basic auth, the deprecated ?token= parameter) is answered 404, as in
  Gitea 1.27; no credentials or an unknown token get 401.

  Background:
    Given a user "alice"
    And "alice" has a token "ci" scoped "read:repository"

  @spec @clause_S1_token_self @clause_S4_3_token @clause_S5_4
  Scenario: A token looks at itself
    When the token "ci" asks for itself
    Then the response status is 200
    And the answer describes the token "ci" of "alice"

  @gitea @clause_S4_3_token
  Scenario: The Bearer scheme presents the token too
    When the token "ci" asks for itself with the "Bearer" scheme
    Then the response status is 200
    And the answer describes the token "ci" of "alice"

  @spec @clause_S1_token_self @clause_S4_3_token @clause_S5_4
  Scenario: A token deletes itself and is unauthenticated afterwards
    When the token "ci" deletes itself
    Then the response status is 204
    And the token "ci" is refused with 401 afterwards

  @gitea @clause_S5_4
  Scenario: Deleting one token leaves the owner's other tokens working
    Given "alice" has a token "deploy" scoped "read:user"
    When the token "ci" deletes itself
    Then the response status is 204
    And the token "deploy" still works

  @gitea @clause_S4_3_token
  Scenario Outline: A token given as <how> is not a current token
    When the token "ci" given as <how> asks for itself
    Then the request is refused with status 404

    Examples:
      | how                 |
      | basic auth          |
      | the query parameter |

  @gitea @clause_S4_3_token
  Scenario Outline: A token given as <how> cannot delete itself
    When the token "ci" given as <how> tries to delete itself
    Then the request is refused with status 404
    And the token "ci" still works

    Examples:
      | how                 |
      | basic auth          |
      | the query parameter |

  @gitea @clause_S4_3_token
  Scenario: Without credentials the current token is unauthorized
    When an anonymous client asks for the current token
    Then the request is refused with status 401

  @gitea @clause_S4_3_token
  Scenario: An unknown token is unauthorized
    When a client asks for the current token with an unknown token
    Then the request is refused with status 401

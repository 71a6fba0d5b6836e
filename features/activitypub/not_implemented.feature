@activitypub
Feature: ActivityPub endpoints exist but answer that they are not implemented
  Every request under /activitypub (any method, any sub-path) and GET /nodeinfo answer 501 with the
  plain text "Not implemented". Gitea 1.26 and later answer so when federation is enabled and 404
  when it is not; the reference serves them as if federation were enabled. As in Gitea the paths
  are left out of the API description.

  @spec @clause_S1_activitypub @clause_S4_4_activitypub @clause_S7_activitypub_501
  Scenario Outline: <method> /activitypub/<sub_path> answers 501
    When an anonymous client sends <method> to the ActivityPub path "<sub_path>"
    Then the answer is 501 with the plain text "Not implemented"

    Examples:
      | method | sub_path           |
      | GET    | user-id/1          |
      | POST   | user-id/1/inbox    |
      | PUT    | repository-id/1    |
      | DELETE | actor              |
      | GET    | anything/else/here |

  @spec @clause_S4_4_activitypub @clause_S7_activitypub_501
  Scenario: A signed-in user gets 501 as well
    Given a user "alice"
    When "alice" sends GET to the ActivityPub path "user-id/1"
    Then the answer is 501 with the plain text "Not implemented"

  @gitea @clause_S7_activitypub_501
  Scenario: The nodeinfo answers 501
    When an anonymous client asks for the nodeinfo
    Then the answer is 501 with the plain text "Not implemented"

  @gitea @clause_S4_4_activitypub
  Scenario: A token without the activitypub scope is refused before the answer
    Gitea guards /activitypub/* with the activitypub token scope, like any other category.
    Given a user "bob" with a token scoped "read:repository"
    When "bob" sends GET to the ActivityPub path "user-id/1"
    Then the request is refused with status 403

  @gitea @clause_S1_activitypub
  Scenario Outline: The <document> API description leaves the ActivityPub paths out
    When the admin reads the "<document>" API description
    Then the description lists no ActivityPub or nodeinfo path

    Examples:
      | document  |
      | Swagger 2 |
      | OpenAPI 3 |

@gitdata
Feature: The keys commits are signed with
  GET /signing-key.gpg and /signing-key.pub publish the instance's signing key, and the same paths under
  /repos/{owner}/{repo} a repository's. A forge that signs no commits has no key to publish: Gitea 1.27
  then answers 404 "no signing key" (routers/api/v1/misc/signing.go), as the reference always does.

  @gitea
  Scenario Outline: Without a signing key the instance publishes none
    When an anonymous client sends GET "<path>"
    Then the request is refused with status 404
    And the error message mentions "no signing key"

    Examples:
      | path             |
      | signing-key.gpg  |
      | signing-key.pub  |

  @gitea
  Scenario Outline: Without a signing key a repository publishes none
    Given a repository "alice/demo"
    When "alice" sends GET "repos/{alice/demo}/<name>"
    Then the request is refused with status 404
    And the error message mentions "no signing key"

    Examples:
      | name             |
      | signing-key.gpg  |
      | signing-key.pub  |

@gitdata
Feature: Server-side Git hooks are not editable through the API
  GET /repos/{owner}/{repo}/hooks/git and GET, PATCH, DELETE .../hooks/git/{id} need the repository's
  administrator and an account allowed to edit Git hooks. Gitea disables Git hooks by default
  (DISABLE_GIT_HOOKS = true), so every account, site administrators included, is refused with 403
  "must be allowed to edit Git hooks" before any hook is looked up (routers/api/v1/api.go reqGitHook).

  Background:
    Given a repository "alice/demo"

  @gitea
  Scenario Outline: Even the repository's owner may not read or change its Git hooks
    When "alice" sends <method> "repos/{alice/demo}/<path>"
    Then the request is refused with status 403
    And the error message mentions "must be allowed to edit Git hooks"

    Examples:
      | method | path                   |
      | GET    | hooks/git              |
      | GET    | hooks/git/pre-receive  |
      | DELETE | hooks/git/update       |

  @gitea
  Scenario: Editing a Git hook is refused before the hook is read
    When "alice" sends PATCH "repos/{alice/demo}/hooks/git/pre-receive" with the body
      """
      {"content": "#!/bin/sh\nexit 0\n"}
      """
    Then the request is refused with status 403
    And the error message mentions "must be allowed to edit Git hooks"

  @gitea
  Scenario: Someone who only reads the repository is refused too
    Given a user "bob"
    When "bob" sends GET "repos/{alice/demo}/hooks/git"
    Then the request is refused with status 403

@forks
Feature: Repositories are migrated and mirrored from a Git URL
  POST /repos/migrate (MigrateRepoOptions: clone_addr, repo_name, repo_owner, mirror, private,
  auth_username/auth_password/auth_token) copies every branch and tag of a Git repository reachable over
  HTTP(S) into a new repository (201 Repository); with mirror true it is a pull mirror that
  POST /repos/{owner}/{repo}/mirror-sync updates (200). The scenarios migrate from the forge's own clone
  URLs, so a Gitea target needs [migrations] ALLOW_LOCALNETWORKS = true.

  Background:
    Given a repository "alice/demo"
    And the branch "main" of "alice/demo" has 1 more commits

  @gitea
  Scenario: A repository is migrated with its history
    When "alice" migrates "alice/demo" as "alice/moved"
    Then the response status is 201
    And the response field "mirror" is false
    And the branch "main" of "alice/moved" points at the head of the branch "main" of "alice/demo"

  @gitea
  Scenario: A mirror of a private repository picks up new commits on mirror-sync
    Given a private repository "alice/secret"
    And the branch "main" of "alice/secret" has 1 more commits
    And "alice" mirrored "alice/secret" as "alice/copy" with her token
    And the branch "main" of "alice/secret" has 1 more commits
    When "alice" syncs the mirror "alice/copy"
    Then the response status is 200
    And the branch "main" of "alice/copy" points at the head of the branch "main" of "alice/secret"

  @gitea
  Scenario: Syncing a repository that is not a mirror is a bad request
    When "alice" syncs the mirror "alice/demo"
    Then the request is refused with status 400

  @reference
  Scenario Outline: Clone addresses that are not http or https are refused (the reference's security rule)
    When "alice" migrates from "<address>" as "alice/stolen"
    Then the request is refused with status 422

    Examples:
      | address                |
      | file:///etc            |
      | /srv/git/private.git   |
      | ssh://git@example.com/x |
      | git://example.com/x    |

  @gitea
  Scenario Outline: Migrations from local and internal networks are refused: <address>
    Gitea refuses them while [migrations] ALLOW_LOCALNETWORKS is false (its default), with 422 "You
    can not import from disallowed hosts." (services/migrations IsMigrateURLAllowed). Loopback is not
    listed: the suite migrates from the target itself.
    When "alice" migrates from "<address>" as "alice/stolen"
    Then the request is refused with status 422
    And the error message mentions "disallowed hosts"

    Examples:
      | address                                  |
      | http://169.254.169.254/latest/x.git      |
      | http://10.0.0.1/x.git                    |
      | http://192.168.1.1/x.git                 |
      | http://[fd00::1]/x.git                   |
      | http://0.0.0.0/x.git                     |

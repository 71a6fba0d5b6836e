@contents
Feature: Repositories are cloned, fetched and pushed over HTTPS with Git and Git LFS
  The real git client speaks Git's smart HTTP protocol to /{owner}/{repo}.git with a user's account token
  as the password, as Gitea serves it. Large files go through Git LFS: git-lfs asks the batch API at
  /{owner}/{repo}.git/info/lfs/objects/batch where to upload or download each object, transfers it, and
  the forge keeps exactly the bytes it announced. An upload whose size or SHA-256 differs from the object
  it was announced as is refused with 422 (as Gitea refuses it) and nothing is stored. The media route
  /repos/{owner}/{repo}/media/{filepath} serves the object an LFS pointer file names.

  Background:
    Given a private repository "dev/app"

  @gitea
  Scenario: A user clones, pushes and fetches with an account token
    When "dev" clones "dev/app" over HTTPS
    Then the clone succeeds
    And the clone of "dev/app" has the file "README.md"
    When "dev" pushes a commit changing "notes.txt" to the branch "main" of "dev/app" over HTTPS
    Then the push succeeds
    And the branch "main" of "dev/app" is at the pushed commit

  @gitea
  Scenario: A fetch brings the commits made on the server
    Given "dev" has cloned "dev/app" over HTTPS
    And the repository "dev/app" has the file "later.txt" with content "made on the server"
    When "dev" fetches "dev/app" over HTTPS
    Then the fetch succeeds
    And the fetched branch "main" of "dev/app" is the branch on the server

  @gitea
  Scenario: A user who cannot see a private repository cannot clone it
    Given a user "outsider"
    When "outsider" clones "dev/app" over HTTPS
    Then the clone is refused with status 404

  @gitea
  Scenario: A user who can read but not write a repository cannot push to it
    Given a repository "lead/site"
    And a user "reader"
    When "reader" pushes a commit changing "index.html" to the branch "main" of "lead/site" over HTTPS
    Then the push is refused with status 403
    And the branch "main" of "lead/site" is unchanged

  @gitea @capability_lfs
  Scenario: A 5 MiB binary goes through LFS and comes back byte for byte
    When "dev" pushes a 5 MiB binary "assets/blob.bin" tracked by LFS to the branch "main" of "dev/app" over HTTPS
    Then the push succeeds
    When "dev" clones "dev/app" over HTTPS with LFS
    Then the clone succeeds
    And the cloned "assets/blob.bin" has the same bytes as the pushed one
    And "dev" gets the pushed bytes of "assets/blob.bin" from the media route of "dev/app"

  @gitea @capability_lfs
  Scenario Outline: An LFS upload whose <what> does not match is refused and nothing is stored
    When "dev" uploads to "dev/app" an LFS object whose <what> does not match
    Then the LFS request is refused with status 422
    And the LFS store of "dev/app" does not hold the object

    Examples:
      | what |
      | size |
      | hash |

  @gitea
  Scenario: An LFS transfer token is no Git credential
    A batch answer hands out a short-lived token for its LFS transfers. Gitea accepts it on the LFS
    routes only (services/lfs/server.go); Git's smart HTTP does not recognise it and answers 401.
    When "dev" clones "dev/app" over HTTPS with the transfer token of an LFS upload batch
    Then the clone is refused with status 401

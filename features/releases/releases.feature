@releases
Feature: Releases are created, listed, read, edited and deleted
  GET /repos/{owner}/{repo}/releases lists releases newest first, paged (Link, X-Total-Count); drafts
  only for writers, and the draft and pre-release filters apply. POST creates a release
  (CreateReleaseOption, 201): a published release's missing tag is created from target_commitish,
  the default branch when empty; a draft has no tag until it is published. A second release of a
  tag is refused (409), a missing target is not found (404). GET /releases/latest is the newest
  release that is neither a draft nor a pre-release. Deleting a release, by id or by tag, keeps its
  Git tag; a tag holding a release cannot be deleted directly (409).

  Background:
    Given a repository "alice/demo"

  @gitea
  Scenario: A release creates its missing tag from the default branch
    When "alice" creates the release "v1.0" in "alice/demo"
    Then the response status is 201
    And the response field "tag_name" is "v1.0"
    And the response field "target_commitish" is "main"
    And the response field "draft" is false
    And the tag "v1.0" of "alice/demo" points at the head of "main"

  @gitea
  Scenario: A release's tag is created at its target
    Given the repository "alice/demo" has a branch "dev"
    And the branch "dev" of "alice/demo" has 1 more commits
    When "alice" creates a release in "alice/demo" with the body
      """
      {"tag_name": "v2.0", "target_commitish": "dev", "name": "Two", "body": "Notes"}
      """
    Then the response status is 201
    And the response field "name" is "Two"
    And the response field "body" is "Notes"
    And the tag "v2.0" of "alice/demo" points at the head of "dev"

  @gitea
  Scenario: A release of an existing tag keeps the tag where it is
    Given the repository "alice/demo" has the tag "v1.0"
    And the repository "alice/demo" has a branch "old"
    And the branch "main" of "alice/demo" has 1 more commits
    When "alice" creates the release "v1.0" in "alice/demo"
    Then the response status is 201
    And the tag "v1.0" of "alice/demo" points at the head of "old"

  @gitea
  Scenario: A release with a tag message creates an annotated tag
    When "alice" creates a release in "alice/demo" with the body
      """
      {"tag_name": "v4.0", "tag_message": "Signed off"}
      """
    Then the response status is 201
    And the tag "v4.0" of "alice/demo" is annotated with the message "Signed off"

  @gitea
  Scenario: A draft has no tag until it is published
    Given the repository "alice/demo" has the draft release "v3.0"
    When "alice" edits the release "v3.0" of "alice/demo" with the body
      """
      {"draft": false}
      """
    Then the response status is 200
    And the response field "draft" is false
    And the tag "v3.0" of "alice/demo" points at the head of "main"

  @gitea
  Scenario: A draft creates no tag
    When "alice" creates a release in "alice/demo" with the body
      """
      {"tag_name": "v0.9", "draft": true}
      """
    Then the response status is 201
    And the response field "draft" is true
    And the response field "published_at" is null
    And the tag "v0.9" of "alice/demo" does not exist

  @gitea
  Scenario: A second release of the same tag is a conflict
    Given the repository "alice/demo" has the release "v1.0"
    When "alice" creates the release "v1.0" in "alice/demo"
    Then the request is refused with status 409

  @gitea
  Scenario: A release without a tag name is refused
    When "alice" creates a release in "alice/demo" with the body
      """
      {"name": "nameless"}
      """
    Then the request is refused with status 422

  @gitea
  Scenario: A release of a missing target is not found and creates no tag
    When "alice" creates a release in "alice/demo" with the body
      """
      {"tag_name": "v9", "target_commitish": "no-such-branch"}
      """
    Then the request is refused with status 404
    And the tag "v9" of "alice/demo" does not exist

  @gitea
  Scenario: Drafts are listed for writers only
    Given the repository "alice/demo" has the release "v1.0"
    And the repository "alice/demo" has the draft release "v2.0"
    When "an anonymous client" lists the releases of "alice/demo"
    Then the response status is 200
    And the response lists the releases "v1.0"
    And the response header "X-Total-Count" is "1"

  @gitea
  Scenario: Writers see drafts, newest first
    Given the repository "alice/demo" has the release "v1.0"
    And the repository "alice/demo" has the draft release "v2.0"
    When "alice" lists the releases of "alice/demo"
    Then the response status is 200
    And the response lists the releases "v2.0, v1.0"

  @gitea
  Scenario: The pre-release filter keeps only pre-releases
    Given the repository "alice/demo" has the release "v1.0"
    And the repository "alice/demo" has the pre-release "v2.0-rc1"
    When "alice" lists the releases of "alice/demo" with pre_release "true"
    Then the response status is 200
    And the response lists the releases "v2.0-rc1"

  @gitea
  Scenario: The release list is paged and counted
    Given the repository "alice/demo" has the release "v1.0"
    And the repository "alice/demo" has the release "v2.0"
    And the repository "alice/demo" has the release "v3.0"
    When "alice" lists the releases of "alice/demo" with limit 2 and page 2
    Then the response status is 200
    And the response lists the releases "v1.0"
    And the response header "X-Total-Count" is "3"
    And the response has the header "Link"

  @gitea
  Scenario: The latest release is neither a draft nor a pre-release
    Given the repository "alice/demo" has the release "v1.0"
    And the repository "alice/demo" has the pre-release "v2.0-rc1"
    And the repository "alice/demo" has the draft release "v2.0"
    When "an anonymous client" gets the latest release of "alice/demo"
    Then the response status is 200
    And the response field "tag_name" is "v1.0"

  @gitea
  Scenario: A repository without releases has no latest release
    When "alice" gets the latest release of "alice/demo"
    Then the request is refused with status 404

  @gitea
  Scenario: A release is read by its id with its assets
    Given the repository "alice/demo" has the release "v1.0"
    And the release "v1.0" of "alice/demo" has the asset "notes.txt" with content "notes"
    When "an anonymous client" gets the release "v1.0" of "alice/demo"
    Then the response status is 200
    And the response field "tag_name" is "v1.0"
    And the response field "assets.0.name" is "notes.txt"
    And the response field "assets.0.size" is 5

  @gitea
  Scenario: A release is read by its tag
    Given the repository "alice/demo" has the release "v1.0"
    When "an anonymous client" gets the release of the tag "v1.0" of "alice/demo"
    Then the response status is 200
    And the response field "name" is "Release v1.0"

  @gitea
  Scenario: A release is edited
    Given the repository "alice/demo" has the release "v1.0"
    When "alice" edits the release "v1.0" of "alice/demo" with the body
      """
      {"name": "Renamed", "body": "New notes", "prerelease": true}
      """
    Then the response status is 200
    And the response field "name" is "Renamed"
    And the response field "body" is "New notes"
    And the response field "prerelease" is true

  @gitea
  Scenario: Deleting a release by its tag keeps the Git tag
    Given the repository "alice/demo" has the release "v1.0"
    When "alice" deletes the release of the tag "v1.0" of "alice/demo"
    Then the response status is 204
    And the release of the tag "v1.0" of "alice/demo" does not exist
    And the tag "v1.0" of "alice/demo" points at the head of "main"

  @gitea
  Scenario: Deleting a release by its id keeps the Git tag
    Given the repository "alice/demo" has the release "v1.0"
    When "alice" deletes the release "v1.0" of "alice/demo"
    Then the response status is 204
    And the release of the tag "v1.0" of "alice/demo" does not exist
    And the tag "v1.0" of "alice/demo" points at the head of "main"

  @gitea
  Scenario: A tag holding a release cannot be deleted directly
    Given the repository "alice/demo" has the release "v1.0"
    When "alice" deletes the tag "v1.0" of "alice/demo"
    Then the request is refused with status 409
    And the tag "v1.0" of "alice/demo" points at the head of "main"

  @gitea
  Scenario: A reader cannot create releases
    Given a user "bob"
    When "bob" creates the release "v1.0" in "alice/demo"
    Then the request is refused with status 403
    And the tag "v1.0" of "alice/demo" does not exist

  @gitea
  Scenario: An anonymous client cannot create releases
    When "an anonymous client" creates the release "v1.0" in "alice/demo"
    Then the request is refused with status 401

  @gitea
  Scenario: The releases of a private repository are hidden from outsiders
    Given a private repository "alice/secret"
    And the repository "alice/secret" has the release "v1.0"
    And a user "bob"
    When "bob" lists the releases of "alice/secret"
    Then the request is refused with status 404

  @gitea
  Scenario: An empty repository takes no release
    Given an empty repository "alice/bare"
    When "alice" creates the release "v1.0" in "alice/bare"
    Then the request is refused with status 422

  @gitea
  Scenario: Reading releases needs the repository scope
    Given the repository "alice/demo" has the release "v1.0"
    And a user "carol" with a token scoped "read:issue"
    When "carol" lists the releases of "alice/demo"
    Then the request is refused with status 403

  @gitea
  Scenario: A token with the repository scope reads releases
    Given the repository "alice/demo" has the release "v1.0"
    And a user "carol" with a token scoped "read:repository"
    When "carol" lists the releases of "alice/demo"
    Then the response status is 200
    And the response lists the releases "v1.0"

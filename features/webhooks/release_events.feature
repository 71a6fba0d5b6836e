@webhooks
Feature: Releases are announced to webhooks when published, edited and deleted
  A hook that takes the "release" event gets a ReleasePayload (action, release, repository, sender) when a
  release is published (created public, or a draft made public: sent as its publisher), edited while public
  ("updated") and deleted ("deleted", the release as it was). A draft is never announced: not when it is
  created, edited or deleted (services/release/release.go and sendReleaseHook of
  services/webhook/notifier.go in Gitea 1.27).

  Background:
    Given a repository "dev/app"
    And "dev" has a webhook on "dev/app" for the events "release" with the secret "release-secret-1"

  @gitea
  Scenario: A release created public is announced as published, signed, with the release and its publisher
    When "dev" creates the release "v1.0" in "dev/app"
    Then the response status is 201
    And the webhook receives "release" deliveries with the actions "published" and no other
    And the "published" "release" delivery field "release.tag_name" is "v1.0"
    And the "published" "release" delivery field "sender.login" is "{dev}"
    And the "published" "release" delivery field "repository.full_name" is "{dev/app}"
    And every "release" delivery body matches the schema "release_payload"
    And every "release" delivery is signed with the secret "release-secret-1"

  @gitea
  Scenario: A draft is announced once, when it is made public
    Given the repository "dev/app" has the draft release "v2.0"
    When "dev" edits the release "v2.0" of "dev/app" with the body
      """
      {"draft": false}
      """
    Then the response status is 200
    And the webhook receives "release" deliveries with the actions "published" and no other
    And the "published" "release" delivery field "release.tag_name" is "v2.0"
    And the "published" "release" delivery field "release.draft" is "False"

  @gitea
  Scenario: Editing a public release is announced as updated, with the new values
    Given the repository "dev/app" has the release "v1.0"
    When "dev" edits the release "v1.0" of "dev/app" with the body
      """
      {"name": "Renamed release"}
      """
    Then the response status is 200
    And the webhook receives "release" deliveries with the actions "published, updated" and no other
    And the "updated" "release" delivery field "release.name" is "Renamed release"

  @gitea
  Scenario: Deleting a public release is announced with the release as it was
    Given the repository "dev/app" has the release "v1.0"
    When "dev" deletes the release "v1.0" of "dev/app"
    Then the response status is 204
    And the webhook receives "release" deliveries with the actions "published, deleted" and no other
    And the "deleted" "release" delivery field "release.tag_name" is "v1.0"
    And the "deleted" "release" delivery field "release.name" is "Release v1.0"

@releases
Feature: Release assets are uploaded, downloaded, renamed and deleted
  POST /repos/{owner}/{repo}/releases/{id}/assets takes the file in the multipart field "attachment",
  the "name" query overriding its file name (201 Attachment). browser_download_url downloads the
  bytes for whoever may read the repository, and each download is counted. PATCH renames an asset
  and answers 201, as Gitea does; DELETE removes it (204). An asset is only found under its own release.

  Background:
    Given a repository "alice/demo"
    And the repository "alice/demo" has the release "v1.0"

  @gitea
  Scenario: An uploaded asset is downloaded through its browser_download_url
    When "alice" uploads "local.bin" as "tool.bin" with content "the tool's bytes" to the release "v1.0" of "alice/demo"
    Then the response status is 201
    And the response field "name" is "tool.bin"
    And the response field "size" is 16
    When "an anonymous client" downloads the asset "tool.bin" of the release "v1.0" of "alice/demo"
    Then the response status is 200
    And the response body is "the tool's bytes"
    And the asset "tool.bin" of the release "v1.0" of "alice/demo" was downloaded 1 times

  @gitea
  Scenario: An asset is read by its id with the size of its bytes and an address that serves them
    Given the release "v1.0" of "alice/demo" has the asset "tool.bin" with content "the tool's bytes"
    When "an anonymous client" reads the asset "tool.bin" of the release "v1.0" of "alice/demo"
    Then the response status is 200
    And the response field "name" is "tool.bin"
    And the response field "size" is 16
    And the response field "download_count" is 0
    And the browser_download_url answered serves "the tool's bytes" to "an anonymous client"

  @gitea
  Scenario: An asset is downloaded by its release's tag and its name
    Given the release "v1.0" of "alice/demo" has the asset "tool.bin" with content "the tool's bytes"
    When "an anonymous client" downloads "tool.bin" of the release of the tag "v1.0" of "alice/demo"
    Then the response status is 200
    And the response body is "the tool's bytes"

  @gitea
  Scenario: The assets of a draft are not downloaded by readers
    Given the repository "alice/demo" has the draft release "v2.0"
    And the release "v2.0" of "alice/demo" has the asset "tool.bin" with content "draft bytes"
    And a user "bob"
    When "bob" downloads "tool.bin" of the release of the tag "v2.0" of "alice/demo"
    Then the request is refused with status 404

  @gitea
  Scenario: The assets of a private repository are downloaded by readers only
    Given a private repository "alice/secret"
    And the repository "alice/secret" has the release "v1.0"
    And the release "v1.0" of "alice/secret" has the asset "hidden.txt" with content "secret bytes"
    When "an anonymous client" downloads the asset "hidden.txt" of the release "v1.0" of "alice/secret"
    Then the request is refused with status 404

  @gitea
  Scenario: The owner of a private repository downloads its assets
    Given a private repository "alice/secret"
    And the repository "alice/secret" has the release "v1.0"
    And the release "v1.0" of "alice/secret" has the asset "hidden.txt" with content "secret bytes"
    When "alice" downloads the asset "hidden.txt" of the release "v1.0" of "alice/secret"
    Then the response status is 200
    And the response body is "secret bytes"

  @gitea
  Scenario: Renaming an asset answers 201
    Given the release "v1.0" of "alice/demo" has the asset "old.txt" with content "bytes"
    When "alice" renames the asset "old.txt" of the release "v1.0" of "alice/demo" to "new.txt"
    Then the response status is 201
    And the response field "name" is "new.txt"
    And the assets of the release "v1.0" of "alice/demo" are "new.txt"

  @gitea
  Scenario: An asset is deleted
    Given the release "v1.0" of "alice/demo" has the asset "a.txt" with content "bytes"
    And the release "v1.0" of "alice/demo" has the asset "b.txt" with content "bytes"
    When "alice" deletes the asset "a.txt" of the release "v1.0" of "alice/demo"
    Then the response status is 204
    And the assets of the release "v1.0" of "alice/demo" are "b.txt"

  @gitea
  Scenario: An asset is not found under another release
    Given the repository "alice/demo" has the release "v2.0"
    And the release "v1.0" of "alice/demo" has the asset "a.txt" with content "bytes"
    When "alice" reads the asset "a.txt" of the release "v1.0" of "alice/demo" through the release "v2.0"
    Then the request is refused with status 404

  @gitea
  Scenario: A reader cannot upload assets
    Given a user "bob"
    When "bob" uploads "a.txt" as "a.txt" with content "bytes" to the release "v1.0" of "alice/demo"
    Then the request is refused with status 403
    And the assets of the release "v1.0" of "alice/demo" are ""

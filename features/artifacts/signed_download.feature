@artifacts
Feature: GetSignedArtifactURL gives a signed URL that downloads the artifact
  The signed URL is the only credential of the download (no Authorization header). The download
  answers 200 with the stored content type and a Content-Disposition naming the file, and honours
  single byte ranges.

  Background:
    Given a mock runner has taken a job of a new repository
    And the job has uploaded the artifact "bundle" containing "0123456789abcdef"

  @spec @clause_S4_1_GetSignedArtifactURL @clause_S2_1_GetSignedArtifactURLRequest @clause_S2_1_GetSignedArtifactURLResponse @clause_S5_1
  Scenario: The signed URL downloads the artifact's bytes without any other credential
    When the job calls GetSignedArtifactURL for "bundle"
    Then the RPC succeeds
    And the RPC reply field "signed_url" is an absolute URL with a signature
    When the signed URL is fetched without credentials
    Then the download answers 200
    And the downloaded body is "0123456789abcdef"

  @gitea @clause_S4_1_GetSignedArtifactURL
  Scenario: An artifact created without a mime type downloads as a zip named after it
    Gitea stores such an artifact as <name>.zip with type application/zip, as @actions/artifact
    uploads a zip archive when it sends no mime type.
    When the signed URL of "bundle" is fetched without credentials
    Then the download answers 200
    And the download has the header "Content-Type" starting with "application/zip"
    And the download has a Content-Disposition naming the file "bundle.zip"

  @gitea @clause_S4_1_GetSignedArtifactURL
  Scenario: An artifact created with a mime type downloads with that type and its own name
    Given the job has uploaded the artifact "notes.txt" with mime type "text/plain" containing "plain text"
    When the signed URL of "notes.txt" is fetched without credentials
    Then the download answers 200
    And the download has the header "Content-Type" starting with "text/plain"
    And the download has a Content-Disposition naming the file "notes.txt"
    And the downloaded body is "plain text"

  @gitea @clause_S4_1_GetSignedArtifactURL
  Scenario: A single byte range is answered with 206 and that range
    When the signed URL of "bundle" is fetched with the header "Range: bytes=4-7"
    Then the download answers 206
    And the download has the header "Content-Range" equal to "bytes 4-7/16"
    And the downloaded body is "4567"

  @gitea @clause_S4_1_GetSignedArtifactURL
  Scenario: A range starting after the end is answered with 416
    When the signed URL of "bundle" is fetched with the header "Range: bytes=100-200"
    Then the download answers 416

  @reference @clause_S4_1_GetSignedArtifactURL
  Scenario: GetSignedArtifactURL of an unknown name is refused with not_found
    When the job calls GetSignedArtifactURL for "no-such-artifact"
    Then the RPC fails with status 404 and Twirp code "not_found"

  @reference @clause_S4_1_GetSignedArtifactURL
  Scenario: GetSignedArtifactURL of an artifact not yet finalized is refused with not_found
    Given the job has created the artifact "half-done" and uploaded "partial" to it
    When the job calls GetSignedArtifactURL for "half-done"
    Then the RPC fails with status 404 and Twirp code "not_found"

  @reference @clause_S2_1_GetSignedArtifactURLResponse
  Scenario: GetSignedArtifactURL in binary protobuf answers with the field numbers of section 2.1
    When the job calls GetSignedArtifactURL for "bundle" in binary protobuf
    Then the RPC succeeds in binary protobuf
    And the binary reply has field 1 holding an absolute URL with a signature

  @reference @clause_S5_1 @clause_S8_signed_url_lifetime
  Scenario: A signed URL stays valid for its hour after the job has finished
    The signature is the authorization of a download, so a URL handed out while the job ran keeps
    working after the job ended (Gitea requires the task to be still running).
    Given the job has obtained the signed URL of "bundle"
    And the job has finished with result "success"
    When the obtained signed URL is fetched without credentials
    Then the download answers 200
    And the downloaded body is "0123456789abcdef"

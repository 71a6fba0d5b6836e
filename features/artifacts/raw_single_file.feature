@artifacts
Feature: The raw download of a single-file artifact is the file as stored
  An artifact uploaded without an archive (upload-artifact's skipArchive, a real media type) is one file. The
  signed REST .../zip/raw URL serves its bytes as stored, with their content type, inline under the artifact's
  name, as Gitea serves them; it never wraps the file in a ZIP.

  Background:
    Given a mock runner has taken a job of a new repository
    And the job has uploaded the artifact "notes.txt" with mime type "text/plain" containing "plain text"
    And the repository's owner has obtained the raw zip URL of "notes.txt"

  @gitea @clause_S4_3_artifact_zip_raw
  Scenario: The raw URL of a single-file artifact serves its bytes with their content type
    When the obtained raw zip URL is fetched without credentials
    Then the download answers 200
    And the download has the header "Content-Type" starting with "text/plain"
    And the download has a Content-Disposition naming the file "notes.txt"
    And the downloaded body is "plain text"

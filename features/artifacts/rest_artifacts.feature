@artifacts
Feature: Artifacts over REST: list, get, delete and zip download of a repository's artifacts
  Under /repos/{owner}/{repo}/actions: /artifacts lists them as an ActionArtifactsResponse object,
  /runs/{run}/artifacts lists one run's (where {run} is the unique run id, never the per-repository
  run number), /artifacts/{artifact_id} gets or deletes one, /zip answers 302 to the signed
  /zip/raw URL, which serves the file without any other credential.

  Background:
    Given another repository has already had a workflow run
    And a mock runner has taken a job of a new repository
    And the job has uploaded the artifact "dist" containing "packaged bits"
    And the job has uploaded the artifact "docs" containing "manual pages"

  @spec @clause_S4_3_artifacts_list @clause_S2_3_artifact
  Scenario: The repository's artifacts are listed as an object with a total count
    When the repository's owner lists the REST artifacts
    Then the response status is 200
    And the REST artifact list holds exactly "dist,docs"
    And the REST artifact list's total_count is 2

  @gitea @clause_S4_3_artifacts_list
  Scenario: The list can be filtered by name
    When the repository's owner lists the REST artifacts named "docs"
    Then the response status is 200
    And the REST artifact list holds exactly "docs"

  @spec @clause_S4_3_run_artifacts
  Scenario: A run's artifacts are listed under its unique run id
    When the repository's owner lists the REST artifacts of the job's run by its id
    Then the response status is 200
    And the REST artifact list holds exactly "dist,docs"

  @spec @clause_S4_3_run_artifacts
  Scenario: The per-repository run number does not address the run's artifacts
    The run id and the run number differ here because another repository had a run first.
    When the repository's owner lists the REST artifacts of the job's run by its run number
    Then the REST artifact list does not hold "dist"

  @spec @clause_S4_3_artifact_get @clause_S2_3_artifact
  Scenario: One artifact is read by its id, with its run and its download URL
    When the repository's owner gets the REST artifact "dist"
    Then the response status is 200
    And the REST artifact is "dist" with size 13 of the job's run
    And the REST artifact's archive_download_url is its url followed by "/zip"

  @gitea @clause_S4_3_artifact_get
  Scenario: An artifact is not found through another repository
    Given the repository's owner has a second repository
    When the repository's owner gets the REST artifact "dist" through the second repository
    Then the request is refused with status 404

  @spec @clause_S4_3_artifact_delete
  Scenario: A deleted artifact is gone
    When the repository's owner deletes the REST artifact "dist"
    Then the response status is 204
    When the repository's owner gets the REST artifact "dist"
    Then the request is refused with status 404
    When the repository's owner lists the REST artifacts
    Then the REST artifact list holds exactly "docs"
    When the job calls ListArtifacts
    Then the RPC reply lists exactly the artifacts "docs"

  @gitea @clause_S4_3_artifact_delete
  Scenario: A read-only token cannot delete an artifact
    When the repository's owner deletes the REST artifact "dist" with a read-only token
    Then the request is refused with status 403
    When the repository's owner gets the REST artifact "dist"
    Then the response status is 200

  @spec @clause_S4_3_artifact_zip @clause_S4_3_artifact_zip_raw @clause_S2_3_artifact
  Scenario: The zip endpoint redirects to a signed raw URL that serves the file
    When the repository's owner requests the REST zip of "dist"
    Then the response status is 302
    And the REST redirect points to the raw zip of "dist" with a signature
    When the redirect target is fetched without credentials
    Then the download answers 200
    And the downloaded body is "packaged bits"

  @spec @clause_S4_3_artifact_zip_raw @clause_S5_1 @clause_S7_signed_url_401
  Scenario: The raw zip URL without its signature is refused with 401
    When the raw zip URL of "dist" is fetched with no signature
    Then the download answers 401

  @spec @clause_S4_3_artifact_zip_raw @clause_S5_1
  Scenario: An account token cannot stand in for the signature of the raw zip URL
    When the raw zip URL of "dist" is fetched without its signature but with the owner's token
    Then the download answers 401

  @gitea @clause_S4_3_artifact_zip
  Scenario: The zip of an unknown artifact is not found
    When the repository's owner requests the REST zip of an artifact id that does not exist
    Then the request is refused with status 404

  @gitea @clause_S4_3_artifacts_list @clause_S4_3_run_artifacts
  Scenario: Deleting a finished run deletes its artifacts
    Given the job has finished with result "success"
    When the repository's owner deletes the job's run
    Then the response status is 204
    When the repository's owner lists the REST artifacts
    Then the REST artifact list holds exactly ""
    When the repository's owner gets the REST artifact "dist"
    Then the request is refused with status 404

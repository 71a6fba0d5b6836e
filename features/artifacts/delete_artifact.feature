@artifacts
Feature: DeleteArtifact removes an artifact of the job's run
  The reply carries ok and the id of the deleted artifact. Afterwards the artifact is neither
  listed nor downloadable, over the artifact protocol and over REST.

  Background:
    Given a mock runner has taken a job of a new repository
    And the job has uploaded the artifact "obsolete" containing "old data"
    And the job has uploaded the artifact "kept" containing "new data"

  @spec @clause_S4_1_DeleteArtifact @clause_S2_1_DeleteArtifactRequest @clause_S2_1_DeleteArtifactResponse
  Scenario: DeleteArtifact answers ok with the id of the deleted artifact
    When the job calls DeleteArtifact for "obsolete"
    Then the RPC succeeds
    And the RPC reply field "ok" is true
    And the RPC reply field "artifact_id" is the database id of "obsolete"

  @gitea @clause_S4_1_DeleteArtifact
  Scenario: A deleted artifact is no longer listed nor downloadable
    Given the job has deleted the artifact "obsolete"
    When the job calls ListArtifacts
    Then the RPC reply lists exactly the artifacts "kept"
    When the job calls GetSignedArtifactURL for "obsolete"
    Then the RPC fails with status 404 and Twirp code "not_found"

  @gitea @clause_S4_1_DeleteArtifact @clause_S4_3_artifact_get
  Scenario: A deleted artifact is gone from the REST API
    Given the job has deleted the artifact "obsolete"
    When the repository's owner gets the REST artifact "obsolete"
    Then the request is refused with status 404

  @reference @clause_S4_1_DeleteArtifact
  Scenario: DeleteArtifact of an unknown name is refused with not_found
    When the job calls DeleteArtifact for "never-there"
    Then the RPC fails with status 404 and Twirp code "not_found"
    And the job's run lists the artifact "kept" with size 8

  @reference @clause_S2_1_DeleteArtifactResponse
  Scenario: DeleteArtifact in binary protobuf answers with the field numbers of section 2.1
    When the job calls DeleteArtifact for "obsolete" in binary protobuf
    Then the RPC succeeds in binary protobuf
    And the binary reply has field 1 set to true
    And the binary reply has field 2 holding the database id of "obsolete"

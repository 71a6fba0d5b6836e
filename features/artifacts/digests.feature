@artifacts
Feature: Artifact digests: the sha256 kept at finalize is given back when listing
  GitHub's artifact service keeps the hash FinalizeArtifact receives and lists it as "digest" (field 7 of
  ListArtifactsResponse_MonolithArtifact, a wrapped string "sha256:<lowercase hex>") and on its REST artifact
  objects, so actions/download-artifact verifies each download against it. Gitea keeps no digest (its clients
  print "Expected Digest: undefined"), hence the capability. The expected values here are computed from the
  bytes each scenario uploaded.

  Background:
    Given a mock runner has taken a job of a new repository
    And the job has uploaded the artifact "logs" containing "line one"
    And the job has uploaded the artifact "coverage" containing "93 percent"

  @reference @capability_artifact_digest
  Scenario: ListArtifacts gives each artifact the sha256 of what was uploaded
    When the job calls ListArtifacts
    Then the RPC succeeds
    And the listed artifact "logs" has the digest of what the job uploaded
    And the listed artifact "coverage" has the digest of what the job uploaded

  @reference @capability_artifact_digest
  Scenario: The digest is field 7 of a binary listing
    When the job calls ListArtifacts in binary protobuf
    Then the RPC succeeds in binary protobuf
    And the binary listed artifact "coverage" has the digest of what the job uploaded in field 7

  @reference @capability_artifact_digest
  Scenario: An artifact finalized without a hash is listed with the sha256 of the bytes the forge received
    Given the job has created the artifact "unhashed" and uploaded "sent by an older client" to it
    And the job has finalized "unhashed" with size 23 and no hash
    When the job calls ListArtifacts with
      | name_filter | unhashed |
    Then the RPC succeeds
    And the listed artifact "unhashed" has the digest of what the job uploaded

  @reference @capability_artifact_digest
  Scenario: A REST artifact carries its digest
    When the repository's owner gets the REST artifact "logs"
    Then the response status is 200
    And the REST artifact's digest is the sha256 of what the job uploaded as "logs"

  @reference @capability_artifact_digest
  Scenario: The REST artifact list carries every artifact's digest
    When the repository's owner lists the REST artifacts
    Then the response status is 200
    And every REST artifact listed has the digest of what the job uploaded under its name

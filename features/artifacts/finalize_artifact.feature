@artifacts
Feature: FinalizeArtifact seals an uploaded artifact after checking its size and hash
  The hash is "sha256:" followed by the lowercase hex SHA-256 of exactly the uploaded bytes, as the
  official client (@actions/artifact) computes it. Finalize answers ok with the artifact's int64 id; a refusal is a
  Twirp error and leaves the artifact unlisted, never a reply with ok false.

  Background:
    Given a mock runner has taken a job of a new repository
    And the job has created the artifact "report" and uploaded "hello world" to it

  @spec @clause_S4_1_FinalizeArtifact @clause_S2_1_FinalizeArtifactRequest @clause_S2_1_FinalizeArtifactResponse
  Scenario: Finalize with the right size and hash answers ok and the artifact id
    When the job finalizes "report" with size 11 and the sha256 hash of "hello world"
    Then the RPC succeeds
    And the RPC reply field "ok" is true
    And the RPC reply field "artifact_id" is a positive int64
    And the job's run lists the artifact "report" with size 11

  @reference @clause_S2_1_FinalizeArtifactRequest @clause_S2_1_FinalizeArtifactResponse
  Scenario: Finalize in binary protobuf answers with the field numbers of section 2.1
    When the job finalizes "report" with size 11 and the sha256 hash of "hello world" in binary protobuf
    Then the RPC succeeds in binary protobuf
    And the binary reply has field 1 set to true
    And the binary reply has field 2 holding a positive integer

  @gitea @clause_S2_1_FinalizeArtifactRequest
  Scenario: Finalize without a hash checks the size only
    hash is an optional wrapper string; when it is absent only the size is checked.
    When the job finalizes "report" with size 11 and no hash
    Then the RPC succeeds
    And the job's run lists the artifact "report" with size 11

  @reference @clause_S4_1_FinalizeArtifact
  Scenario: Finalize with a wrong size is refused and the artifact stays unlisted
    When the job finalizes "report" with size 12 and the sha256 hash of "hello world"
    Then the RPC fails with status 400 and Twirp code "invalid_argument"
    And the job's run lists no artifacts

  @reference @clause_S4_1_FinalizeArtifact
  Scenario: Finalize with a wrong hash is refused and the artifact stays unlisted
    When the job finalizes "report" with size 11 and the sha256 hash of "hello there"
    Then the RPC fails with status 400 and Twirp code "invalid_argument"
    And the job's run lists no artifacts

  @reference @clause_S4_1_FinalizeArtifact
  Scenario: Finalize with a hash in another format is refused
    The reference accepts only "sha256:<64 lowercase hex digits>" (Gitea skips the check for other
    prefixes); anything else is a client error.
    When the job finalizes "report" with size 11 and the hash "md5:5eb63bbbe01eeed093cb22bb8f5acdc3"
    Then the RPC fails with status 400 and Twirp code "invalid_argument"
    And the job's run lists no artifacts

  @reference @clause_S4_1_FinalizeArtifact
  Scenario: Finalize of an artifact that was never created is refused with not_found
    When the job finalizes "never-created" with size 11 and the sha256 hash of "hello world"
    Then the RPC fails with status 404 and Twirp code "not_found"
    And the job's run lists no artifacts

  @reference @clause_S4_1_FinalizeArtifact
  Scenario: Finalize of an artifact with nothing uploaded is refused
    Given the job has created the artifact "empty-handed"
    When the job finalizes "empty-handed" with size 11 and the sha256 hash of "hello world"
    Then the RPC fails with status 412 and Twirp code "failed_precondition"
    And the job's run lists no artifacts

  @reference @clause_S4_1_FinalizeArtifact
  Scenario: Finalize repeated with the same size and hash answers ok with the same id
    A retried call (the first answer was lost) succeeds again; other values are refused.
    Given the job has finalized "report" with size 11 and the sha256 hash of "hello world"
    When the job finalizes "report" with size 11 and the sha256 hash of "hello world"
    Then the RPC succeeds
    And the RPC reply field "artifact_id" is the database id of "report"
    When the job finalizes "report" with size 12 and the sha256 hash of "hello world!"
    Then the RPC fails with status 412 and Twirp code "failed_precondition"

  @reference @clause_S4_1_FinalizeArtifact
  Scenario: The hex digits of the hash may be upper case
    When the job finalizes "report" with size 11 and the upper-case sha256 hash of "hello world"
    Then the RPC succeeds

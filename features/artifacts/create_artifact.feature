@artifacts
Feature: CreateArtifact opens an artifact of the running job for upload
  A job's runtime token lets it create artifacts of its own run over the artifact protocol, carried
  as Twirp at /twirp/github.actions.results.api.v1.ArtifactService/<Method> (the route act_runner and
  the official client, @actions/artifact, use). Every request carries the run and job backend ids of the job; the reply
  carries ok and an absolute signed URL that accepts the upload.

  Background:
    Given a mock runner has taken a job of a new repository

  @spec @clause_S4_1_CreateArtifact @clause_S4_1_transport @clause_S2_1_namespace @clause_S2_1_CreateArtifactRequest @clause_S2_1_CreateArtifactResponse
  Scenario: CreateArtifact in JSON answers ok with a signed upload URL
    When the job calls CreateArtifact for "build-output"
    Then the RPC succeeds
    And the RPC reply field "ok" is true
    And the RPC reply field "signed_upload_url" is an absolute URL with a signature

  @reference @clause_S4_1_transport @clause_S2_1_namespace @clause_S2_1_CreateArtifactRequest @clause_S2_1_CreateArtifactResponse
  Scenario: CreateArtifact in binary protobuf answers in binary protobuf with the field numbers of section 2.1
    The reference server accepts the binary encoding of the messages as well as JSON (Gitea reads
    JSON only), and answers in the encoding it was asked in.
    When the job calls CreateArtifact for "build-output" in binary protobuf
    Then the RPC succeeds in binary protobuf
    And the binary reply has field 1 set to true
    And the binary reply has field 2 holding an absolute URL with a signature

  @spec @clause_S9_3 @clause_S2_1_CreateArtifactRequest
  Scenario Outline: CreateArtifact accepts the versions the artifact clients send
    The int32 field version (specification 9.3) is sent as 4 by @actions/artifact up to 6.1 and as 7
    by later releases; both open an artifact of the same protocol.
    When the job calls CreateArtifact for "versioned-<version>" with version <version>
    Then the RPC succeeds
    And the RPC reply field "ok" is true

    Examples:
      | version |
      | 4       |
      | 7       |

  @gitea @clause_S2_1_CreateArtifactRequest
  Scenario: CreateArtifact with expires_at and a mime type is accepted
    The optional mime_type is a wrapper string and expires_at a Timestamp; both are accepted as the
    official client 6.2 sends them (RFC 3339 timestamp, bare string for the wrapper).
    When the job calls CreateArtifact with
      | name       | notes.txt            |
      | version    | 7                    |
      | mime_type  | text/plain           |
      | expires_at | 2099-01-01T00:00:00Z |
    Then the RPC succeeds
    And the RPC reply field "ok" is true

  @gitea
  Scenario: The run and job ids may be sent as lowerCamelCase JSON names
    protojson accepts both the proto field names and their lowerCamelCase JSON names, as Gitea's
    decoder does.
    When the job calls CreateArtifact with lowerCamelCase field names for "camel-case"
    Then the RPC succeeds
    And the RPC reply field "ok" is true

  @reference @clause_S9_3 @clause_S2_1_CreateArtifactRequest
  Scenario Outline: Versions of the older v3 protocol are refused
    The reference reads version as the client's protocol generation: 0 (absent) means 4, 4 and
    later are accepted, 1 to 3 belong to the older v3 protocol and are refused.
    When the job calls CreateArtifact for "old-client" with version <version>
    Then the RPC fails with status 400 and Twirp code "invalid_argument"
    And the job's run lists no artifacts

    Examples:
      | version |
      | 1       |
      | 3       |

  @reference @clause_S2_1_CreateArtifactRequest
  Scenario: A name is unique per run: a finalized artifact's name cannot be created again
    Names are unique per workflow run (GitHub's rule since upload-artifact v4); the reference answers
    already_exists rather than silently replacing what another job of the run may have uploaded.
    Given the job has uploaded the artifact "once" containing "first upload"
    When the job calls CreateArtifact for "once"
    Then the RPC fails with status 409 and Twirp code "already_exists"
    And the artifact "once" downloads as "first upload"

  @reference @clause_S2_1_CreateArtifactRequest
  Scenario: Creating a pending artifact again restarts its upload under the same id
    Given the job has created the artifact "retry" and uploaded "stale bytes" to it
    When the job calls CreateArtifact for "retry"
    Then the RPC succeeds
    And the new upload URL names the same artifact id as the first
    When the job uploads "fresh" to the artifact "retry" and finalizes it
    Then the RPC succeeds
    And the artifact "retry" downloads as "fresh"

  @reference @clause_S2_1_namespace
  Scenario: A request naming another job of the run than the token's is refused
    Gitea ignores workflow_job_run_backend_id; the reference requires it to be the token's job.
    When the job calls CreateArtifact for "wrong-job" naming another job id
    Then the RPC fails with status 403 and Twirp code "permission_denied"
    And the job's run lists no artifacts

  @reference @clause_S2_1_CreateArtifactRequest
  Scenario: An expiry in the past is refused
    expires_at is used to the second and must lie in the future; without it the artifact is kept for
    the configured retention (90 days by default).
    When the job calls CreateArtifact with
      | name       | stale                |
      | version    | 4                    |
      | expires_at | 2001-01-01T00:00:00Z |
    Then the RPC fails with status 400 and Twirp code "invalid_argument"

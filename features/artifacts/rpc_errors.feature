@artifacts
Feature: The artifact protocol refuses bad input with a clear Twirp error and changes nothing
  The reference answers every refusal with an HTTP 4xx and a Twirp JSON body {"code", "msg"}, so
  clients fail at once instead of retrying (a plain-text or 5xx answer makes the official client
  retry for about 30 s). Gitea answers plain text, with 500 for several of these cases; its
  scenarios here check only that the request is refused. After a refusal nothing is listed.

  Background:
    Given a mock runner has taken a job of a new repository

  @reference @clause_S2_1_namespace
  Scenario: A body that is not JSON is refused as malformed
    When the job posts the body '{"name": "half' to CreateArtifact as "application/json"
    Then the RPC fails with status 400 and Twirp code "malformed"
    And the job's run lists no artifacts

  @reference @clause_S2_1_namespace
  Scenario: A body that is not a protobuf message is refused as malformed
    When the job posts the bytes "ffffffff" in hex to CreateArtifact as "application/protobuf"
    Then the RPC fails with status 400 and Twirp code "malformed"
    And the job's run lists no artifacts

  @reference @clause_S2_1_namespace
  Scenario: JSON of the wrong shape is refused as malformed
    The name field must be a string; a number is not silently converted.
    When the job posts the body '{"workflow_run_backend_id": "1", "workflow_job_run_backend_id": "1", "name": 5}' to CreateArtifact as "application/json"
    Then the RPC fails with status 400 and Twirp code "malformed"

  @reference @clause_S4_1_CreateArtifact
  Scenario: An unknown RPC is refused as a bad route
    When the job calls the unknown RPC "UploadEverything"
    Then the RPC fails with status 404 and Twirp code "bad_route"

  @reference @clause_S4_1_CreateArtifact
  Scenario: A request without the runtime token is refused
    When the job calls CreateArtifact for "no-token" without an authorization header
    Then the RPC fails with status 401 and Twirp code "unauthenticated"
    And the job's run lists no artifacts

  @reference @clause_S4_1_CreateArtifact
  Scenario Outline: A malformed or forged runtime token is refused
    When the job calls CreateArtifact for "bad-token" with a runtime token that is <defect>
    Then the RPC fails with status 401 and Twirp code "unauthenticated"
    And the job's run lists no artifacts

    Examples:
      | defect                             |
      | not a JWT                          |
      | empty                              |
      | signed with another key            |
      | sent without the Bearer scheme     |
      | the job's token with a changed run |

  @gitea @clause_S2_1_namespace
  Scenario: A token may only act on its own run
    Gitea compares workflow_run_backend_id with the run of the token and refuses a mismatch with 400;
    the reference answers 403 permission_denied with a Twirp body.
    Given a mock runner has taken a job of another new repository
    When the job calls CreateArtifact for "foreign" naming the other job's run
    Then the RPC is refused with a 4xx status
    And the other job's run lists no artifacts

  @reference @clause_S2_1_namespace
  Scenario: A token for another run is refused with permission_denied
    Given a mock runner has taken a job of another new repository
    When the job calls ListArtifacts naming the other job's run
    Then the RPC fails with status 403 and Twirp code "permission_denied"

  @reference @clause_S2_1_CreateArtifactRequest
  Scenario Outline: Artifact names that could escape storage or confuse clients are refused
    The specification does not restrict names; the reference refuses names that are empty, contain
    "..", a slash or backslash, NUL or another control character, as @actions/artifact itself does
    before sending.
    Control characters are written {NUL}, {TAB}, {LF} and {CR}; {EMPTY} is the empty name.
    When the job calls CreateArtifact for the name "<name>"
    Then the RPC fails with status 400 and Twirp code "invalid_argument"
    And the job's run lists no artifacts

    Examples:
      | name            |
      | ../escape       |
      | ..              |
      | dir/file        |
      | back\\slash     |
      | nul{NUL}byte    |
      | line{LF}break   |
      | cr{CR}return    |
      | tab{TAB}char    |
      | {EMPTY}         |

  @reference
  Scenario Outline: An artifact name that becomes a path once normalised is refused: <name>
    Fullwidth full stops and solidus (U+FF0E, U+FF0F) pass a check of ASCII characters, but Unicode
    normalisation (NFKC or NFKD, which clients and file systems apply) turns them into "../": a name
    such as "．．／．ssh／authorized_keys" would reach a download's Content-Disposition as
    "../.ssh/authorized_keys". The reference judges every normalised form of a name.
    When the job calls CreateArtifact for the name "<name>"
    Then the RPC fails with status 400 and Twirp code "invalid_argument"
    And the job's run lists no artifacts

    Examples:
      | name                            |
      | ．．／．．／．ssh／authorized_keys |
      | ．．                              |
      | a／b                             |
      | a＼b                             |

  @reference @clause_S4_1_ListArtifacts
  Scenario: The runtime token of a finished job is refused
    A runtime token authorizes its job while the job runs; once the runner reported the job's result
    the token is refused with unauthenticated (Gitea answers 500 for a task that is not running).
    Given the job has uploaded the artifact "before-the-end" containing "kept"
    And the job has finished with result "success"
    When the job calls ListArtifacts
    Then the RPC fails with status 401 and Twirp code "unauthenticated"

@artifacts
Feature: The signed upload URL takes the artifact's bytes as Azure-style blocks
  The official client uploads through the Azure blob SDK: each block is a PUT with comp=block and a
  blockid, then one PUT with comp=blocklist names the blocks in order. The SDK requires exactly 201
  for both, sends blocks concurrently (so in any order), and sends an empty block list for an empty
  artifact. The signed URL is the only credential: no Authorization header is sent. Block ids are
  base64, as the SDK makes them: a step's block "first" is sent as the base64 of "first".

  Background:
    Given a mock runner has taken a job of a new repository
    And the job has created the artifact "blocks"

  @gitea @clause_S5_1
  Scenario: Blocks and the block list are each answered with 201
    When the job uploads the block "b1" containing "hello " to the artifact "blocks"
    Then the upload answers 201
    When the job commits the block list "b1" for the artifact "blocks"
    Then the upload answers 201

  @gitea @clause_S5_1 @clause_S4_1_FinalizeArtifact
  Scenario: Blocks uploaded out of order are assembled in block-list order
    Given the job has uploaded the block "second" containing "world" to the artifact "blocks"
    And the job has uploaded the block "first" containing "hello " to the artifact "blocks"
    And the job has committed the block list "first,second" for the artifact "blocks"
    When the job finalizes "blocks" with size 11 and the sha256 hash of "hello world"
    Then the RPC succeeds
    And the artifact "blocks" downloads as "hello world"

  @reference @clause_S4_1_FinalizeArtifact
  Scenario: An empty block list makes an empty artifact
    Gitea cannot finalize an artifact with no data (500); the reference accepts an empty block list
    as a zero-byte artifact, since @actions/artifact sends exactly that for an empty upload.
    Given the job has committed the block list "" for the artifact "blocks"
    When the job finalizes "blocks" with size 0 and the sha256 hash of ""
    Then the RPC succeeds
    And the job's run lists the artifact "blocks" with size 0

  @reference @clause_S5_1
  Scenario: A block list naming a block that was never uploaded is refused
    Given the job has uploaded the block "real" containing "data" to the artifact "blocks"
    When the job commits the block list "real,ghost" for the artifact "blocks"
    Then the upload answers 400
    And the job's run lists no artifacts

  @reference @clause_S5_1
  Scenario Outline: Block ids that are not base64 are refused, so none can escape storage
    Gitea stores blocks under an encoded name and accepts such ids; the reference accepts only
    base64 ids of at most 100 characters and refuses others with 400 so a broken client is noticed.
    The ids below are sent as they are, not encoded; {NUL} is a NUL character.
    When the job uploads data under the raw block id "<block id>" to the artifact "blocks"
    Then the upload answers 400

    Examples:
      | block id        |
      | ../../escape    |
      | /../myfile      |
      | ..              |
      | dir/..          |
      | nul{NUL}id      |
      | {EMPTY}         |

  @spec @clause_S5_1 @clause_S7_signed_url_401
  Scenario Outline: An upload with a broken signature is refused with 401
    When the job uploads the block "b1" containing "x" to the artifact "blocks" through its upload URL with <tampering>
    Then the upload answers 401

    Examples:
      | tampering              |
      | a tampered signature   |
      | no signature           |
      | a changed artifact id  |
      | a changed expiry       |

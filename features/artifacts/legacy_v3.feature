@artifacts @capability_artifacts_v3
Feature: The legacy artifact protocol (v3) at ACTIONS_RUNTIME_URL round-trips a job's files
  upload-artifact@v3 and download-artifact@v3 (@actions/artifact 1.x) still run on many installations.
  They talk to {ACTIONS_RUNTIME_URL}_apis/pipelines/workflows/{run}/artifacts with the job's runtime token:
  a POST gives the upload URL (named by the MD5 of the artifact name), each file is PUT in chunks with a
  Content-Range (gzip'ed when that makes it smaller), the size PATCH merges the chunks, then the run's
  artifacts are listed, each artifact's files listed and each file downloaded. Refusals on these routes
  are plain text, as Gitea writes them.

  Background:
    Given a mock runner has taken a job of a new repository

  @gitea
  Scenario: Files uploaded and confirmed are listed and download byte for byte
    Given the job has uploaded the file "a.txt" holding "alpha" to the v3 artifact "reports"
    And the job has uploaded the file "sub/b.txt" holding "beta" to the v3 artifact "reports"
    And the job has uploaded the file "empty.txt" holding "" to the v3 artifact "reports"
    And the job has confirmed the v3 artifact "reports"
    When the job lists its run's v3 artifacts
    Then the v3 artifact list holds exactly "reports"
    And the file "sub/b.txt" of the v3 artifact "reports" downloads as "beta"
    And the file "empty.txt" of the v3 artifact "reports" downloads as ""

  @gitea
  Scenario: An artifact's file listing names every file under the artifact's name
    Given the job has uploaded the file "a.txt" holding "alpha" to the v3 artifact "reports"
    And the job has uploaded the file "sub/b.txt" holding "beta" to the v3 artifact "reports"
    And the job has confirmed the v3 artifact "reports"
    When the job lists the files of the v3 artifact "reports"
    Then the v3 artifact's files are exactly "reports/a.txt,reports/sub/b.txt"

  @gitea
  Scenario: Chunks sent out of order are merged in byte order by the size patch
    Given the job has uploaded "world" as bytes 6 to 10 of 11 of "greeting.txt" in the v3 artifact "parts"
    And the job has uploaded "hello " as bytes 0 to 5 of 11 of "greeting.txt" in the v3 artifact "parts"
    When the job confirms the v3 artifact "parts"
    Then the response status is 200
    And the file "greeting.txt" of the v3 artifact "parts" downloads as "hello world"

  @gitea
  Scenario: A gzip'ed file is served gzip'ed for the client to inflate
    Given the job has uploaded the file "log.txt" holding "line one, line two, line three" gzip'ed to the v3 artifact "logs"
    And the job has confirmed the v3 artifact "logs"
    When the job downloads the file "log.txt" of the v3 artifact "logs"
    Then the v3 download is sent gzip'ed
    And the v3 download holds "line one, line two, line three"

  @reference
  Scenario: A size patch while a chunk is missing is refused and nothing is listed
    Gitea answers 200 and leaves the file unconfirmed; the reference says so with 400.
    Given the job has uploaded "hello " as bytes 0 to 5 of 11 of "greeting.txt" in the v3 artifact "parts"
    When the job confirms the v3 artifact "parts"
    Then the v3 call is refused with status 400
    And the job's run lists no v3 artifacts

  @gitea
  Scenario: A run without artifacts answers its list with 404
    When the job lists its run's v3 artifacts
    Then the response status is 404

  @gitea
  Scenario: A request naming another run than the token's is refused
    When the job creates the v3 artifact "elsewhere" under another run id
    Then the response status is 400
    And the v3 refusal reads "run-id does not match"

  @gitea
  Scenario: A request without the runtime token is refused
    When the job creates the v3 artifact "anonymous" without a token
    Then the response status is 401
    And the v3 refusal reads "Bad authorization header"

  @reference
  Scenario: A forged runtime token is refused with 401
    Gitea answers 500 when the token maps to no running task; the reference answers 401.
    When the job creates the v3 artifact "forged" with a forged token
    Then the v3 call is refused with status 401

  @reference
  Scenario: A container request without the api-version is refused
    Every v3 client sends api-version=6.0-preview on the container routes; Gitea does not look at it.
    When the job creates the v3 artifact "unversioned" without the api-version
    Then the v3 call is refused with status 400

  @gitea
  Scenario: A file whose item path names another artifact than the upload URL is refused
    When the job uploads "data" as "other/file.txt" to the upload URL of the v3 artifact "mine"
    Then the response status is 400
    And the v3 refusal reads "Invalid artifact hash"

  @reference
  Scenario Outline: A chunk whose Content-Range is malformed or does not fit its body is refused
    Gitea answers 500 to a Content-Range it cannot parse; the reference refuses each with 400 and stores nothing.
    When the job uploads "0123456789" to "ranges/file.bin" of the v3 artifact "ranges" with the Content-Range "<range>"
    Then the v3 call is refused with status 400

    Examples:
      | range          |
      | {EMPTY}        |
      | bytes 0-9      |
      | bytes 5-2/10   |
      | bytes 0-9/5    |
      | bytes 0-19/20  |
      | bytes 0-4/10   |
      | items 0-9/10   |

  @reference
  Scenario Outline: An item path leaving the artifact is refused
    When the job uploads "data" to "<item path>" of the v3 artifact "paths" with the Content-Range "bytes 0-3/4"
    Then the v3 call is refused with status 400

    Examples:
      | item path          |
      | paths/../escape    |
      | paths/a/../../x    |
      | paths/./a          |
      | paths              |
      | paths/             |
      | paths/a\\b         |
      | paths/nul{NUL}x    |

  @gitea
  Scenario: v3 artifacts are not listed by the REST API
    Gitea's REST artifact routes show only v4 artifacts: a v3 artifact has one row per file, no single id.
    Given the job has uploaded the file "a.txt" holding "alpha" to the v3 artifact "legacy"
    And the job has confirmed the v3 artifact "legacy"
    When the repository's owner lists the REST artifacts
    Then the REST artifact list does not hold "legacy"
    And the REST artifact list's total_count is 0

  @gitea
  Scenario: A v3 file's id is no REST artifact
    Given the job has uploaded the file "a.txt" holding "alpha" to the v3 artifact "legacy"
    And the job has confirmed the v3 artifact "legacy"
    And the REST id of the v3 file "a.txt" of "legacy" is known as "legacy-file"
    When the repository's owner gets the REST artifact "legacy-file"
    Then the request is refused with status 404

@gitdata
Feature: A repository's blobs, read through the Git data API
  GET /repos/{owner}/{repo}/git/blobs/{sha} answers Gitea's GitBlobResponse: the object's content in
  base64 with its size and its URL. The SHA must be a full object id: a malformed or unknown one is
  refused with 400 and Go's message, not 404 (routers/api/v1/repo/blob.go, services/repository/files/content.go).

  Background:
    Given a repository "alice/demo"
    And the repository "alice/demo" has the file "notes.txt" with content "hello, blobs"

  @gitea
  Scenario: A blob's content comes in base64 with its size
    When "alice" reads the blob of the file "notes.txt" of "alice/demo"
    Then the response status is 200
    And the blob holds "hello, blobs" in base64
    And the response field "sha" is the Git blob hash of "hello, blobs"

  @gitea
  Scenario: Anyone who may read a public repository reads its blobs
    When "an anonymous client" reads the blob of the file "notes.txt" of "alice/demo"
    Then the response status is 200
    And the blob holds "hello, blobs" in base64

  @gitea
  Scenario: A SHA that is not a full object id is refused with 400
    When "alice" reads the blob "badref" of "alice/demo"
    Then the request is refused with status 400
    And the error message mentions "length 6 has no matched object format"

  @gitea
  Scenario: An unknown blob is refused with 400
    When "alice" reads the blob "the unknown commit" of "alice/demo"
    Then the request is refused with status 400

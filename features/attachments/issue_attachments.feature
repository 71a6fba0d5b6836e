@attachments
Feature: Files attached to issues and comments
  /repos/{owner}/{repo}/issues/{index}/assets and /issues/comments/{id}/assets upload (the multipart
  field "attachment"), list, read, rename and delete files, as in Gitea 1.27. Readers list and read; an
  issue's files are changed by its poster or a writer of the issues (403 otherwise), a comment's by a
  writer who posted it or administers the repository. Uploads and renames keep to the instance's
  attachment settings (GET /settings/attachment: the allowed file types, 422 otherwise). Each file's
  browser_download_url serves its bytes to whoever may read the repository. The Issue and Comment
  models show their files in "assets"; deleting the issue deletes its files.

  Background:
    Given a repository "dev/app"
    And a user "bob"
    And "bob" opened the issue "Crash" in "dev/app"

  @gitea
  Scenario: The issue's poster attaches a file and the issue shows it
    When "bob" attaches "crash.log" with content "segfault at 0x0" to issue 1 of "dev/app"
    Then the response status is 201
    And the response field "name" is "crash.log"
    And the response field "size" is 15
    And the response field "download_count" is 0
    And issue 1 of "dev/app" shows the asset "crash.log" of 15 bytes

  @gitea
  Scenario: The download address serves the attached bytes to a reader
    Given "bob" attached "crash.log" with content "segfault at 0x0" to issue 1 of "dev/app"
    When "an anonymous client" downloads the attachment "crash.log" of issue 1 of "dev/app"
    Then the response status is 200
    And the response body is "segfault at 0x0"

  @gitea
  Scenario: A file type the instance does not allow is refused with 422 and not stored
    When "bob" attaches "setup.exe" with content "MZ" to issue 1 of "dev/app"
    Then the request is refused with status 422
    And the error message mentions "forbidden file extension or type"
    And the attachments of issue 1 of "dev/app" are "nothing"

  @gitea
  Scenario: Somebody who neither posted the issue nor writes may not attach to it
    Given a user "eve"
    When "eve" attaches "notes.txt" with content "spam" to issue 1 of "dev/app"
    Then the request is refused with status 403
    And the attachments of issue 1 of "dev/app" are "nothing"

  @gitea
  Scenario: An issue's attachments are listed
    Given "bob" attached "one.txt" with content "1" to issue 1 of "dev/app"
    And "dev" attached "two.txt" with content "22" to issue 1 of "dev/app"
    When "bob" lists the attachments of issue 1 of "dev/app"
    Then the response status is 200
    And the response lists the attachments "one.txt, two.txt"

  @gitea
  Scenario: An issue's attachment is read
    Given "bob" attached "one.txt" with content "1" to issue 1 of "dev/app"
    When "bob" reads the attachment "one.txt" of issue 1 of "dev/app"
    Then the response status is 200
    And the response field "name" is "one.txt"
    And the response field "size" is 1

  @gitea
  Scenario: The poster renames an attachment
    Given "bob" attached "one.txt" with content "1" to issue 1 of "dev/app"
    When "bob" renames the attachment "one.txt" of issue 1 of "dev/app" to "first.md"
    Then the response status is 201
    And the response field "name" is "first.md"
    And the attachments of issue 1 of "dev/app" are "first.md"

  @gitea
  Scenario: A rename to a file type the instance does not allow is refused and changes nothing
    Given "bob" attached "one.txt" with content "1" to issue 1 of "dev/app"
    When "bob" renames the attachment "one.txt" of issue 1 of "dev/app" to "one.exe"
    Then the request is refused with status 422
    And the attachments of issue 1 of "dev/app" are "one.txt"

  @gitea
  Scenario: A deleted attachment is no longer listed
    Given "bob" attached "one.txt" with content "1" to issue 1 of "dev/app"
    When "bob" deletes the attachment "one.txt" of issue 1 of "dev/app"
    Then the response status is 204
    And the attachments of issue 1 of "dev/app" are "nothing"

  @gitea
  Scenario: The download of a deleted attachment is not found
    Given "bob" attached "one.txt" with content "1" to issue 1 of "dev/app"
    And the download address of "one.txt" of issue 1 of "dev/app" is noted
    And "bob" deleted the attachment "one.txt" of issue 1 of "dev/app"
    When "bob" downloads the noted address
    Then the request is refused with status 404

  @gitea
  Scenario: A writer attaches a file to their comment and the comment shows it
    Given "dev" commented "Stack trace attached" on issue 1 of "dev/app"
    When "dev" attaches "trace.txt" with content "at main()" to the comment of "dev/app"
    Then the response status is 201
    And the response field "name" is "trace.txt"
    And the comment of "dev/app" shows the asset "trace.txt"
    And the attachments of issue 1 of "dev/app" are "nothing"

  @gitea
  Scenario: A reader may not attach a file to a comment, even their own
    Given "bob" commented "Here is more" on issue 1 of "dev/app"
    When "bob" attaches "more.txt" with content "x" to the comment of "dev/app"
    Then the request is refused with status 403
    And the attachments of the comment of "dev/app" are "nothing"

  @gitea
  Scenario: A comment's attachments are listed
    Given "dev" commented "Logs" on issue 1 of "dev/app"
    And "dev" attached "a.log" with content "a" to the comment of "dev/app"
    And "dev" attached "b.log" with content "b" to the comment of "dev/app"
    When "bob" lists the attachments of the comment of "dev/app"
    Then the response status is 200
    And the response lists the attachments "a.log, b.log"

  @gitea
  Scenario: A comment's attachment is read and downloaded
    Given "dev" commented "Logs" on issue 1 of "dev/app"
    And "dev" attached "a.log" with content "alpha" to the comment of "dev/app"
    When "bob" downloads the attachment "a.log" of the comment of "dev/app"
    Then the response status is 200
    And the response body is "alpha"

  @gitea
  Scenario: A comment's attachment is read by its id
    Given "dev" commented "Logs" on issue 1 of "dev/app"
    And "dev" attached "a.log" with content "alpha" to the comment of "dev/app"
    When "bob" reads the attachment "a.log" of the comment of "dev/app"
    Then the response status is 200
    And the response field "name" is "a.log"
    And the response field "size" is 5

  @gitea
  Scenario: An issue's own attachment is not one of its comment's
    Given "bob" attached "one.txt" with content "1" to issue 1 of "dev/app"
    And "dev" commented "Logs" on issue 1 of "dev/app"
    When "bob" reads the attachment "one.txt" of issue 1 of "dev/app" through the comment
    Then the request is refused with status 404

  @gitea
  Scenario: A writer renames a comment's attachment
    Given "dev" commented "Logs" on issue 1 of "dev/app"
    And "dev" attached "a.log" with content "alpha" to the comment of "dev/app"
    When "dev" renames the attachment "a.log" of the comment of "dev/app" to "first.log"
    Then the response status is 201
    And the response field "name" is "first.log"
    And the attachments of the comment of "dev/app" are "first.log"

  @gitea
  Scenario: A writer deletes a comment's attachment
    Given "dev" commented "Logs" on issue 1 of "dev/app"
    And "dev" attached "a.log" with content "alpha" to the comment of "dev/app"
    When "dev" deletes the attachment "a.log" of the comment of "dev/app"
    Then the response status is 204
    And the attachments of the comment of "dev/app" are "nothing"

  @gitea
  Scenario: A reader may not delete a comment's attachment
    Given "dev" commented "Logs" on issue 1 of "dev/app"
    And "dev" attached "a.log" with content "alpha" to the comment of "dev/app"
    When "bob" deletes the attachment "a.log" of the comment of "dev/app"
    Then the request is refused with status 403
    And the attachments of the comment of "dev/app" are "a.log"

  @gitea
  Scenario: Deleting the issue deletes its files
    Given "bob" attached "one.txt" with content "1" to issue 1 of "dev/app"
    And the download address of "one.txt" of issue 1 of "dev/app" is noted
    And "dev" deleted issue 1 of "dev/app"
    When "bob" downloads the noted address
    Then the request is refused with status 404

  @gitea
  Scenario: The attachments of a private repository are not downloaded by strangers
    Given a private repository "dev/secret"
    And "dev" opened the issue "Leak" in "dev/secret"
    And "dev" attached "key.txt" with content "hunter2" to issue 1 of "dev/secret"
    When "an anonymous client" downloads the attachment "key.txt" of issue 1 of "dev/secret"
    Then the request is refused with status 404

@packages
Feature: The generic package registry
  Files are put into a generic package with PUT /api/packages/{owner}/generic/{name}/{version}/{filename}
  (the body is the file; the version and the package are made by the first upload), read back with GET as
  an attachment, and removed with DELETE on the file or on the whole version. The owner is a user or an
  organization: the user and the organization's members with write access on packages may write, whoever
  may see the owner may read. The registry answers in plain text and refuses a missing access with 401 and
  a challenge, so package clients offer their credentials. A version never holds two files of one name
  (409), and names are checked as Gitea checks them (400). Package types other than generic are not served.

  Background:
    Given a user "alice"
    And a user "bob"

  @gitea
  Scenario: A file uploaded is downloaded byte for byte
    Given "alice" uploaded the file "tool-linux.tar.gz" to the generic package "alice/tool" version "1.0.0"
    When "bob" downloads the file "tool-linux.tar.gz" of the generic package "alice/tool" version "1.0.0"
    Then the body is the bytes uploaded as "tool-linux.tar.gz" to "alice/tool" version "1.0.0"
    And the response header "Content-Type" is "application/octet-stream"

  @gitea
  Scenario: The owner uploads a file into a new version
    When "alice" uploads the file "tool.bin" to the generic package "alice/tool" version "2.1.0"
    Then the response status is 201
    And the files of the generic package "alice/tool" version "2.1.0" are the bytes uploaded as "tool.bin"

  @gitea
  Scenario Outline: Package clients upload with basic auth
    When "alice" uploads the file "tool.bin" to the generic package "alice/tool" version "1.0.0" with basic auth and their <secret>
    Then the response status is 201
    And "bob" downloads "tool.bin" of the generic package "alice/tool" version "1.0.0" as uploaded

    Examples:
      | secret                |
      | password              |
      | token as the password |

  @gitea
  Scenario: A version already holding a file of that name keeps it
    Given "alice" uploaded the file "tool.bin" to the generic package "alice/tool" version "1.0.0"
    When "alice" uploads the file "tool.bin" to the generic package "alice/tool" version "1.0.0"
    Then the registry refuses with status 409 saying "package file already exists"
    And "bob" downloads "tool.bin" of the generic package "alice/tool" version "1.0.0" as uploaded

  @gitea
  Scenario Outline: Names the generic registry refuses
    When "alice" uploads the file "<file>" to the generic package "alice/<name>" version "1.0.0"
    Then the registry refuses with status 400 saying "<message>"

    Examples:
      | name | file     | message              |
      | ..   | tool.bin | invalid package name |
      | -    | tool.bin | invalid package name |
      | tool | ..       | invalid filename     |
      | tool | a<b>.bin | invalid filename     |

  @gitea
  Scenario: A file name padded with spaces is refused
    When "alice" uploads the file " tool.bin" to the generic package "alice/tool" version "1.0.0"
    Then the registry refuses with status 400 saying "invalid filename"

  @gitea
  Scenario: A version padded with spaces is refused
    When "alice" uploads the file "tool.bin" to the generic package "alice/tool" version "1.0.0 "
    Then the registry refuses with status 400 saying "invalid package version"

  @gitea
  Scenario: Another user may not upload into a user's packages
    When "bob" uploads the file "tool.bin" to the generic package "alice/tool" version "1.0.0"
    Then the registry asks for credentials
    And "alice" finds no file "tool.bin" in the generic package "alice/tool" version "1.0.0"

  @gitea
  Scenario: An anonymous upload is asked for credentials
    When "an anonymous client" uploads the file "tool.bin" to the generic package "alice/tool" version "1.0.0"
    Then the registry asks for credentials

  @gitea
  Scenario: A token without write on packages may not upload
    Given a user "carol" with a token scoped "read:package"
    When "carol" uploads the file "tool.bin" to the generic package "carol/tool" version "1.0.0"
    Then the registry asks for credentials

  @gitea
  Scenario: A member of a team with write access uploads into the organization's packages
    Given an organization "acme" owned by "alice"
    And a team "builders" of "acme" with the permission "write"
    And "bob" is in the team "builders" of "acme"
    When "bob" uploads the file "tool.bin" to the generic package "acme/tool" version "1.0.0"
    Then the response status is 201
    And the generic package "acme/tool" version "1.0.0" was uploaded by "bob"

  @gitea
  Scenario: A member of a read-only team may not upload into the organization's packages
    Given an organization "acme" owned by "alice"
    And a team "readers" of "acme" with the permission "read"
    And "bob" is in the team "readers" of "acme"
    When "bob" uploads the file "tool.bin" to the generic package "acme/tool" version "1.0.0"
    Then the registry asks for credentials

  @gitea
  Scenario: Deleting a file leaves the version's other files
    Given "alice" uploaded the file "a.bin" to the generic package "alice/tool" version "1.0.0"
    And "alice" uploaded the file "b.bin" to the generic package "alice/tool" version "1.0.0"
    When "alice" deletes the file "a.bin" of the generic package "alice/tool" version "1.0.0"
    Then the response status is 204
    And "alice" finds no file "a.bin" in the generic package "alice/tool" version "1.0.0"
    And the files of the generic package "alice/tool" version "1.0.0" are the bytes uploaded as "b.bin"

  @gitea
  Scenario: Deleting a version's last file deletes the version
    Given "alice" uploaded the file "a.bin" to the generic package "alice/tool" version "1.0.0"
    When "alice" deletes the file "a.bin" of the generic package "alice/tool" version "1.0.0"
    Then the response status is 204
    And "alice" finds no version "1.0.0" of the "generic" package "alice/tool"

  @gitea
  Scenario: Deleting a version in the registry deletes its files
    Given "alice" uploaded the file "a.bin" to the generic package "alice/tool" version "1.0.0"
    And "alice" uploaded the file "a.bin" to the generic package "alice/tool" version "2.0.0"
    When "alice" deletes the version "1.0.0" of the generic package "alice/tool" in the registry
    Then the response status is 204
    And "alice" finds no file "a.bin" in the generic package "alice/tool" version "1.0.0"
    And "bob" downloads "a.bin" of the generic package "alice/tool" version "2.0.0" as uploaded

  @gitea
  Scenario: Another user may not delete a user's version
    Given "alice" uploaded the file "a.bin" to the generic package "alice/tool" version "1.0.0"
    When "bob" deletes the version "1.0.0" of the generic package "alice/tool" in the registry
    Then the registry asks for credentials

  @gitea
  Scenario: A file that was never uploaded is not found
    Given "alice" uploaded the file "a.bin" to the generic package "alice/tool" version "1.0.0"
    When "bob" downloads the file "b.bin" of the generic package "alice/tool" version "1.0.0"
    Then the registry refuses with status 404 saying "package file does not exist"

  @gitea
  Scenario: The files of a private organization are not served to outsiders
    Given an organization "acme" owned by "alice"
    And the organization "acme" is private
    And "alice" uploaded the file "tool.bin" to the generic package "acme/tool" version "1.0.0"
    When "bob" downloads the file "tool.bin" of the generic package "acme/tool" version "1.0.0"
    Then the registry asks for credentials

  @gitea
  Scenario: Package types the forge does not serve are not found
    When "alice" requests "npm/left-pad" from the package registry of "alice"
    Then the response status is 404

@licenses
Feature: The licenses of a repository are detected from the license files of its default branch
  GET /repos/{owner}/{repo}/licenses answers the SPDX identifiers found in the license files at the
  root of the default branch, sorted; Repository.licenses holds the same list. They are recomputed
  when the default branch receives a push, when the repository is created (from a license template,
  or as a mirror) and when the default branch changes. Without a license file the list is empty.
  The reference reads LICENSE, LICENCE, COPYING and UNLICENSE, bare or as .md, .txt or .rst, in any
  case (Gitea 1.27 reads only LICENSE).

  @spec @clause_S1_license_detection @clause_S2_3_license
  Scenario: Creation from a license template detects that license
    Given a repository "alice/lic" created with the options
      """
      {"auto_init": true, "license": "MIT"}
      """
    Then the detected licenses of "alice/lic" become "MIT"

  @spec @clause_S1_license_detection
  Scenario: Code readers read the detected licenses
    Given a repository "alice/lic" created with the options
      """
      {"auto_init": true, "license": "Apache-2.0"}
      """
    When "an anonymous client" reads the detected licenses of "alice/lic"
    Then the response status is 200
    And the response field "0" is "Apache-2.0"

  @spec @clause_S2_3_license
  Scenario: A push to the default branch recomputes the licenses
    Given a repository "alice/demo"
    When "alice" commits the "Apache-2.0" license text to "LICENSE" of "alice/demo"
    Then the response status is 201
    And the detected licenses of "alice/demo" become "Apache-2.0"

  @spec @clause_S2_3_license
  Scenario: A git push over HTTPS to the default branch recomputes the licenses
    Given a repository "alice/demo"
    When "alice" pushes the "MPL-2.0" license text as "LICENSE" to the branch "main" of "alice/demo" over HTTPS
    Then the branch "main" of "alice/demo" is at the pushed commit
    And the detected licenses of "alice/demo" become "MPL-2.0"

  @spec @clause_S2_3_license
  Scenario: Replacing the license file on the default branch replaces the detected license
    Given a repository "alice/demo"
    And the repository "alice/demo" has the "MIT" license text in "LICENSE"
    When "alice" commits the "BSD-3-Clause" license text to "LICENSE" of "alice/demo"
    Then the response status is 200
    And the detected licenses of "alice/demo" become "BSD-3-Clause"

  @spec @clause_S2_3_license
  Scenario: Removing the license file clears the detected licenses
    Given a repository "alice/demo"
    And the repository "alice/demo" has the "MIT" license text in "LICENSE"
    When "alice" deletes the file "LICENSE" from "alice/demo"
    Then the response status is 200
    And "alice/demo" has no detected license

  @spec @clause_S2_3_license
  Scenario: A push to another branch leaves the detected licenses alone
    Given a repository "alice/demo"
    And the repository "alice/demo" has the "MIT" license text in "LICENSE"
    And the repository "alice/demo" has a branch "dev"
    When "alice" commits the "Apache-2.0" license text to "COPYING" on the branch "dev" of "alice/demo"
    Then the response status is 201
    And the detected licenses of "alice/demo" are still "MIT"

  @spec @clause_S2_3_license
  Scenario: A branch update that moves the default branch recomputes the licenses
    Given a repository "alice/demo"
    And the repository "alice/demo" has the "MIT" license text in "LICENSE"
    And the repository "alice/demo" has a branch "dev"
    And the branch "dev" of "alice/demo" has the "Apache-2.0" license text in "COPYING"
    When "alice" moves the branch "main" of "alice/demo" to the head of "dev"
    Then the response status is 204
    And the detected licenses of "alice/demo" become "Apache-2.0, MIT"

  @spec @clause_S2_3_license
  Scenario: Changing the default branch recomputes the licenses from the new default branch
    Given a repository "alice/demo"
    And the repository "alice/demo" has the "MIT" license text in "LICENSE"
    And the repository "alice/demo" has a branch "dev"
    And the branch "dev" of "alice/demo" has the "Apache-2.0" license text in "COPYING"
    When "alice" makes "dev" the default branch of "alice/demo"
    Then the response status is 200
    And the detected licenses of "alice/demo" become "Apache-2.0, MIT"

  @spec @clause_S2_3_license
  Scenario: A new mirror detects the licenses of what it mirrors
    Given a repository "alice/upstream"
    And the repository "alice/upstream" has the "MIT" license text in "LICENSE"
    And "alice" mirrored "alice/upstream" as "alice/copy" with her token
    Then the detected licenses of "alice/copy" become "MIT"

  @spec @clause_S2_3_license
  Scenario: A mirror sync that brings a new license file recomputes the licenses
    Given a repository "alice/upstream"
    And "alice" mirrored "alice/upstream" as "alice/copy" with her token
    And the repository "alice/upstream" has the "ISC" license text in "LICENSE"
    When "alice" syncs the mirror "alice/copy"
    Then the detected licenses of "alice/copy" become "ISC"

  @spec @clause_S2_3_license
  Scenario: A fork detects the licenses of its source
    Given a user "bob"
    And a repository "alice/lic" created with the options
      """
      {"auto_init": true, "license": "MIT"}
      """
    When "bob" forks "alice/lic" as "bob/copy"
    Then the response status is 202
    And the detected licenses of "bob/copy" become "MIT"

  @reference
  Scenario: Two license files give both licenses, sorted (the reference reads COPYING as well as LICENSE)
    Given a repository "alice/dual"
    And the repository "alice/dual" has the "MIT" license text in "LICENSE.md"
    When "alice" commits the "Apache-2.0" license text to "COPYING" of "alice/dual"
    Then the detected licenses of "alice/dual" become "Apache-2.0, MIT"

  @gitea
  Scenario: A file that is no license gives no detected license
    Given a repository "alice/demo"
    And the repository "alice/demo" has the file "LICENSE" with content "All rights reserved by nobody in particular."
    Then "alice/demo" has no detected license

  @gitea
  Scenario: The licenses of a private repository are hidden from others
    Given a user "bob"
    And a repository "alice/lic" created with the options
      """
      {"auto_init": true, "license": "MIT", "private": true}
      """
    When "bob" reads the detected licenses of "alice/lic"
    Then the request is refused with status 404

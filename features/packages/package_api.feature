@packages
Feature: Gitea's package API
  GET /api/v1/packages/{owner} lists every version of every package of an owner, newest first, with a type
  filter, a name filter (q) and paging; /packages/{owner}/{type}/{name} lists one package's versions and
  deletes the whole package, /-/latest answers its newest version, /{version} one version (GET, DELETE) and
  /{version}/files its files with their size and hashes. A package is linked to one repository of its owner
  with POST /-/link/{repo_name} and unlinked with POST /-/unlink. The API needs a token (the package scope
  category); reading needs to see the owner, writing the owner's write access on packages (403 otherwise).

  Background:
    Given a user "alice"
    And a user "bob"
    And "alice" uploaded the file "tool.bin" to the generic package "alice/tool" version "1.0.0"
    And "alice" uploaded the file "tool.bin" to the generic package "alice/tool" version "1.1.0"
    And "alice" uploaded the file "other.bin" to the generic package "alice/other" version "0.1"

  @gitea
  Scenario: The packages of an owner are listed newest first
    When "bob" lists the packages of "alice"
    Then the response status is 200
    And the packages listed are "other@0.1, tool@1.1.0, tool@1.0.0"
    And the response header "X-Total-Count" is "3"

  @gitea
  Scenario: The packages of an owner are paged
    When "bob" lists the packages of "alice" 2 per page
    Then the packages listed are "other@0.1, tool@1.1.0"
    And the response header "X-Total-Count" is "3"
    And the response has the header "Link"

  @gitea
  Scenario: The packages of an owner are filtered by type and by name
    When "bob" lists the "generic" packages of "alice" whose name contains "too"
    Then the packages listed are "tool@1.1.0, tool@1.0.0"

  @gitea
  Scenario: No package of another type is listed
    When "bob" lists the "npm" packages of "alice" whose name contains "too"
    Then the response is a list of 0 items

  @gitea
  Scenario: The versions of one package are listed
    When "bob" lists the versions of the "generic" package "alice/tool"
    Then the packages listed are "tool@1.1.0, tool@1.0.0"
    And the response header "X-Total-Count" is "2"

  @gitea
  Scenario: The latest version of a package is its newest
    When "bob" gets the latest version of the "generic" package "alice/tool"
    Then the response status is 200
    And the package answered is "alice/tool" version "1.1.0" uploaded by "alice"

  @gitea
  Scenario: One version of a package
    When "bob" gets the version "1.0.0" of the "generic" package "alice/tool"
    Then the response status is 200
    And the package answered is "alice/tool" version "1.0.0" uploaded by "alice"
    And the package answered is linked to no repository

  @gitea
  Scenario: Names and versions are matched without regard to case
    Given "alice" uploaded the file "tool.bin" to the generic package "alice/MyTool" version "2.0.0-RC1"
    When "bob" gets the version "2.0.0-rc1" of the "generic" package "alice/mytool"
    Then the response status is 200
    And the package answered is "alice/MyTool" version "2.0.0-RC1" uploaded by "alice"

  @gitea
  Scenario: A version that was never uploaded is not found
    When "bob" gets the version "9.9.9" of the "generic" package "alice/tool"
    Then the request is refused with status 404

  @gitea
  Scenario: The files of a version carry the size and hashes of their bytes
    Given "alice" uploaded the file "tool.sig" to the generic package "alice/tool" version "1.0.0"
    When "bob" lists the files of the version "1.0.0" of the "generic" package "alice/tool"
    Then the response status is 200
    And the files listed are the bytes uploaded to "alice/tool" version "1.0.0" as "tool.bin, tool.sig"

  @gitea
  Scenario: The package API needs a token
    When "an anonymous client" lists the packages of "alice"
    Then the request is refused with status 401

  @gitea
  Scenario: A token without the package scope may not list packages
    Given a user "carol" with a token scoped "read:repository"
    When "carol" lists the packages of "alice"
    Then the request is refused with status 403

  @gitea
  Scenario: The packages of a private organization are refused to outsiders
    Given an organization "acme" owned by "alice"
    And the organization "acme" is private
    And "alice" uploaded the file "tool.bin" to the generic package "acme/tool" version "1.0.0"
    When "bob" lists the packages of "acme"
    Then the request is refused with status 403
    And the error message mentions "specific permission"

  @gitea
  Scenario: The packages of a private organization are listed for its members
    Given an organization "acme" owned by "alice"
    And the organization "acme" is private
    And a team "readers" of "acme" with the permission "read"
    And "bob" is in the team "readers" of "acme"
    And "alice" uploaded the file "tool.bin" to the generic package "acme/tool" version "1.0.0"
    When "bob" lists the packages of "acme"
    Then the packages listed are "tool@1.0.0"

  @gitea
  Scenario: The owner deletes one version
    When "alice" deletes the version "1.0.0" of the "generic" package "alice/tool"
    Then the response status is 204
    And "alice" finds no version "1.0.0" of the "generic" package "alice/tool"
    And the versions of the generic package "alice/tool" are "tool@1.1.0"

  @gitea
  Scenario: Another user may not delete a version
    When "bob" deletes the version "1.0.0" of the "generic" package "alice/tool"
    Then the request is refused with status 403
    And the error message mentions "specific permission"

  @gitea
  Scenario: Deleting a package deletes all its versions
    When "alice" deletes the "generic" package "alice/tool"
    Then the response status is 204
    And the packages of "alice" are "other@0.1"

  @gitea
  Scenario: Another user may not delete a package
    When "bob" deletes the "generic" package "alice/tool"
    Then the request is refused with status 403

  @gitea
  Scenario: A package linked to a repository shows it
    Given a repository "alice/app"
    When "alice" links the "generic" package "alice/tool" to the repository "alice/app"
    Then the response status is 201
    And the generic package "alice/tool" version "1.0.0" is linked to the repository "alice/app"

  @gitea
  Scenario: A package already linked is not linked again
    Given a repository "alice/app"
    And "alice" linked the "generic" package "alice/tool" to the repository "alice/app"
    When "alice" links the "generic" package "alice/tool" to the repository "alice/app"
    Then the request is refused with status 400

  @gitea
  Scenario: A package is not linked to a repository its owner does not have
    When "alice" links the "generic" package "alice/tool" to the repository "alice/missing"
    Then the request is refused with status 404

  @gitea
  Scenario: Unlinking a package takes its repository away
    Given a repository "alice/app"
    And "alice" linked the "generic" package "alice/tool" to the repository "alice/app"
    When "alice" unlinks the "generic" package "alice/tool"
    Then the response status is 204
    And the generic package "alice/tool" version "1.1.0" is linked to no repository

  @gitea
  Scenario: A package not linked cannot be unlinked
    When "alice" unlinks the "generic" package "alice/tool"
    Then the request is refused with status 400

  @gitea
  Scenario: Another user may not link a package
    Given a repository "alice/app"
    When "bob" links the "generic" package "alice/tool" to the repository "alice/app"
    Then the request is refused with status 403

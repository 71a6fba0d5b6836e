@gitdata
Feature: A repository's archives
  GET /repos/{owner}/{repo}/archive/{archive} answers a branch, tag or commit as <ref>.zip or <ref>.tar.gz
  (paths under a folder named after the repository) or <ref>.bundle (a Git bundle whose branch "bundle"
  and HEAD are at the commit), as an attachment named <repository>-<ref>.<type>. Another suffix is 400
  "unknown format", an unknown ref 404. Gitea 1.27's "path" query archives only the files and folders it
  names (routers/api/v1/repo/file.go, services/repository/archiver).

  Background:
    Given a repository "alice/demo"
    And the repository "alice/demo" has the file "src/main.py" with content "print('hi')"

  @gitea
  Scenario: A branch as a zip archive
    When "alice" downloads the archive "main.zip" of "alice/demo"
    Then the response status is 200
    And the archive holds "src/main.py" under the folder named after "alice/demo"
    And the archive holds every file of a clone of "alice/demo" with the same bytes, and nothing else
    And the download is named after "alice/demo" with "main.zip"

  @gitea
  Scenario: A branch as a tar.gz archive
    When "an anonymous client" downloads the archive "main.tar.gz" of "alice/demo"
    Then the response status is 200
    And the archive holds "src/main.py" under the folder named after "alice/demo"
    And the archive holds every file of a clone of "alice/demo" with the same bytes, and nothing else
    And the download is named after "alice/demo" with "main.tar.gz"

  @gitea
  Scenario: An archive of one folder holds only that folder
    Given the repository "alice/demo" has the file "docs/guide.md" with content "# Guide"
    When "alice" downloads the archive "main.zip" of "alice/demo" with only the path "src"
    Then the response status is 200
    And the archive holds "src/main.py" under the folder named after "alice/demo"
    And the archive does not hold "docs/guide.md"
    And the archive does not hold "README.md"

  @gitea
  Scenario: A branch as a Git bundle
    When "alice" downloads the archive "main.bundle" of "alice/demo"
    Then the response status is 200
    And the archive is a Git bundle whose branch "bundle" is at the last commit of "alice/demo"
    And the bundle clones to the commit and files of a clone of "alice/demo"

  @gitea
  Scenario: An unknown archive format is refused with 400
    When "alice" downloads the archive "main.rar" of "alice/demo"
    Then the request is refused with status 400
    And the error message mentions "unknown format"

  @gitea
  Scenario: An unknown ref has no archive
    When "alice" downloads the archive "no-such-branch.zip" of "alice/demo"
    Then the request is refused with status 404

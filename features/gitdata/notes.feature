@gitdata
Feature: A commit's git note
  GET /repos/{owner}/{repo}/git/notes/{sha} answers the note refs/notes/commits holds for the commit a ref
  or SHA names, with as its commit the commit of refs/notes/commits that last changed that note (not the
  annotated commit). A name that is neither a valid ref nor a SHA is refused with 422 "no valid ref or sha";
  a commit without a note is 404 (routers/api/v1/repo/notes.go).

  Background:
    Given a repository "alice/demo"

  @gitea
  Scenario: A commit without a note has none
    When "alice" sends GET "repos/{alice/demo}/git/notes/main"
    Then the request is refused with status 404

  @gitea
  Scenario: A name that is no ref and no SHA is refused with 422
    When "alice" sends GET "repos/{alice/demo}/git/notes/a..b"
    Then the request is refused with status 422
    And the error message mentions "no valid ref or sha"

  @gitea
  Scenario: A pushed note is read with the notes commit that made it
    Given the repository "alice/demo" has the file "a.txt" with content "a"
    And the owner of "alice/demo" pushes the git note "reviewed by the release team" for its last commit
    When "an anonymous client" reads the git note of the last commit of "alice/demo"
    Then the response status is 200
    And the note reads "reviewed by the release team" and its commit is the notes commit pushed to "alice/demo"

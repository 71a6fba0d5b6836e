@contents
Feature: A repository's owner edits its name, settings, default branch and archived state
  PATCH /repos/{owner}/{repo} takes an EditRepoOption and changes only the fields given, answering
  the edited Repository. Only repository administrators may edit. An archived repository refuses
  writes to its contents with 423.

  Background:
    Given a repository "alice/demo"
    And the repository "alice/demo" has the file "notes/todo.txt" with content "first"

  @gitea
  Scenario: A rename keeps the contents under the new name
    When "alice" renames the repository "alice/demo" to "renamed"
    Then the response status is 200
    And the repository "alice/demo" answers under its new name
    And the old name of "alice/demo" is not found
    And the file "notes/todo.txt" of "alice/demo" holds "first"

  @gitea
  Scenario: A rename to a name the owner already uses is refused
    Given a repository "alice/other"
    When "alice" renames the repository "alice/demo" to the name of "alice/other"
    Then the request is refused with status 422
    And the file "notes/todo.txt" of "alice/demo" holds "first"

  @gitea
  Scenario: The description changes and nothing else
    When "alice" edits the repository "alice/demo" setting "description" to "a better description"
    Then the response status is 200
    And the response field "description" is "a better description"
    And the response field "private" is false

  @gitea
  Scenario: The default branch moves to a branch that exists
    Given the repository "alice/demo" has the file "side.txt" with content "s" on the new branch "side"
    When "alice" edits the repository "alice/demo" setting "default_branch" to "side"
    Then the response status is 200
    And the response field "default_branch" is "side"
    And the repository "alice/demo" has the default branch "side"

  @gitea
  Scenario: A default branch that does not exist leaves the default as it was
    When "alice" edits the repository "alice/demo" setting "default_branch" to "no-such-branch"
    Then the response status is 200
    And the repository "alice/demo" has the default branch "main"

  @gitea
  Scenario: An archived repository refuses changes to its files
    Given the repository "alice/demo" is archived
    When "alice" updates the file "notes/todo.txt" in "alice/demo" to "second"
    Then the request is refused with status 423
    And the error message mentions "repo is archived"
    And the file "notes/todo.txt" of "alice/demo" holds "first"

  @gitea
  Scenario: Archiving shows in the repository
    When "alice" edits the repository "alice/demo" setting "archived" to true
    Then the response status is 200
    And the repository "alice/demo" is archived

  @gitea
  Scenario: A user who is not an administrator of the repository cannot edit it
    Given a user "bob"
    When "bob" edits the repository "alice/demo" setting "description" to "mine now"
    Then the request is refused with status 403

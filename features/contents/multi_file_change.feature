@contents
Feature: Several files are changed in one commit through the contents API
  POST /repos/{owner}/{repo}/contents takes a list of operations (create, update, upload, rename,
  delete) and applies them as one commit on the branch, answering 201 with a FilesResponse: one
  entry per operation (null for a deleted path) and the commit. A change that fails any check is
  refused as a whole: no commit is made and every branch stays where it was.

  Background:
    Given a repository "alice/demo"
    And the repository "alice/demo" has the file "notes/todo.txt" with content "first"
    And the repository "alice/demo" has the file "notes/old.txt" with content "keep me"
    And the repository "alice/demo" has the file "notes/gone.txt" with content "bye"

  @spec @clause_S1_rename_sync_multifile
  Scenario: Create, update, rename and delete land in one commit
    When "alice" changes files of "alice/demo" in one commit:
      | operation | path           | content  | from          | sha     |
      | create    | notes/new.txt  | fresh    |               |         |
      | update    | notes/todo.txt | second   |               | current |
      | rename    | notes/moved.txt|          | notes/old.txt | current |
      | delete    | notes/gone.txt |          |               | current |
    Then the response status is 201
    And the answer lists the files "notes/new.txt, notes/todo.txt, notes/moved.txt, null"
    And the change is a new commit on top of the previous head of "alice/demo"
    And the branch "main" of "alice/demo" is at the new commit
    And the file "notes/new.txt" of "alice/demo" holds "fresh"
    And the file "notes/todo.txt" of "alice/demo" holds "second"
    And the file "notes/moved.txt" of "alice/demo" holds "keep me"
    And the file "notes/old.txt" of "alice/demo" does not exist
    And the file "notes/gone.txt" of "alice/demo" does not exist

  @gitea
  Scenario: Without a message the commit says what was added, updated and deleted
    When "alice" changes files of "alice/demo" in one commit:
      | operation | path           | content | sha     |
      | create    | a.txt          | a       |         |
      | create    | b.txt          | b       |         |
      | upload    | notes/todo.txt | up      | current |
      | delete    | notes/gone.txt |         | current |
    Then the response status is 201
    And the commit message is "Add a.txt, b.txt\nUpdate notes/todo.txt\nDelete notes/gone.txt"

  @gitea
  Scenario: Author, committer and dates are taken from the options
    When "alice" changes files of "alice/demo" in one commit with the options "message=dated; author.name=Ann Author; author.email=ann@example.com; committer.name=Cy Committer; committer.email=cy@example.com; dates.author=2024-01-02T03:04:05Z; dates.committer=2024-02-03T04:05:06Z":
      | operation | path  | content |
      | create    | c.txt | c       |
    Then the response status is 201
    And the commit message is "dated"
    And the commit's author is "Ann Author" <ann@example.com> at "2024-01-02T03:04:05Z"
    And the commit's committer is "Cy Committer" <cy@example.com> at "2024-02-03T04:05:06Z"

  @gitea
  Scenario: A new branch starts from the branch and leaves it alone
    When "alice" changes files of "alice/demo" in one commit with the options "new_branch=topic":
      | operation | path          | content |
      | create    | topic.txt     | t       |
    Then the response status is 201
    And the branch "topic" of "alice/demo" is at the new commit
    And the file "topic.txt" of "alice/demo" on the branch "topic" holds "t"
    And the file "topic.txt" of "alice/demo" does not exist

  @gitea
  Scenario: A new branch that exists is refused unless forced
    Given the repository "alice/demo" has the file "side.txt" with content "s" on the new branch "side"
    When "alice" changes files of "alice/demo" in one commit with the options "new_branch=side":
      | operation | path      | content |
      | create    | again.txt | a       |
    Then the request is refused with status 422
    And the error message mentions "branch already exists"
    And the branches of "alice/demo" did not move

  @gitea
  Scenario: Forcing a new branch that exists replaces it
    Given the repository "alice/demo" has the file "side.txt" with content "s" on the new branch "side"
    When "alice" changes files of "alice/demo" in one commit with the options "new_branch=side; force_push=true":
      | operation | path      | content |
      | create    | again.txt | a       |
    Then the response status is 201
    And the branch "side" of "alice/demo" is at the new commit
    And the file "again.txt" of "alice/demo" on the branch "side" holds "a"

  @gitea
  Scenario Outline: A change that fails a check is refused as a whole
    When "alice" changes files of "alice/demo" in one commit:
      | operation | path           | content   | sha   |
      | create    | notes/ok.txt   | fine      |       |
      | <op>      | <path>         | <content> | <sha> |
    Then the request is refused with status <status>
    And the error message mentions "<message>"
    And the branches of "alice/demo" did not move
    And the file "notes/ok.txt" of "alice/demo" does not exist
    And the file "notes/todo.txt" of "alice/demo" holds "first"

    Examples:
      | op     | path                 | content        | sha     | status | message                |
      | update | notes/todo.txt       | lost           | stale   | 422    | sha does not match     |
      | update | notes/todo.txt       | lost           |         | 422    | sha                    |
      | delete | notes/todo.txt       |                |         | 422    | sha                    |
      | create | notes/todo.txt       | twice          |         | 422    | already exists         |
      | create | notes/todo.txt/child | under a file   |         | 422    | subdirectory           |
      | create | notes                | over a folder  |         | 422    | directory exists       |
      | delete | notes/ghost.txt      |                | 0123456789abcdef0123456789abcdef01234567 | 404 | does not exist |
      | create | notes/bad.txt        | <not base64>   |         | 422    | base64                 |

  @gitea
  Scenario: A change on a branch that does not exist is not found
    When "alice" changes files of "alice/demo" in one commit with the options "branch=no-such-branch":
      | operation | path      | content |
      | create    | x.txt     | x       |
    Then the request is refused with status 404
    And the branches of "alice/demo" did not move

  @gitea
  Scenario: A user without write access cannot change files
    Given a user "bob"
    When "bob" changes files of "alice/demo" in one commit:
      | operation | path      | content |
      | create    | x.txt     | x       |
    Then the request is refused with status 403
    And the branches of "alice/demo" did not move

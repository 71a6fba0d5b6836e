@releases
Feature: Git tags are listed, read, created and deleted over REST
  GET /repos/{owner}/{repo}/tags lists the tags (Tag: id is the tag object, the commit of a
  lightweight tag; commit names the tagged commit), paged with X-Total-Count. POST /tags creates an
  annotated tag when a message is given, a lightweight one otherwise (CreateTagOption; a missing
  target is 404, an existing tag 409). GET /git/tags/{sha} reads an annotated tag's object
  (AnnotatedTag), 400 for anything else. A tag protection rule refuses other users 422 when they
  create or delete a tag it matches, also through a release.

  Background:
    Given a repository "alice/demo"

  @gitea
  Scenario: A tag without a message is lightweight
    When "alice" creates the tag "light" in "alice/demo"
    Then the response status is 201
    And the response is a lightweight tag of the head of "main" of "alice/demo"

  @gitea
  Scenario: A tag with a message is annotated
    When "alice" creates the tag "heavy" in "alice/demo" with the message "Release notes"
    Then the response status is 201
    And the response is an annotated tag of the head of "main" of "alice/demo" with the message "Release notes"
    And the response field "id" is the object Git resolves "refs/tags/heavy" to in a clone of "alice/demo"

  @gitea
  Scenario: An annotated tag's object is read by its SHA
    Given a user "bob"
    And "alice" created the tag "heavy" in "alice/demo" with the message "Release notes"
    When "bob" gets the tag object of the tag "heavy" of "alice/demo"
    Then the response status is 200
    And the response is the tag object "heavy" of the head of "main" of "alice/demo" tagged by "alice"
    And the response field "sha" is the object Git resolves "refs/tags/heavy" to in a clone of "alice/demo"

  @gitea
  Scenario: A lightweight tag has no tag object
    Given the repository "alice/demo" has the tag "light"
    When "alice" gets the tag object of the tag "light" of "alice/demo"
    Then the request is refused with status 400

  @gitea
  Scenario: A tag is created at a branch
    Given the repository "alice/demo" has a branch "dev"
    And the branch "dev" of "alice/demo" has 1 more commits
    When "alice" creates the tag "on-dev" in "alice/demo" at "dev"
    Then the response status is 201
    And the tag "on-dev" of "alice/demo" points at the head of "dev"

  @gitea
  Scenario: A tag of a missing target is not found
    When "alice" creates the tag "nowhere" in "alice/demo" at "no-such-branch"
    Then the request is refused with status 404
    And the tag "nowhere" of "alice/demo" does not exist

  @gitea
  Scenario: An existing tag is a conflict
    Given the repository "alice/demo" has the tag "v1"
    When "alice" creates the tag "v1" in "alice/demo"
    Then the request is refused with status 409

  @gitea
  Scenario: The tag list is paged and counted
    Given the repository "alice/demo" has the tag "a"
    And the repository "alice/demo" has the tag "b"
    And the repository "alice/demo" has the tag "c"
    When "an anonymous client" lists the tags of "alice/demo" with limit 2 and page 1
    Then the response status is 200
    And the response lists 2 tags
    And the response header "X-Total-Count" is "3"

  @gitea
  Scenario: The tags listed are the repository's Git tags, each with its object and its commit
    Given the repository "alice/demo" has the tag "light"
    And "alice" created the tag "heavy" in "alice/demo" with the message "Release notes"
    When "an anonymous client" lists the tags of "alice/demo" with limit 10 and page 1
    Then the response status is 200
    And the tags listed are exactly those of a clone of "alice/demo", each with its object and its commit

  @gitea
  Scenario: A tag is read by its name
    Given the repository "alice/demo" has the tag "v1"
    When "an anonymous client" gets the tag "v1" of "alice/demo"
    Then the response status is 200
    And the response is a lightweight tag of the head of "main" of "alice/demo"

  @gitea
  Scenario: A tag is deleted
    Given the repository "alice/demo" has the tag "v1"
    When "alice" deletes the tag "v1" of "alice/demo"
    Then the response status is 204
    And the tag "v1" of "alice/demo" does not exist

  @gitea
  Scenario: Deleting a missing tag is not found
    When "alice" deletes the tag "v404" of "alice/demo"
    Then the request is refused with status 404

  @gitea
  Scenario: An archived repository takes no new tag
    Given the repository "alice/demo" is archived
    When "alice" creates the tag "v1" in "alice/demo"
    Then the request is refused with status 423
    And the tag "v1" of "alice/demo" does not exist

  @gitea
  Scenario: A reader cannot create tags
    Given a user "bob"
    When "bob" creates the tag "v1" in "alice/demo"
    Then the request is refused with status 403
    And the tag "v1" of "alice/demo" does not exist

  @gitea
  Scenario: A protected tag is refused to a writer outside the allowlist
    Given a user "bob"
    And "bob" is a collaborator of "alice/demo" with the permission "write"
    And "alice" protects the tags "v*" of "alice/demo" for "alice"
    When "bob" creates the tag "v1" in "alice/demo"
    Then the request is refused with status 422
    And the tag "v1" of "alice/demo" does not exist

  @gitea
  Scenario: A release cannot create a protected tag for a writer outside the allowlist
    Given a user "bob"
    And "bob" is a collaborator of "alice/demo" with the permission "write"
    And "alice" protects the tags "v*" of "alice/demo" for "alice"
    When "bob" creates the release "v1" in "alice/demo"
    Then the request is refused with status 422
    And the tag "v1" of "alice/demo" does not exist

  @gitea
  Scenario: A protected tag cannot be deleted by a writer outside the allowlist
    Given a user "bob"
    And "bob" is a collaborator of "alice/demo" with the permission "write"
    And the repository "alice/demo" has the tag "v1"
    And "alice" protects the tags "v*" of "alice/demo" for "alice"
    When "bob" deletes the tag "v1" of "alice/demo"
    Then the request is refused with status 422
    And the tag "v1" of "alice/demo" points at the head of "main"

  @gitea
  Scenario: An allowlisted user creates a protected tag
    Given "alice" protects the tags "v*" of "alice/demo" for "alice"
    When "alice" creates the tag "v1" in "alice/demo"
    Then the response status is 201

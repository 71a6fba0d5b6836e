@templates
Feature: Generating a repository from a template
  POST /repos/{template_owner}/{template_repo}/generate creates a repository from a template repository
  and answers it (201). git_content copies the template's default branch as ONE new commit by the
  caller, without the template's history; the files the template's .gitea/template file lists have
  $REPO_NAME, $REPO_OWNER and the like filled in (their case variants such as ${REPO_NAME_SNAKE} and the
  date too; a variable Gitea does not know becomes its bare name, as Go's os.Expand makes it), in their
  content and their paths, and .gitea/template itself is left out. topics and labels copy those. Without git_content the new repository is empty. The source must be marked as a
  template (422), at least one item must be chosen (422), a user generates only for themself or an
  organization where they may create repositories (403), and a taken name is 409.

  Background:
    Given a user "alice"
    And a repository "alice/starter"
    And the repository "alice/starter" has the file "notes.txt" with content "hello"
    And the repository "alice/starter" is a template

  @gitea
  Scenario: git_content copies the files as one new commit by the caller
    When "alice" generates "alice/copy" from "alice/starter" with "git_content"
    Then the response status is 201
    And the response field "template" is false
    And the file "notes.txt" of "alice/copy" holds "hello"
    And the repository "alice/copy" has exactly one commit, by "alice"
    And a clone of "alice/copy" has one commit, whose files are those of a clone of "alice/starter"

  @gitea
  Scenario: Files listed in .gitea/template are filled in for the new repository
    Given the repository "alice/starter" has the file ".gitea/template" with content "*.md"
    And the repository "alice/starter" has the file "about.md" with content "This is $REPO_NAME of $REPO_OWNER"
    When "alice" generates "alice/copy" from "alice/starter" with "git_content"
    Then the response status is 201
    And the file "about.md" of "alice/copy" holds "This is $REPO_NAME of $REPO_OWNER" filled in for "alice/copy"
    And the file "notes.txt" of "alice/copy" holds "hello"
    And the file ".gitea/template" of "alice/copy" does not exist

  @gitea
  Scenario: Case variants, the date and unknown variables are filled in as Gitea's expansion does, in paths too
    Given the repository "alice/starter" has the file ".gitea/template" with content "src/**"
    And the repository "alice/starter" has the file "src/${REPO_NAME_LOWER}.txt" with content "${REPO_NAME_UPPER} ${MONTH_ENGLISH_UPPER} ${YEAR}-${MONTH}-${DAY} ${NOT_A_VARIABLE} $$5"
    When "alice" generates "alice/copy" from "alice/starter" with "git_content"
    Then the response status is 201
    And the file "src/${REPO_NAME_LOWER}.txt" of "alice/copy" holds "${REPO_NAME_UPPER} ${MONTH_ENGLISH_UPPER} ${YEAR}-${MONTH}-${DAY} NOT_A_VARIABLE $5" filled in for "alice/copy"

  @gitea
  Scenario: Files the template file does not list are copied as they are
    Given the repository "alice/starter" has the file ".gitea/template" with content "*.md"
    And the repository "alice/starter" has the file "keep.txt" with content "$REPO_NAME"
    When "alice" generates "alice/copy" from "alice/starter" with "git_content"
    Then the file "keep.txt" of "alice/copy" holds "$REPO_NAME"

  @gitea
  Scenario: Without git_content the new repository is empty
    When "alice" generates "alice/copy" from "alice/starter" with "topics"
    Then the response status is 201
    And the response field "empty" is true

  @gitea
  Scenario: topics and labels copy the template's
    Given the repository "alice/starter" has the topics "starter"
    And the repository "alice/starter" has the label "triage" with the color "ee0701"
    When "alice" generates "alice/copy" from "alice/starter" with "topics, labels"
    Then the response status is 201
    And the repository "alice/copy" has the topics "starter"
    And the repository "alice/copy" has the label "triage"

  @gitea
  Scenario: A repository that is not a template cannot be generated from
    Given a repository "alice/plain"
    When "alice" generates "alice/copy" from "alice/plain" with "git_content"
    Then the request is refused with status 422
    And the error message mentions "this is not a template repo"

  @gitea
  Scenario: At least one item must be chosen
    When "alice" generates "alice/copy" from "alice/starter" choosing nothing
    Then the request is refused with status 422
    And the error message mentions "must select at least one template item"

  @gitea
  Scenario: A user cannot generate a repository for another user
    Given a user "bob"
    When "bob" generates "alice/copy" from "alice/starter" with "git_content"
    Then the request is refused with status 403
    And the error message mentions "Only admin can generate repository for other user"

  @gitea
  Scenario: A member who may not create repositories in an organization cannot generate there
    Given an organization "acme" owned by "alice"
    And a team "readers" of "acme" with the permission "read"
    And "bob" is in the team "readers" of "acme"
    When "bob" generates "acme/copy" from "alice/starter" with "git_content"
    Then the request is refused with status 403
    And the error message mentions "not allowed to create repository in organization"

  @gitea
  Scenario: An organization owner generates into the organization
    Given an organization "acme" owned by "alice"
    When "alice" generates "acme/copy" from "alice/starter" with "git_content"
    Then the response status is 201
    And the file "notes.txt" of "acme/copy" holds "hello"

  @gitea
  Scenario: A name the owner already has is refused
    Given a repository "alice/copy"
    When "alice" generates "alice/copy" from "alice/starter" with "git_content"
    Then the request is refused with status 409

  @gitea
  Scenario: Generating needs a signed-in caller
    When "an anonymous client" generates "alice/copy" from "alice/starter" with "git_content"
    Then the request is refused with status 401

@variables
Feature: Repository variables are created, read, updated, renamed, deleted and listed
  A repository's owner manages variables under /repos/{owner}/{repo}/actions/variables. POST creates
  (201, no body), GET reads one ActionVariable {owner_id, repo_id, name, data, description}, PUT
  replaces the value and may rename (204), DELETE removes (204). Names follow the secret rule, and
  CI is reserved; they are compared without regard to case and stored upper-cased.

  Background:
    Given a repository "dev/app"
    And a user "visitor"

  @spec @clause_S2_3_variable @clause_S4_4_variables @clause_S1_org_secrets_variables
  Scenario: Creating a variable answers 201 without a body
    When "dev" creates the variable "build_mode" of the repository "dev/app" with the value "fast"
    Then the response status is 201
    And the response body is empty
    And the repository "dev/app" has the variable "BUILD_MODE" with the value "fast"

  @spec @clause_S2_3_variable @clause_S4_4_variables
  Scenario: Reading a variable gives its name upper-cased, its value and its repository
    Given the repository "dev/app" has the variable "build_mode" set to "fast"
    When "dev" gets the variable "BUILD_MODE" of the repository "dev/app"
    Then the response status is 200
    And the variable is "BUILD_MODE" with the value "fast"
    And the variable belongs to the repository "dev/app"

  @spec @clause_S2_3_variable @clause_S4_4_variables
  Scenario: Updating a variable replaces its value and answers 204
    Given the repository "dev/app" has the variable "BUILD_MODE" set to "fast"
    When "dev" updates the variable "BUILD_MODE" of the repository "dev/app" with the body
      """
      {"value": "thorough", "description": "slower but safer"}
      """
    Then the response status is 204
    And the repository "dev/app" has the variable "BUILD_MODE" with the value "thorough"

  @spec @clause_S2_3_variable @clause_S4_4_variables
  Scenario: Updating with a new name renames the variable
    Given the repository "dev/app" has the variable "BUILD_MODE" set to "fast"
    When "dev" updates the variable "BUILD_MODE" of the repository "dev/app" with the body
      """
      {"name": "mode", "value": "fast"}
      """
    Then the response status is 204
    And the repository "dev/app" has the variable "MODE" with the value "fast"
    And the repository "dev/app" has no variable "BUILD_MODE"

  @spec @clause_S2_3_variable @clause_S4_4_variables
  Scenario: Deleting a variable answers 204 and it is gone
    Given the repository "dev/app" has the variable "BUILD_MODE" set to "fast"
    When "dev" deletes the variable "BUILD_MODE" of the repository "dev/app"
    Then the response status is 204
    And the repository "dev/app" has no variable "BUILD_MODE"

  @spec @clause_S2_3_variable @clause_S4_4_variables
  Scenario: The list holds every variable of the repository with X-Total-Count
    Given the repository "dev/app" has the variable "ALPHA" set to "1"
    And the repository "dev/app" has the variable "BETA" set to "2"
    When "dev" lists the variables of the repository "dev/app"
    Then the response status is 200
    And the variable list holds exactly "ALPHA, BETA" with an X-Total-Count of 2

  @gitea @clause_S4_4_variables
  Scenario: The list is paged with page and limit
    Given the repository "dev/app" has the variable "V1" set to "1"
    And the repository "dev/app" has the variable "V2" set to "2"
    And the repository "dev/app" has the variable "V3" set to "3"
    When "dev" lists page 2 of the variables of the repository "dev/app" with 2 per page
    Then the response status is 200
    And the response is a list of 1 items
    And the response header "X-Total-Count" is "3"

  @gitea @clause_S4_4_variables
  Scenario: Creating a name that exists in another case is a conflict
    Given the repository "dev/app" has the variable "TEST_VAR" set to "first"
    When "dev" creates the variable "test_var" of the repository "dev/app" with the value "second"
    Then the request is refused with status 409
    And the repository "dev/app" has the variable "TEST_VAR" with the value "first"

  @gitea @clause_S4_4_variables
  Scenario Outline: A name outside Gitea's rule is refused with 400
    When "dev" creates the variable "<name>" of the repository "dev/app" with the value "v"
    Then the request is refused with status 400
    And the error message mentions "invalid variable or secret name"
    And the repository "dev/app" has no variable "<name>"

    Examples:
      | name       |
      | -          |
      | ci         |
      | 123var     |
      | var@test   |
      | github_var |
      | GITEA_VAR  |

  @gitea @clause_S4_4_variables
  Scenario: Creating without a value is refused with 422
    When "dev" creates the variable "EMPTY" of the repository "dev/app" with the body
      """
      {"description": "no value"}
      """
    Then the request is refused with status 422
    And the repository "dev/app" has no variable "EMPTY"

  @gitea @clause_S4_4_variables
  Scenario: Reading a variable that does not exist is 404
    When "dev" gets the variable "NEVER_SET" of the repository "dev/app"
    Then the request is refused with status 404

  @gitea @clause_S4_4_variables
  Scenario: Updating a variable that does not exist is 404
    When "dev" updates the variable "NEVER_SET" of the repository "dev/app" with the body
      """
      {"value": "v"}
      """
    Then the request is refused with status 404
    And the repository "dev/app" has no variable "NEVER_SET"

  @gitea @clause_S4_4_variables
  Scenario: Renaming to a name outside the rule is refused with 400 and nothing changes
    Given the repository "dev/app" has the variable "BUILD_MODE" set to "fast"
    When "dev" updates the variable "BUILD_MODE" of the repository "dev/app" with the body
      """
      {"name": "ci", "value": "changed"}
      """
    Then the request is refused with status 400
    And the repository "dev/app" has the variable "BUILD_MODE" with the value "fast"

  @reference @clause_S4_4_variables
  Scenario: Renaming onto another existing variable is a conflict and nothing changes
    Gitea's tests do not cover this case; the reference server answers 409, as a duplicate create.
    Given the repository "dev/app" has the variable "FIRST" set to "1"
    And the repository "dev/app" has the variable "SECOND" set to "2"
    When "dev" updates the variable "FIRST" of the repository "dev/app" with the body
      """
      {"name": "second", "value": "3"}
      """
    Then the request is refused with status 409
    And the repository "dev/app" has the variable "FIRST" with the value "1"
    And the repository "dev/app" has the variable "SECOND" with the value "2"

  @gitea @clause_S4_4_variables
  Scenario: Deleting a variable that does not exist is 404
    When "dev" deletes the variable "NEVER_SET" of the repository "dev/app"
    Then the request is refused with status 404

  @gitea @clause_S4_4_variables
  Scenario: Another user cannot read a repository's variables
    Given the repository "dev/app" has the variable "BUILD_MODE" set to "fast"
    When "visitor" lists the variables of the repository "dev/app"
    Then the request is refused with status 403

  @gitea @clause_S4_4_variables
  Scenario: Another user cannot create a repository variable
    When "visitor" creates the variable "BUILD_MODE" of the repository "dev/app" with the value "fast"
    Then the request is refused with status 403
    And the repository "dev/app" has no variable "BUILD_MODE"

  @gitea @clause_S4_4_variables
  Scenario: A token without write:repository cannot delete a variable
    Given the repository "dev/app" has the variable "BUILD_MODE" set to "fast"
    And "dev" has a token "read-only" scoped "read:repository"
    When the token "read-only" is used to delete the variable "BUILD_MODE" of the repository "dev/app"
    Then the request is refused with status 403
    And the repository "dev/app" has the variable "BUILD_MODE" with the value "fast"

  @gitea @clause_S4_4_variables
  Scenario: An anonymous client cannot read a repository variable
    Given the repository "dev/app" has the variable "BUILD_MODE" set to "fast"
    When an anonymous client sends GET "/repos/{dev/app}/actions/variables/BUILD_MODE"
    Then the request is refused with status 401

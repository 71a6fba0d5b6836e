@variables
Feature: Organization and user variables
  An organization's owners manage its variables under /orgs/{org}/actions/variables, a user their own
  under /user/actions/variables, with the routes, rules and statuses of repository variables. An
  owner's variable carries the owner's id as owner_id and 0 as repo_id.

  Background:
    Given a user "owner"
    And a user "outsider"
    And an organization "acme" owned by "owner"

  @spec @clause_S2_3_variable @clause_S4_4_variables @clause_S1_org_secrets_variables
  Scenario: An organization variable is created and read back with the organization as owner
    Given the organization "acme" has the variable "REGION" set to "eu-west-1"
    When "owner" gets the variable "region" of the organization "acme"
    Then the response status is 200
    And the variable is "REGION" with the value "eu-west-1"
    And the variable belongs to the organization "acme"

  @spec @clause_S2_3_variable @clause_S4_4_variables
  Scenario: An organization variable is renamed and deleted
    Given the organization "acme" has the variable "REGION" set to "eu-west-1"
    When "owner" updates the variable "REGION" of the organization "acme" with the body
      """
      {"name": "ZONE", "value": "eu-west-1a"}
      """
    Then the response status is 204
    And the organization "acme" has the variable "ZONE" with the value "eu-west-1a"
    And the organization "acme" has no variable "REGION"

  @spec @clause_S2_3_variable @clause_S4_4_variables
  Scenario: Deleting an organization variable answers 204
    Given the organization "acme" has the variable "REGION" set to "eu-west-1"
    When "owner" deletes the variable "REGION" of the organization "acme"
    Then the response status is 204
    And the organization "acme" has no variable "REGION"

  @spec @clause_S2_3_variable @clause_S4_4_variables
  Scenario: The organization's variables are listed
    Given the organization "acme" has the variable "REGION" set to "eu-west-1"
    And the organization "acme" has the variable "TIER" set to "gold"
    When "owner" lists the variables of the organization "acme"
    Then the response status is 200
    And the variable list holds exactly "REGION, TIER" with an X-Total-Count of 2

  @gitea @clause_S4_4_variables
  Scenario: A user who does not own the organization cannot create its variables
    When "outsider" creates the variable "REGION" of the organization "acme" with the value "us"
    Then the request is refused with status 403
    And the organization "acme" has no variable "REGION"

  @gitea @clause_S4_4_variables
  Scenario: A duplicate organization variable is a conflict
    Given the organization "acme" has the variable "REGION" set to "eu-west-1"
    When "owner" creates the variable "Region" of the organization "acme" with the value "us-east-1"
    Then the request is refused with status 409
    And the organization "acme" has the variable "REGION" with the value "eu-west-1"

  @gitea @clause_S4_4_variables
  Scenario: A user's variable is created and read back with the user as owner
    Given the user "owner" has the variable "EDITOR" set to "vim"
    When "owner" gets the variable "EDITOR" of the user "owner"
    Then the response status is 200
    And the variable is "EDITOR" with the value "vim"
    And the variable belongs to the user "owner"

  @gitea @clause_S4_4_variables
  Scenario: A user's variables are listed
    Given the user "owner" has the variable "EDITOR" set to "vim"
    When "owner" lists the variables of the user "owner"
    Then the response status is 200
    And the variable list holds exactly "EDITOR" with an X-Total-Count of 1

  @gitea @clause_S4_4_variables
  Scenario: A user's variables are their own
    Given the user "owner" has the variable "EDITOR" set to "vim"
    When "outsider" gets the variable "EDITOR" of the user "outsider"
    Then the request is refused with status 404

  @gitea @clause_S4_4_variables
  Scenario: A user's variable is deleted with 204
    Given the user "owner" has the variable "EDITOR" set to "vim"
    When "owner" deletes the variable "editor" of the user "owner"
    Then the response status is 204
    And the user "owner" has no variable "EDITOR"

  @gitea @clause_S4_4_variables
  Scenario: A user's variable is updated with a new value and a new name
    Given the user "owner" has the variable "EDITOR" set to "vim"
    When "owner" updates the variable "editor" of the user "owner" with the body
      """
      {"name": "VISUAL", "value": "emacs"}
      """
    Then the response status is 204
    And the user "owner" has the variable "VISUAL" with the value "emacs"
    And the user "owner" has no variable "EDITOR"

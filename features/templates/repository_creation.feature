@templates
Feature: A repository is created from license, gitignore and label templates
  POST /user/repos takes "license" (a license template name), "gitignores" (template names joined
  by commas) and "issue_labels" (a label template name). With "auto_init" the first commit holds a
  LICENSE filled in with the year and the owner's name, and a .gitignore with each template under a
  "# ---> Name" line; the label template's labels are created in the repository. An unknown name is
  refused before anything is created.

  @spec @clause_S1_templates
  Scenario: License, gitignore and label templates give a new repository its files and labels
    Given a user "alice"
    When "alice" creates the repository "alice/seeded" with the options
      """
      {"auto_init": true, "license": "MIT", "gitignores": "Go,Python", "issue_labels": "Default"}
      """
    Then the response status is 201
    And the file "LICENSE" of "alice/seeded" is the "MIT" license filled in for its owner
    And the file ".gitignore" of "alice/seeded" holds the gitignore templates "Go, Python" one after the other
    And "alice/seeded" has exactly the labels of the label template "Default"

  @gitea
  Scenario: The Advanced label template gives a repository its scoped labels
    Given a user "alice"
    When "alice" creates the repository "alice/scoped" with the options
      """
      {"auto_init": false, "issue_labels": "Advanced"}
      """
    Then the response status is 201
    And "alice/scoped" has exactly the labels of the label template "Advanced"

  @gitea
  Scenario: An unknown label template is refused with 422 and nothing is created
    Given a user "alice"
    When "alice" creates the repository "alice/nolabels" with the options
      """
      {"auto_init": true, "issue_labels": "No-Such-Labels"}
      """
    Then the request is refused with status 422
    And the error message mentions "No-Such-Labels"
    And the repository "alice/nolabels" was not created

  @reference
  Scenario Outline: An unknown license or gitignore template is refused with 422 and nothing is created (Gitea 1.27 fails with 500)
    Given a user "alice"
    When "alice" creates the repository "alice/unknown" with the options
      """
      {"auto_init": true, <option>}
      """
    Then the request is refused with status 422
    And the error message mentions "template does not exist"
    And the repository "alice/unknown" was not created

    Examples:
      | option                            |
      | "license": "No-Such-License"      |
      | "gitignores": "Go,No-Such-Ignore" |

  @gitea
  Scenario: An unknown readme template with auto_init is refused with 400 and nothing is created
    Given a user "alice"
    When "alice" creates the repository "alice/noreadme" with the options
      """
      {"auto_init": true, "readme": "No-Such-Readme"}
      """
    Then the request is refused with status 400
    And the error message mentions "readme template does not exist"
    And the repository "alice/noreadme" was not created

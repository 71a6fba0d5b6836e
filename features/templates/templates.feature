@templates
Feature: License, gitignore and label templates are listed and read by anyone
  GET /licenses lists the license templates as {key, name, url}; GET /licenses/{name} gives one with
  its text in "body". GET /gitignore/templates and GET /label/templates list template names;
  GET /gitignore/templates/{name} gives {name, source} and GET /label/templates/{name} the labels
  of a label template, each with a colour of six hex digits without "#". No token is needed, and an
  unknown name is 404.

  @spec @clause_S1_templates @clause_S4_4_templates
  Scenario: License templates are listed with a URL that reads each one
    When "an anonymous client" lists the license templates
    Then the response status is 200
    And the license template list holds "MIT" with the URL of its template
    And the license template list holds "Apache-2.0" with the URL of its template

  @spec @clause_S1_templates @clause_S4_4_templates
  Scenario: A license template is read with its text
    When "an anonymous client" reads the license template "MIT"
    Then the response status is 200
    And the response field "key" is "MIT"
    And the response field "name" is "MIT"
    And the template text in "body" contains "Permission is hereby granted, free of charge"

  @spec @clause_S4_4_templates
  Scenario: Gitignore templates are listed and read
    When "an anonymous client" lists the gitignore templates
    Then the response status is 200
    And the response lists the names "Go, Python, Node"

  @spec @clause_S4_4_templates
  Scenario: A gitignore template is read with its source
    When "an anonymous client" reads the gitignore template "Go"
    Then the response status is 200
    And the response field "name" is "Go"
    And the template text in "source" contains "*.exe"

  @spec @clause_S1_templates @clause_S4_4_templates
  Scenario: Label templates are listed
    When "an anonymous client" lists the label templates
    Then the response status is 200
    And the response lists the names "Default, Advanced"

  @spec @clause_S4_4_templates
  Scenario: The Default label template gives its labels with colours without a hash sign
    When "an anonymous client" reads the label template "Default"
    Then the response status is 200
    And the label template lists "bug" with the color "ee0701"
    And the label template lists "help wanted" with the color "128a0c"

  @gitea
  Scenario: The Advanced label template has scoped labels, exclusive within their scope
    When "an anonymous client" reads the label template "Advanced"
    Then the response status is 200
    And the label template marks "Priority/High" as exclusive and "Kind/Bug" as not exclusive

  @gitea
  Scenario Outline: An unknown template name is 404
    When "an anonymous client" reads the <kind> template "No-Such-Template"
    Then the request is refused with status 404

    Examples:
      | kind      |
      | license   |
      | gitignore |
      | label     |

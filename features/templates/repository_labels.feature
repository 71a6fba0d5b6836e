@templates
Feature: Repository labels are listed, created, read, edited and deleted
  GET|POST /repos/{owner}/{repo}/labels and GET|PATCH|DELETE .../labels/{id} manage the labels a label
  template gives and any others. Colours are sent as "#rrggbb", "rrggbb" or "#rgb" and answered as six
  lower-case hex digits without "#". Readers list and read; writers create, edit and delete.

  Background:
    Given a repository "alice/demo"

  @gitea
  Scenario: A writer creates a label and reads it back
    When "alice" creates in "alice/demo" the label
      """
      {"name": "urgent", "color": "#D93F0B", "description": "Needs attention now", "exclusive": false}
      """
    Then the response status is 201
    And the response field "color" is "d93f0b"
    And the label "urgent" of "alice/demo" has the color "d93f0b" and the description "Needs attention now"

  @gitea
  Scenario: A short colour is expanded
    When "alice" creates in "alice/demo" the label
      """
      {"name": "short", "color": "abc"}
      """
    Then the response status is 201
    And the response field "color" is "aabbcc"

  @gitea
  Scenario: Labels are listed by name, with a total count
    Given the repository "alice/demo" has the label "zeta" with the color "#00ff00"
    And the repository "alice/demo" has the label "alpha" with the color "#0000ff"
    When "alice" lists the labels of "alice/demo"
    Then the response status is 200
    And the response field "0.name" is "alpha"
    And the response field "1.name" is "zeta"
    And the response header "X-Total-Count" is "2"

  @gitea
  Scenario: A label is edited field by field
    Given the repository "alice/demo" has the label "bug" with the color "#ee0701"
    When "alice" edits the label "bug" of "alice/demo" with
      """
      {"color": "#00aa00", "description": "Something is broken"}
      """
    Then the response status is 200
    And the response field "name" is "bug"
    And the label "bug" of "alice/demo" has the color "00aa00" and the description "Something is broken"

  @gitea
  Scenario: A deleted label is gone
    Given the repository "alice/demo" has the label "bug" with the color "#ee0701"
    When "alice" deletes the label "bug" of "alice/demo"
    Then the response status is 204
    And the label "bug" of "alice/demo" no longer exists

  @gitea
  Scenario Outline: A label without a valid colour or name is refused with 422 and nothing is created
    When "alice" creates in "alice/demo" the label
      """
      <body>
      """
    Then the request is refused with status 422
    And "alice/demo" has as many labels as before

    Examples:
      | body                                 |
      | {"name": "bad", "color": "#12345"}   |
      | {"name": "bad", "color": "red"}      |
      | {"name": "bad"}                      |
      | {"color": "#ffffff"}                 |

  @gitea
  Scenario: An edit with a bad colour is refused with 422 and changes nothing
    Given the repository "alice/demo" has the label "bug" with the color "#ee0701"
    When "alice" edits the label "bug" of "alice/demo" with
      """
      {"name": "renamed", "color": "#zzzzzz"}
      """
    Then the request is refused with status 422
    And the label "bug" of "alice/demo" is unchanged with the color "ee0701"

  @gitea
  Scenario: A user who may only read the repository cannot create labels
    Given a user "bob"
    When "bob" creates in "alice/demo" the label
      """
      {"name": "sneaky", "color": "#000000"}
      """
    Then the request is refused with status 403
    And "alice/demo" has as many labels as before

  @gitea
  Scenario: A label is not reachable through another repository
    Given a repository "alice/other"
    And the repository "alice/demo" has the label "bug" with the color "#ee0701"
    When "alice" reads the label "bug" of "alice/demo" through "alice/other"
    Then the request is refused with status 404

@orgs
Feature: An organization's labels serve every repository of the organization
  An organization's owners create, change and delete its labels under /orgs/{org}/labels, as in Gitea 1.27
  (CreateLabelOption and EditLabelOption, the Label model, whose url is under /orgs/{org}/labels). Anyone
  who sees the organization lists them (paged, by name); reading one takes a token. The issues of the
  organization's repositories may carry its labels, named by id like their repositories' own labels, and
  the issue then shows them; a label of another organization named by id is left out, as Gitea leaves
  it out. A scoped label (scope/name) may be exclusive, as a repository's labels.

  Background:
    Given a user "alice"
    And an organization "acme" owned by "alice"

  @gitea
  Scenario: An owner creates an exclusive scoped label of the organization
    When "alice" creates in the organization "acme" the label
      """
      {"name": "priority/high", "color": "#E11D21", "description": "Do it now", "exclusive": true}
      """
    Then the response status is 201
    And the response is the label "priority/high" of the organization "acme"
    And the response field "exclusive" is true
    And the response field "color" is "e11d21"
    And the response field "description" is "Do it now"
    And the response field "is_archived" is false

  @gitea
  Scenario: The organization's labels are listed by name and paged
    Given the organization "acme" has the label "zeta" with the color "#000000"
    And the organization "acme" has the label "alpha" with the color "#111111"
    And the organization "acme" has the label "mid" with the color "#222222"
    When "an anonymous client" lists page 1 of the labels of the organization "acme" with 2 per page
    Then the response status is 200
    And the response lists the labels "alpha, mid" in this order
    And the response header "X-Total-Count" is "3"
    And the response has the header "Link"
    When "alice" lists page 2 of the labels of the organization "acme" with 2 per page
    Then the response lists the labels "zeta" in this order

  @gitea
  Scenario: A label of the organization is read, changed and deleted by its owner
    Given the organization "acme" has the label "bug" with the color "#ee0701"
    When "alice" reads the label "bug" of the organization "acme"
    Then the response status is 200
    And the response is the label "bug" of the organization "acme"
    When "alice" edits the label "bug" of the organization "acme" with
      """
      {"color": "00ff00", "description": "Something is broken"}
      """
    Then the response status is 200
    And the response field "color" is "00ff00"
    And the response field "description" is "Something is broken"
    And the response field "name" is "bug"
    When "alice" deletes the label "bug" of the organization "acme"
    Then the response status is 204
    And the label "bug" of the organization "acme" no longer exists

  @gitea
  Scenario Outline: A label with a bad name or colour is refused with 422 and nothing is stored
    When "alice" creates in the organization "acme" the label
      """
      <body>
      """
    Then the request is refused with status 422
    And the organization "acme" has 0 labels

    Examples:
      | body                                  |
      | {"name": "bug", "color": "not-a-colour"} |
      | {"name": "", "color": "#ee0701"}       |

  @gitea
  Scenario: Only the organization's owners change its labels; reading one takes a token
    Given a user "bob"
    And a team "writers" of "acme" with the permission "write"
    And "bob" is in the team "writers" of "acme"
    And the organization "acme" has the label "bug" with the color "#ee0701"
    When "bob" creates in the organization "acme" the label
      """
      {"name": "docs", "color": "#0075ca"}
      """
    Then the request is refused with status 403
    When "bob" deletes the label "bug" of the organization "acme"
    Then the request is refused with status 403
    When "bob" reads the label "bug" of the organization "acme"
    Then the response status is 200
    When "an anonymous client" reads the label "bug" of the organization "acme"
    Then the request is refused with status 401
    And the organization "acme" has 1 labels

  @gitea
  Scenario: A label of another organization is not found through this one
    Given an organization "other" owned by "alice"
    And the organization "other" has the label "bug" with the color "#ee0701"
    When "alice" reads the label "bug" of the organization "other" through the organization "acme"
    Then the request is refused with status 404

  @gitea
  Scenario: An issue of the organization's repository carries the organization's label
    Given a repository "acme/app"
    And the organization "acme" has the label "bug" with the color "#ee0701"
    And "alice" opened the issue "Crash" in "acme/app"
    When "alice" adds the label "bug" of the organization "acme" by its id to the issue "Crash" in "acme/app"
    Then the response status is 200
    And the issue "Crash" in "acme/app" has the labels "bug"
    And the issue "Crash" in "acme/app" shows "bug" as the label of the organization "acme"

  @gitea
  Scenario: A label of another organization is left out of an issue
    Given an organization "other" owned by "alice"
    And a repository "acme/app"
    And the organization "other" has the label "foreign" with the color "#ee0701"
    And "alice" opened the issue "Crash" in "acme/app"
    When "alice" adds the label "foreign" of the organization "other" by its id to the issue "Crash" in "acme/app"
    Then the response status is 200
    And the issue "Crash" in "acme/app" has the labels "none"

  @gitea
  Scenario: A deleted organization label leaves the issues that carried it
    Given a repository "acme/app"
    And the organization "acme" has the label "bug" with the color "#ee0701"
    And "alice" opened the issue "Crash" in "acme/app"
    And "alice" adds the label "bug" of the organization "acme" by its id to the issue "Crash" in "acme/app"
    When "alice" deletes the label "bug" of the organization "acme"
    Then the response status is 204
    And the issue "Crash" in "acme/app" has the labels "none"

  @gitea
  Scenario: An exclusive scoped label takes the issue's other label of its scope off
    Given a repository "acme/app"
    And "alice" opened the issue "Crash" in "acme/app"
    And the organization "acme" has the exclusive label "priority/high" with the color "#e11d21"
    And the organization "acme" has the exclusive label "priority/low" with the color "#00ff00"
    And the organization "acme" has the label "bug" with the color "#ee0701"
    And "alice" adds the label "priority/high" of the organization "acme" by its id to the issue "Crash" in "acme/app"
    And "alice" adds the label "bug" of the organization "acme" by its id to the issue "Crash" in "acme/app"
    When "alice" adds the label "priority/low" of the organization "acme" by its id to the issue "Crash" in "acme/app"
    Then the response status is 200
    And the issue "Crash" in "acme/app" has the labels "bug, priority/low"

@search
Feature: Searching repositories
  GET /repos/search answers Gitea's SearchResults envelope {"data": [...], "ok": true} with X-Total-Count
  and Link, and finds only repositories the caller may read. The keyword q (split at commas) matches a
  repository's name or, as a substring, one of its topics; with includeDesc also its description; with
  topic=true only whole topic names. private (true by default for a signed-in caller) says whether
  private repositories may appear; is_private, template and archived keep only the repositories with
  that flag; uid keeps a user's own repositories and those they collaborate on (exclusive=true: only
  their own; mode=collaborative: only the others); starredBy keeps what a user starred. Results come by
  name unless sort and order say otherwise; an unknown mode, sort or order is refused with 422.

  Background:
    Given a user "alice"
    And a user "bob"
    And a repository "alice/widget-one"
    And a private repository "alice/widget-two"

  @gitea
  Scenario: An anonymous search finds only public repositories, in the SearchResults envelope
    When "an anonymous client" searches repositories for "widget"
    Then the response status is 200
    And the search found exactly "alice/widget-one"
    And the response field "ok" is true
    And the response header "X-Total-Count" is "1"

  @gitea
  Scenario: The owner finds their private repositories too
    When "alice" searches repositories for "widget"
    Then the search found exactly "alice/widget-one, alice/widget-two"
    And the response header "X-Total-Count" is "2"

  @gitea
  Scenario: Another user does not find a private repository they cannot read
    When "bob" searches repositories for "widget"
    Then the search found exactly "alice/widget-one"

  @gitea
  Scenario: private=false leaves private repositories out even for their owner
    When "alice" searches repositories for "widget" with "private=false"
    Then the search found exactly "alice/widget-one"

  @gitea
  Scenario: is_private=true keeps only private repositories
    When "alice" searches repositories for "widget" with "is_private=true"
    Then the search found exactly "alice/widget-two"

  @gitea
  Scenario: A description matches only with includeDesc
    Given a repository "bob/gadget"
    And the description of "bob/gadget" mentions "sprocket"
    When "bob" searches repositories for "sprocket" with "includeDesc=true"
    Then the search found exactly "bob/gadget"

  @gitea
  Scenario: Without includeDesc the description is not searched
    Given a repository "bob/gadget"
    And the description of "bob/gadget" mentions "sprocket"
    When "bob" searches repositories for "sprocket"
    Then the search found nothing

  @gitea
  Scenario: A keyword matches part of a topic
    Given the repository "alice/widget-one" has the topics "gizmo"
    When "bob" searches repositories for "gizm"
    Then the search found exactly "alice/widget-one"

  @gitea
  Scenario: topic=true matches whole topic names only
    Given the repository "alice/widget-one" has the topics "gizmo"
    When "bob" searches repositories for "gizm" with "topic=true"
    Then the search found nothing

  @gitea
  Scenario: topic=true finds a repository by its topic
    Given the repository "alice/widget-one" has the topics "gizmo"
    When "bob" searches repositories for "gizmo" with "topic=true"
    Then the search found exactly "alice/widget-one"

  @gitea
  Scenario: sort=alpha with order=desc reverses the names
    When "alice" searches repositories for "widget" with "sort=alpha&order=desc"
    Then the search found exactly "alice/widget-two, alice/widget-one"

  @gitea
  Scenario: A page of the results links to the next one
    When "alice" searches repositories for "widget" with "limit=1&page=1"
    Then the search found exactly "alice/widget-one"
    And the response header "X-Total-Count" is "2"
    And the response has the header "Link"

  @gitea
  Scenario: uid finds a user's repositories and those they collaborate on
    Given a repository "bob/widget-three"
    And "bob" is a collaborator of "alice/widget-two" with the permission "read"
    When "bob" searches the repositories of "bob" for "widget"
    Then the search found exactly "bob/widget-three, alice/widget-two"

  @gitea
  Scenario: exclusive=true keeps only the user's own repositories
    Given a repository "bob/widget-three"
    And "bob" is a collaborator of "alice/widget-two" with the permission "read"
    When "bob" searches the repositories of "bob" for "widget" with "exclusive=true"
    Then the search found exactly "bob/widget-three"

  @gitea
  Scenario: mode=collaborative keeps only the repositories the user collaborates on
    Given a repository "bob/widget-three"
    And "bob" is a collaborator of "alice/widget-two" with the permission "read"
    When "bob" searches the repositories of "bob" for "widget" with "mode=collaborative"
    Then the search found exactly "alice/widget-two"

  @gitea
  Scenario: starredBy keeps what a user starred
    Given "bob" starred "alice/widget-one"
    When "alice" searches the repositories starred by "bob" for "widget"
    Then the search found exactly "alice/widget-one"

  @gitea
  Scenario: template=true keeps only template repositories
    Given the repository "alice/widget-two" is a template
    When "alice" searches repositories for "widget" with "template=true"
    Then the search found exactly "alice/widget-two"

  @gitea
  Scenario: archived=false leaves archived repositories out
    Given the repository "alice/widget-two" is archived
    When "alice" searches repositories for "widget" with "archived=false"
    Then the search found exactly "alice/widget-one"

  @gitea
  Scenario: mode=fork keeps only forks
    Given "bob" forked "alice/widget-one" as "bob/widget-fork"
    When "bob" searches repositories for "widget" with "mode=fork"
    Then the search found exactly "bob/widget-fork"

  @gitea
  Scenario: mode=source leaves forks out
    Given "bob" forked "alice/widget-one" as "bob/widget-fork"
    When "bob" searches repositories for "widget" with "mode=source"
    Then the search found exactly "alice/widget-one"

  @gitea
  Scenario Outline: An unknown mode, sort or order is refused
    When "alice" searches repositories for "widget" with "<query>"
    Then the request is refused with status 422
    And the error message mentions "<message>"

    Examples:
      | query            | message             |
      | mode=everything  | Invalid search mode |
      | sort=colour      | Invalid sort mode   |
      | sort=id&order=up | Invalid sort order  |

@orgs
Feature: Editing an organization's profile
  PATCH /orgs/{org} takes an EditOrgOption (full_name, description, website, location, visibility,
  e-mail) and answers the Organization. Owners and site administrators edit; a member who is not an
  owner is refused with 403. A visibility other than public, limited or private, and a website that
  is not an http(s) URL, are refused with 422.

  Background:
    Given a user "alice"
    And an organization "acme" owned by "alice"

  @gitea
  Scenario: The owner edits the organization's profile
    When "alice" edits the organization "acme" with the body
      """
      {"full_name": "Acme Corporation", "description": "We make things", "website": "https://acme.example",
       "location": "Springfield", "visibility": "limited"}
      """
    Then the response status is 200
    And the response field "full_name" is "Acme Corporation"
    And the response field "description" is "We make things"
    And the response field "website" is "https://acme.example"
    And the response field "location" is "Springfield"
    And the response field "visibility" is "limited"

  @gitea
  Scenario: An edit is kept
    Given a user "bob"
    And "alice" edited the organization "acme" with the full name "Acme Corporation"
    When "bob" fetches the organization "acme"
    Then the response status is 200
    And the response field "full_name" is "Acme Corporation"

  @gitea
  Scenario: A member who is not an owner cannot edit the organization
    Given a team "readers" of "acme" with the permission "read"
    And "bob" is in the team "readers" of "acme"
    When "bob" edits the organization "acme" with the body
      """
      {"full_name": "Bob's"}
      """
    Then the request is refused with status 403

  @gitea
  Scenario: An unknown visibility is refused
    When "alice" edits the organization "acme" with the body
      """
      {"visibility": "secret"}
      """
    Then the request is refused with status 422

  @gitea
  Scenario: A website that is not a URL is refused
    When "alice" edits the organization "acme" with the body
      """
      {"website": "not a url"}
      """
    Then the request is refused with status 422

  @gitea
  Scenario: An unknown organization cannot be edited
    When "alice" edits the organization "nowhere" with the body
      """
      {"full_name": "Nobody"}
      """
    Then the request is refused with status 404

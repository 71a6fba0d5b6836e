@settings
Feature: A user reads and changes their settings through /user/settings
  GET /user/settings answers the signed-in user's UserSettings as one JSON object (not an array,
  not wrapped). PATCH takes UserSettingsOptions, changes only the fields it names and answers the
  settings as they are then (200). full_name, website, description and location are the user's
  profile, so the User JSON shows them too. Over-long texts (full_name over 100, website or
  description over 255, location over 50 characters) and a website that is not an http(s) URL are
  refused with 422 and change nothing.

  Background:
    Given a user "alice"

  @spec @clause_S2_3_settings_topics @clause_S4_4_settings_topics
  Scenario: The settings are one JSON object
    When "alice" reads their settings
    Then the response status is 200

  @gitea @clause_S4_4_settings_topics
  Scenario: A change answers the settings and shows in the user's profile
    When "alice" updates their settings with
      """
      {"full_name": "Alice Example", "location": "Lyon", "website": "https://alice.example", "hide_activity": true}
      """
    Then the response status is 200
    And the response field "full_name" is "Alice Example"
    And the response field "website" is "https://alice.example"
    And the response field "hide_activity" is true
    And the user "alice" shows the full name "Alice Example" and the location "Lyon"

  @gitea @clause_S4_4_settings_topics
  Scenario: A change leaves the fields it does not name as they were
    Given a user "bob"
    When "bob" updates their settings with
      """
      {"description": "builds things"}
      """
    Then the response status is 200
    And the response field "description" is "builds things"
    And the response field "full_name" is ""
    And the response field "hide_email" is false

  @gitea @clause_S4_4_settings_topics
  Scenario Outline: A <field> of <length> characters is accepted
    When "alice" updates their settings with a <field> of <length> characters
    Then the response status is 200

    Examples:
      | field       | length |
      | full name   | 100    |
      | website     | 255    |
      | description | 255    |
      | location    | 50     |

  @gitea @clause_S4_4_settings_topics
  Scenario Outline: A <field> of <length> characters is refused with 422 and nothing changes
    When "alice" updates their settings with a <field> of <length> characters
    Then the request is refused with status 422
    And the settings of "alice" are unchanged

    Examples:
      | field       | length |
      | full name   | 101    |
      | website     | 256    |
      | description | 256    |
      | location    | 51     |

  @gitea @clause_S4_4_settings_topics
  Scenario Outline: A website that is not an http(s) URL is refused with 422
    When "alice" updates their settings with the website "<website>"
    Then the request is refused with status 422
    And the error message mentions "Website"
    And the settings of "alice" are unchanged

    Examples:
      | website              |
      | not a url            |
      | ftp://files.example  |

  @gitea @clause_S4_4_settings_topics
  Scenario: Without credentials the settings are unauthorized
    When an anonymous client reads the user settings
    Then the request is refused with status 401

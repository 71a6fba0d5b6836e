@protections
Feature: Tag protection rules are managed over REST
  A repository's administrators create, list, read, change and delete tag protection rules under
  /repos/{owner}/{repo}/tag_protections/{id}. A rule's name pattern is a glob ("v*") or a regular
  expression between slashes ("/^v[0-9]+$/"); only the users and teams of its allowlist may create,
  move or delete the tags it matches. As Gitea, an empty pattern and a rule without any allowlist are
  refused with 400, a second rule of the same pattern with 403 and an unknown user with 422.

  Background:
    Given a repository "dev/app"

  @spec @clause_S1_protected_branches @clause_S2_3_tag_protection @clause_S4_4_tag_protection
  Scenario: A tag protection rule is created, read, changed and deleted
    When "dev" creates a tag protection on "dev/app" with the body
      """
      {"name_pattern": "v*", "whitelist_usernames": ["{dev}"]}
      """
    Then the response status is 201
    And the response field "name_pattern" is "v*"
    And the response field "whitelist_usernames" lists exactly the names of "dev"
    When "dev" edits the tag protection of "dev/app" with the body
      """
      {"name_pattern": "/^v[0-9]+$/"}
      """
    Then the response status is 200
    And the response field "name_pattern" is "/^v[0-9]+$/"
    And the response field "whitelist_usernames" lists exactly the names of "dev"
    When "dev" gets the tag protection of "dev/app"
    Then the response status is 200
    And the response field "name_pattern" is "/^v[0-9]+$/"
    When "dev" lists the tag protections of "dev/app"
    Then the response status is 200
    And the response is a list of 1 items
    When "dev" deletes the tag protection of "dev/app"
    Then the response status is 204
    And the tag protections of "dev/app" are 0
    When "dev" gets the tag protection of "dev/app"
    Then the request is refused with status 404

  @gitea
  Scenario Outline: A tag protection rule with unusable options is refused and not stored
    When "dev" creates a tag protection on "dev/app" with the body
      """
      <body>
      """
    Then the request is refused with status <status>
    And the error message mentions "<message>"
    And the tag protections of "dev/app" are 0

    Examples:
      | body                                                               | status | message                                               |
      | {"name_pattern": "", "whitelist_usernames": ["{dev}"]}             | 400    | name_pattern are empty                                |
      | {"name_pattern": "v*"}                                             | 400    | both whitelist_usernames and whitelist_teams are empty |
      | {"name_pattern": "v*", "whitelist_usernames": ["{dev}-nobody"]}    | 422    | user does not exist                                   |

  @gitea
  Scenario: A second rule of the same pattern is refused with 403
    Given "dev" protects the tags "v*" of "dev/app" for "dev"
    When "dev" creates a tag protection on "dev/app" with the body
      """
      {"name_pattern": "v*", "whitelist_usernames": ["{dev}"]}
      """
    Then the request is refused with status 403
    And the error message mentions "Tag protection already exist"
    And the tag protections of "dev/app" are 1

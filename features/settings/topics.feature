@settings
Feature: Repositories carry topics, and topic search answers an object
  A repository's topics are listed as {"topics": [names]} by name and changed by its
  administrators: replaced as a whole (PUT .../topics), or one added or removed (PUT or DELETE
  .../topics/{topic}). A topic is trimmed and lower-cased, then must match ^[a-z0-9][-.a-z0-9]*$ and
  be at most 35 characters; a repository has at most 25 topics. Refusals are 422 with Gitea's body
  (a message and invalidTopics) and change nothing. GET /topics/search?q= answers an object
  {"topics": [TopicResponse]} with X-Total-Count, the most used topics first.

  Background:
    Given a user "dev"
    And a repository "dev/app"

  @spec @clause_S2_3_settings_topics @clause_S4_4_settings_topics
  Scenario: Topic search answers an object, not an array
    Given the repository "dev/app" has the topics "python, web"
    When "dev" searches the topics for "python"
    Then the response status is 200
    And the search finds, in order, "python:1"

  @gitea @clause_S4_4_settings_topics
  Scenario: Topic search puts the most used topics first and counts them
    Given a repository "dev/lib"
    And the repository "dev/app" has the topics "shared, solo"
    And the repository "dev/lib" has the topics "shared"
    When an anonymous client searches the topics of this scenario
    Then the response status is 200
    And the search finds, in order, "shared:2, solo:1"

  @gitea @clause_S2_3_settings_topics
  Scenario: A repository's topics are replaced and listed by name
    When "dev" replaces the topics of "dev/app" with "zeta, alpha, mid"
    Then the response status is 204
    When "dev" lists the topics of "dev/app"
    Then the response status is 200
    And the topic list is exactly "alpha, mid, zeta"
    And the response header "X-Total-Count" is "3"

  @gitea @clause_S2_3_settings_topics
  Scenario: One topic is added and removed
    Given the repository "dev/app" has the topics "first"
    When "dev" adds the topic "second" to "dev/app"
    Then the response status is 204
    And the topics of "dev/app" are exactly "first, second"
    When "dev" removes the topic "first" from "dev/app"
    Then the response status is 204
    And the topics of "dev/app" are exactly "second"

  @gitea @clause_S2_3_settings_topics
  Scenario: Removing a topic the repository does not carry is not found
    When "dev" removes the topic "absent" from "dev/app"
    Then the request is refused with status 404

  @gitea @clause_S2_3_settings_topics
  Scenario: Invalid names refuse the whole replacement
    Given the repository "dev/app" has the topics "kept"
    When "dev" replaces the topics of "dev/app" with "fine" and the invalid names "-dash-first,Has Space"
    Then the request is refused with status 422 naming invalid topics
    And the refused topics are "-dash-first,has space"
    And the topics of "dev/app" are exactly "kept"

  @gitea @clause_S2_3_settings_topics
  Scenario Outline: An invalid topic is not added
    When "dev" adds the invalid topic "<topic>" to "dev/app"
    Then the request is refused with status 422 naming invalid topics
    And "dev/app" has no topics

    Examples:
      | topic                                  |
      | under_score                            |
      | .dot-first                             |
      | abcdefghijklmnopqrstuvwxyz0123456789   |

  @gitea @clause_S2_3_settings_topics
  Scenario: More than 25 topics are refused
    When "dev" replaces the topics of "dev/app" with 26 topics
    Then the request is refused with status 422 naming invalid topics
    And "dev/app" has no topics

  @gitea @clause_S2_3_settings_topics
  Scenario: Only the repository's administrators change its topics
    Given a user "eve"
    When "eve" replaces the topics of "dev/app" with "mine"
    Then the request is refused with status 403
    And "dev/app" has no topics

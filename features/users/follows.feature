@users
Feature: Following users
  A user follows another with PUT /user/following/{username} (204, also when already following or when
  naming themself, which changes nothing) and stops with DELETE. GET /user/following/{username} and
  GET /users/{username}/following/{target} answer 204 or 404. The lists of followers and followed users,
  and the followers_count and following_count of the User model, count the follows made.

  Background:
    Given a user "alice"
    And a user "bob"
    And a user "carol"

  @gitea
  Scenario: Following a user shows on both sides and in the counts
    When "bob" follows "alice"
    Then the response status is 204
    And "bob" is among the followers of "alice"
    And "alice" has 1 followers and follows 0 users
    And "bob" has 0 followers and follows 1 users

  @gitea
  Scenario: Following twice or following oneself changes nothing
    Given "bob" is following "alice"
    When "bob" follows "alice"
    Then the response status is 204
    And "alice" has 1 followers and follows 0 users

  @gitea
  Scenario: Following oneself is accepted and counts nothing
    When "alice" follows "alice"
    Then the response status is 204
    And "alice" has 0 followers and follows 0 users

  @gitea
  Scenario: The followers of a user are listed with their total
    Given "bob" is following "alice"
    And "carol" is following "alice"
    When "an anonymous client" lists the followers of "alice"
    Then the response lists exactly the users "bob, carol"
    And the response header "X-Total-Count" is "2"

  @gitea
  Scenario: The users a user follows are listed
    Given "bob" is following "alice"
    And "bob" is following "carol"
    When "alice" lists the users "bob" follows
    Then the response lists exactly the users "alice, carol"

  @gitea
  Scenario: The caller's own followers are listed
    Given "bob" is following "alice"
    When "alice" lists their followers
    Then the response lists exactly the users "bob"

  @gitea
  Scenario: The users the caller follows are listed
    Given "bob" is following "carol"
    When "bob" lists the users they follow
    Then the response lists exactly the users "carol"

  @gitea
  Scenario: The caller checks a follow of theirs
    Given "bob" is following "alice"
    When "bob" checks whether they follow "alice"
    Then the response status is 204

  @gitea
  Scenario: A follow the caller did not make is not found
    Given "bob" is following "alice"
    When "alice" checks whether they follow "bob"
    Then the request is refused with status 404

  @gitea
  Scenario: Anyone checks whether one user follows another
    Given "bob" is following "alice"
    When "an anonymous client" checks whether "bob" follows "alice"
    Then the response status is 204

  @gitea
  Scenario: A follow in the other direction is not found
    Given "bob" is following "alice"
    When "an anonymous client" checks whether "alice" follows "bob"
    Then the request is refused with status 404

  @gitea
  Scenario: Unfollowing removes the follow and its counts
    Given "bob" is following "alice"
    When "bob" unfollows "alice"
    Then the response status is 204
    And "bob" is not among the followers of "alice"
    And "alice" has 0 followers and follows 0 users

  @gitea
  Scenario: Following a user nobody has is not found
    When "bob" follows "nobody"
    Then the request is refused with status 404

  @gitea
  Scenario: Following needs credentials
    When "an anonymous client" follows "alice"
    Then the request is refused with status 401

  @gitea
  Scenario: A private follower is left out of the lists others read
    Given "bob" is following "alice"
    And "carol" is following "alice"
    And the admin edits the user "bob" with
      """
      {"visibility": "private"}
      """
    When "an anonymous client" lists the followers of "alice"
    Then the response lists exactly the users "carol"
    And the response header "X-Total-Count" is "1"

  @gitea
  Scenario: A private follower is listed to itself
    Given "bob" is following "alice"
    And the admin edits the user "bob" with
      """
      {"visibility": "private"}
      """
    When "bob" lists the followers of "alice"
    Then the response lists exactly the users "bob"

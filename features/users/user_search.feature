@users
Feature: Searching users
  GET /users/search finds users (never organizations) whose name or full name contains q, or the one
  whose id is uid, alphabetically, in Gitea's {"data": [...], "ok": true} envelope with X-Total-Count and
  Link. Anonymous callers find public users only, signed-in callers limited ones too; a private user is
  found by site administrators and by itself. The literal path /users/search is never read as the user
  named "search".

  Background:
    Given a user "alice"
    And a user "bob"

  @gitea
  Scenario: A user is found by name
    When "an anonymous client" searches users for the name of "alice"
    Then the response status is 200
    And the search found exactly the users "alice"

  @gitea
  Scenario: A user is found by id
    When "alice" searches users by the id of "bob"
    Then the search found exactly the users "bob"

  @gitea
  Scenario: The results are paged with a total and links
    Given a user "carol"
    When "alice" searches users for the scenario's names with 2 per page
    Then the search found exactly the users "alice, bob"
    And the response header "X-Total-Count" is "3"
    And the response has the header "Link"

  @gitea
  Scenario: Organizations are not found
    Given an organization "guild" owned by "alice"
    When "alice" searches users for the scenario's names with 10 per page
    Then the search found exactly the users "alice, bob"

  @gitea
  Scenario: A private user is hidden from other users
    Given the admin edits the user "bob" with
      """
      {"visibility": "private"}
      """
    When "alice" searches users for the name of "bob"
    Then the search found exactly the users "nobody"

  @gitea
  Scenario: A private user finds itself
    Given the admin edits the user "bob" with
      """
      {"visibility": "private"}
      """
    When "bob" searches users for the name of "bob"
    Then the search found exactly the users "bob"

  @gitea
  Scenario: A limited user is hidden from anonymous callers
    Given the admin edits the user "bob" with
      """
      {"visibility": "limited"}
      """
    When "an anonymous client" searches users for the name of "bob"
    Then the search found exactly the users "nobody"

  @gitea
  Scenario: A limited user is found by signed-in users
    Given the admin edits the user "bob" with
      """
      {"visibility": "limited"}
      """
    When "alice" searches users for the name of "bob"
    Then the search found exactly the users "bob"

  @gitea
  Scenario: A public-only token finds public users only
    Given the admin edits the user "bob" with
      """
      {"visibility": "limited"}
      """
    And "alice" has a token "pub" scoped "public-only,read:user"
    When the token "pub" searches users for the name of "bob"
    Then the search found exactly the users "nobody"

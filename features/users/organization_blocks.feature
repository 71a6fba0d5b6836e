@users
Feature: Organizations blocking users
  An organization's owners block users with PUT /orgs/{org}/blocks/{username}, list them, check them and
  lift the blocks; a blocked user cannot star the organization's repositories; nobody blocks a member of
  the organization; other users may not manage its blocks (403).

  Background:
    Given a user "owner"
    And a user "troll"
    And an organization "guild" owned by "owner"

  @gitea
  Scenario: An owner blocks a user for the organization
    When "owner" blocks "troll" for the organization "guild"
    Then the response status is 204
    And "troll" is blocked by the organization "guild"

  @gitea
  Scenario: The organization's blocks are listed
    Given "owner" blocked "troll" for the organization "guild"
    When "owner" lists the users the organization "guild" blocks
    Then the response lists exactly the users "troll"

  @gitea
  Scenario: A user the organization does not block is not found
    When "owner" checks whether the organization "guild" blocks "troll"
    Then the request is refused with status 404

  @gitea
  Scenario: A user blocked by an organization cannot star its repositories
    Given a repository "guild/hall"
    And "owner" blocked "troll" for the organization "guild"
    When "troll" stars "guild/hall"
    Then the request is refused with status 403
    And the repository "guild/hall" has 0 stars

  @gitea
  Scenario: An organization cannot block its own member
    When "owner" blocks "owner" for the organization "guild"
    Then the request is refused with status 400

  @gitea
  Scenario: Unblocking for the organization lifts the block
    Given "owner" blocked "troll" for the organization "guild"
    When "owner" unblocks "troll" for the organization "guild"
    Then the response status is 204
    And "troll" is not blocked by the organization "guild"

  @gitea
  Scenario: A user who does not own the organization cannot manage its blocks
    When "troll" lists the users the organization "guild" blocks
    Then the request is refused with status 403
    And the error message mentions "organization owner"

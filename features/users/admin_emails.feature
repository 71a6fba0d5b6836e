@users
Feature: A site administrator lists users' e-mail addresses
  GET /admin/emails lists every user's e-mail addresses (Gitea's Email: the address, whether it is the
  primary and verified one, the user's id and name), paged; GET /admin/emails/search narrows them to those
  whose address or user matches q. Only site administrators may list them.

  Background:
    Given a user "bob"

  @gitea
  Scenario: The admin finds a user's primary address by the user's name
    When the admin searches the e-mail addresses for the name of "bob"
    Then the e-mail address of "bob" is listed as their primary one

  @gitea
  Scenario: A search matching nobody lists nothing
    When the admin searches the e-mail addresses for "no-such-address-anywhere"
    Then the response is a list of 0 items

  @gitea
  Scenario Outline: A user who is not a site administrator cannot list e-mail addresses
    When "bob" sends GET "<path>"
    Then the request is refused with status 403

    Examples:
      | path                     |
      | /admin/emails            |
      | /admin/emails/search?q=a |

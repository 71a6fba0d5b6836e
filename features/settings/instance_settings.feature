@settings
Feature: Anyone reads the instance's general settings
  Clients shape their requests by the instance's general settings: GET /settings/api (page sizes and the
  largest blob and answer), /settings/ui (the reactions issues and comments accept, custom emojis, the
  default theme), /settings/repository (which repository features are switched off) and
  /settings/attachment (whether attachments are allowed, their types, largest size in MiB and count).
  Gitea answers all four to anyone, signed in or not, as plain objects. Their values are the
  operator's, so these scenarios check what must hold whatever they are: a default page that fits in
  the largest page, each reaction named once, and room for at least one attachment when attachments are
  enabled.

  @gitea
  Scenario Outline: An anonymous client reads the <kind> settings
    When an anonymous client sends GET "/settings/<kind>"
    Then the response status is 200

    Examples:
      | kind       |
      | api        |
      | ui         |
      | repository |
      | attachment |

  @gitea
  Scenario: The default page fits in the largest page
    When an anonymous client sends GET "/settings/api"
    Then the response field "default_paging_num" is at most the response field "max_response_items"

  @gitea
  Scenario: The UI settings name each allowed reaction once
    When an anonymous client sends GET "/settings/ui"
    Then the response field "allowed_reactions" names each item once

  @gitea
  Scenario: Enabled attachments leave room for at least one file
    When an anonymous client sends GET "/settings/attachment"
    Then the attachment settings allow at least one file of at least one MiB when enabled

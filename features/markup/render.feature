@markup
Feature: Markup is rendered as HTML
  POST /markup takes a MarkupOption {Text, Mode, Context, FilePath, Wiki} (JSON keys matched without
  regard to case, as Gitea's decoder does) and answers the rendered HTML (text/html; charset=utf-8).
  Modes: "" and markdown (a document), gfm (a document of a repository: relative links resolve against
  Context), comment (hard line breaks, #123 links to an issue of the repository named by Context or by the
  route, @name to an existing account), wiki (relative links go to the repository's wiki), and file (the
  renderer registered for FilePath's extension: Markdown for .md/.markdown, Gitea's CSV table for
  .csv/.tsv). An unknown mode is 422 "Unknown mode: x" and a file without a renderer 422
  "unsupported file to render: "x"", both as plain text, as Gitea answers. POST /markdown (MarkdownOption)
  and POST /markdown/raw (the text as the body) are kept; all three also exist under
  /repos/{owner}/{repo}. Output is sanitised: no script, no event handler attributes, no javascript: URLs.
  A token is required (401 without one).

  Background:
    Given a repository "dev/app"

  @spec @clause_S1_markup @clause_S4_4_markup
  Scenario: Markdown is rendered with GitHub's tables, strikethrough and task lists
    When "dev" renders in the mode "markdown" the text
      """
      # Release notes

      - [x] tables
      - [ ] emoji

      | Area | State |
      |------|-------|
      | feeds | done |

      ~~old~~ new
      """
    Then the response status is 200
    And the response is HTML
    And the HTML has a "h1" element reading "Release notes"
    And the HTML has a checkbox that is checked
    And the HTML has a checkbox that is unchecked
    And the HTML has a "td" element reading "feeds"
    And the HTML has a "del" element reading "old"

  @spec @clause_S4_4_markup
  Scenario: Comment mode links issue references and mentions to the repository in the context
    When "dev" renders "Fixed by #1, thanks @{dev}" in the mode "comment" with the context "{dev/app}"
    Then the response status is 200
    And the response is HTML
    And the HTML links "#1" to issue 1 of "dev/app"
    And the HTML links "@{dev}" to the profile of "dev"

  @spec @clause_S4_4_markup
  Scenario: The gfm mode renders a repository document
    When "dev" renders "Read the **guide**" in the mode "gfm" with the context "{dev/app}"
    Then the response status is 200
    And the HTML has a "strong" element reading "guide"

  @spec @clause_S1_markup @clause_S4_4_markup
  Scenario: File mode renders a Markdown file by its extension
    When "dev" renders the file "docs/README.md" with the content
      """
      ## Install

      Run `make`.
      """
    Then the response status is 200
    And the response is HTML
    And the HTML has a "h2" element reading "Install"
    And the HTML has a "code" element reading "make"

  @spec @clause_S1_markup @clause_S4_4_markup
  Scenario: File mode renders a CSV file as a table with another renderer
    When "dev" renders the file "data/sizes.csv" with the content
      """
      name,size
      feeds,12
      """
    Then the response status is 200
    And the HTML has a "th" element reading "size"
    And the HTML has a "td" element reading "feeds"

  @spec @clause_S4_4_markup @clause_S9_4
  Scenario: The API /markdown is kept
    When "dev" renders with /markdown the body
      """
      {"Text": "*kept*", "Mode": "markdown"}
      """
    Then the response status is 200
    And the response is HTML
    And the HTML has a "em" element reading "kept"

  @gitea
  Scenario: /markdown/raw renders the request body
    When "dev" renders with /markdown/raw the text
      """
      **raw**
      """
    Then the response status is 200
    And the HTML has a "strong" element reading "raw"

  @gitea
  Scenario: An unknown mode is refused in plain text
    When "dev" renders with /markup the body
      """
      {"Text": "x", "Mode": "slides"}
      """
    Then the response status is 422
    And the response text is "Unknown mode: slides"

  @gitea
  Scenario: A file without a renderer is refused in plain text
    When "dev" renders the file "notes.xyz" with the content
      """
      plain
      """
    Then the response status is 422
    And the response text reads
      """
      unsupported file to render: "notes.xyz"
      """

  @gitea
  Scenario: Option keys are matched without regard to case
    When "dev" renders with /markup the body
      """
      {"TEXT": "**loud**", "mode": "markdown"}
      """
    Then the response status is 200
    And the HTML has a "strong" element reading "loud"

  @gitea
  Scenario: Rendered HTML is sanitised
    When "dev" renders in the mode "markdown" the text
      """
      <script>alert(1)</script>
      <a href="javascript:alert(2)" onclick="steal()">click</a>
      <img src="x.png" onerror="steal()">
      """
    Then the response status is 200
    And the HTML has no "script" element
    And no element of the HTML has the attribute "onclick"
    And no element of the HTML has the attribute "onerror"
    And no link of the HTML goes to a "javascript" URL

  @gitea
  Scenario: The repository route makes the repository the context of a comment
    When "dev" renders "See #3" in the mode "comment" under "dev/app"
    Then the response status is 200
    And the HTML links "#3" to issue 3 of "dev/app"

  @reference
  Scenario: A mention of an account that does not exist is left as text
    When "dev" renders "ping @no-such-user-here" in the mode "comment" with the context "{dev/app}"
    Then the response status is 200
    And the HTML has no link reading "@no-such-user-here"

  @reference
  Scenario: Wiki mode sends relative links to the repository's wiki
    When "dev" renders "[Home](Home)" in the mode "wiki" with the context "{dev/app}"
    Then the response status is 200
    And the HTML links "Home" to a path ending in "/{dev/app}/wiki/Home"

  @gitea
  Scenario: Rendering needs a token
    When "an anonymous client" renders with /markup the body
      """
      {"Text": "x", "Mode": "markdown"}
      """
    Then the request is refused with status 401

@issue_config
Feature: The issue configuration of the default branch can disable blank issues when templates exist
  GET /repos/{owner}/{repo}/issue_config answers Gitea 1.27's IssueConfig {blank_issues_enabled,
  contact_links [{name, url, about}]} read from the default branch: the first of config.yaml then
  config.yml in .gitea/ISSUE_TEMPLATE, .gitea/issue_template, .github/ISSUE_TEMPLATE and
  .github/issue_template. Without a file, in an empty repository, or when the file is invalid, it
  answers the defaults (blank issues enabled, no contact links), never an error; GET .../validate says
  {valid, message} with Gitea's messages ("contact_link at position N is missing url key", "<url> is not
  a valid URL"). GET .../issue_templates lists the valid templates of the template directories:
  Markdown files with YAML front matter (content) and YAML issue forms (body fields), as IssueTemplate.
  Gitea enforces blank_issues_enabled: false only in its web UI, so over the API an issue without a
  template is still opened; the reference follows Gitea.

  Background:
    Given a repository "dev/app"
    And a user "bob"

  @spec @clause_S2_3_issue_config @clause_S1_issue_locking_pinning
  Scenario: A configuration file disables blank issues and the repository has issue templates
    Given the repository "dev/app" has the file ".gitea/ISSUE_TEMPLATE/config.yaml" with the content
      """
      blank_issues_enabled: false
      """
    And the repository "dev/app" has the file ".gitea/ISSUE_TEMPLATE/bug.md" with the content
      """
      ---
      name: Bug report
      about: Something does not work
      labels: bug
      ---
      What happened?
      """
    When "bob" reads the issue configuration of "dev/app"
    Then the response status is 200
    And the response field "blank_issues_enabled" is false
    And the response has no contact links
    And the issue templates of "dev/app" are "Bug report"

  @reference
  Scenario: With blank issues disabled an issue is still opened over the API
    Gitea 1.27 enforces blank_issues_enabled: false only in its web UI (the "new issue" page offers the
    templates instead of a blank form); its API opens the issue. The reference follows Gitea and
    refuses nothing: the configuration is reported, not enforced.
    Given the repository "dev/app" has the file ".gitea/ISSUE_TEMPLATE/config.yaml" with the content
      """
      blank_issues_enabled: false
      """
    And the repository "dev/app" has the file ".gitea/ISSUE_TEMPLATE/bug.md" with the content
      """
      ---
      name: Bug report
      about: Something does not work
      ---
      What happened?
      """
    When "bob" opens the issue "Written without a template" in "dev/app"
    Then the response status is 201
    And "dev/app" has 1 issues

  @gitea
  Scenario: Without a configuration file blank issues are enabled and the file is valid
    When "bob" reads the issue configuration of "dev/app"
    Then the response status is 200
    And the response field "blank_issues_enabled" is true
    And the response has no contact links

  @gitea
  Scenario: A missing file validates as valid with an empty message
    When "bob" validates the issue configuration of "dev/app"
    Then the response status is 200
    And the response field "valid" is true
    And the response field "message" is ""

  @gitea
  Scenario: Contact links are read from the .github directory
    Given the repository "dev/app" has the file ".github/ISSUE_TEMPLATE/config.yml" with the content
      """
      contact_links:
        - name: Forum
          url: https://forum.example.com/c/help
          about: Questions go here
      """
    When "bob" reads the issue configuration of "dev/app"
    Then the response status is 200
    And the response field "blank_issues_enabled" is true
    And the response field "contact_links.0.name" is "Forum"
    And the response field "contact_links.0.url" is "https://forum.example.com/c/help"
    And the response field "contact_links.0.about" is "Questions go here"

  @gitea
  Scenario: The .gitea directory is read before the .github directory
    Given the repository "dev/app" has the file ".github/ISSUE_TEMPLATE/config.yaml" with the content
      """
      blank_issues_enabled: true
      """
    And the repository "dev/app" has the file ".gitea/issue_template/config.yml" with the content
      """
      blank_issues_enabled: false
      """
    When "bob" reads the issue configuration of "dev/app"
    Then the response status is 200
    And the response field "blank_issues_enabled" is false

  @gitea
  Scenario: A contact link without a url makes the file invalid and the defaults apply
    Given the repository "dev/app" has the file ".gitea/ISSUE_TEMPLATE/config.yaml" with the content
      """
      blank_issues_enabled: false
      contact_links:
        - name: Forum
          about: Questions go here
      """
    When "bob" validates the issue configuration of "dev/app"
    Then the response status is 200
    And the response field "valid" is false
    And the response field "message" is "contact_link at position 1 is missing url key"

  @gitea
  Scenario: An invalid file is read as the defaults
    Given the repository "dev/app" has the file ".gitea/ISSUE_TEMPLATE/config.yaml" with the content
      """
      blank_issues_enabled: false
      contact_links:
        - name: Forum
          about: Questions go here
      """
    When "bob" reads the issue configuration of "dev/app"
    Then the response status is 200
    And the response field "blank_issues_enabled" is true
    And the response has no contact links

  @gitea
  Scenario: A contact link whose url is not a URL is reported
    Given the repository "dev/app" has the file ".gitea/ISSUE_TEMPLATE/config.yaml" with the content
      """
      contact_links:
        - name: Forum
          url: forum.example.com
          about: Questions go here
      """
    When "bob" validates the issue configuration of "dev/app"
    Then the response status is 200
    And the response field "valid" is false
    And the response field "message" is "forum.example.com is not a valid URL"

  @gitea
  Scenario: Markdown templates and YAML issue forms are listed with their fields
    Given the repository "dev/app" has the file ".gitea/ISSUE_TEMPLATE/bug.yaml" with the content
      """
      name: Bug report
      about: Something does not work
      title: "[Bug]: "
      labels: [bug]
      body:
        - type: textarea
          id: what
          attributes:
            label: What happened?
          validations:
            required: true
      """
    And the repository "dev/app" has the file ".gitea/ISSUE_TEMPLATE/idea.md" with the content
      """
      ---
      name: Feature idea
      about: Suggest something
      ---
      Describe the idea.
      """
    When "bob" lists the issue templates of "dev/app"
    Then the response status is 200
    And the response lists the templates "Bug report, Feature idea"
    And the response field "0.title" is "[Bug]: "
    And the response field "0.labels" lists "bug"
    And the response field "0.body.0.type" is "textarea"
    And the response field "0.body.0.id" is "what"
    And the response field "0.file_name" is ".gitea/ISSUE_TEMPLATE/bug.yaml"
    And the response field "1.about" is "Suggest something"
    And the response field "1.body" is null

  @gitea
  Scenario: A template without a name is left out and counted in a warning header
    Given the repository "dev/app" has the file ".gitea/ISSUE_TEMPLATE/nameless.md" with the content
      """
      ---
      about: No name here
      ---
      Body
      """
    When "bob" lists the issue templates of "dev/app"
    Then the response status is 200
    And the response lists the templates "nothing"
    And the response header "X-Gitea-Warning" is "error occurs when parsing issue template: count=1"

  @gitea
  Scenario: An empty repository has the default configuration and no templates
    Given an empty repository "dev/void"
    When "bob" reads the issue configuration of "dev/void"
    Then the response status is 200
    And the response field "blank_issues_enabled" is true
    And the response has no contact links

  @gitea
  Scenario: The configuration of a private repository is hidden from strangers
    Given a private repository "dev/secret"
    When "bob" reads the issue configuration of "dev/secret"
    Then the request is refused with status 404

@wiki
Feature: A repository's wiki keeps one Markdown page per file, written by writers and read by readers
  Gitea 1.27 keeps a repository's wiki in the Git repository <repo>.wiki.git, on the branch master, one
  file per page. POST /repos/{owner}/{repo}/wiki/new writes a page (201 WikiPage), GET, PATCH and DELETE
  /wiki/page/{pageName} read, change and remove one, GET /wiki/pages lists them (WikiPageMetaData) and
  GET /wiki/revisions/{pageName} lists the commits that changed one (WikiCommitList). A page is named by
  its web path (sub_url): spaces of the title become dashes, and a title holding a dash keeps its spaces
  and ends with the marker ".-" instead. Contents travel in base64; the sidebar and footer are the pages
  _Sidebar and _Footer. Writers edit, readers read, a private repository's wiki is as unknown as the
  repository to whom may not read it, and nothing is readable before the first page.

  Background:
    Given a repository "dev/app"
    And a user "bob"

  @gitea
  Scenario: A writer adds a page and a reader reads it
    Given "carol" is a collaborator of "dev/app" with the permission "write"
    When "carol" creates the wiki page "Home Page" in "dev/app" with the content "# Welcome"
    Then the response status is 201
    And the response field "title" is "Home Page"
    And the response field "sub_url" is "Home-Page"
    And the response field "commit_count" is 1
    And the wiki page "Home-Page" of "dev/app" has the content "# Welcome"

  @gitea
  Scenario Outline: A page's web path follows Gitea's escaping of its title
    When "dev" creates the wiki page "<title>" in "dev/app" with the content "text"
    Then the response status is 201
    And the response field "sub_url" is "<web path>"
    And the response field "title" is "<title>"
    And the wiki page "<web path>" of "dev/app" has the content "text"

    Examples:
      | title              | web path              |
      | Release Notes      | Release-Notes         |
      | 2000-01-02 meeting | 2000-01-02+meeting.-  |
      | 100% Free          | 100%25-Free           |
      | Plans/2026         | Plans%2F2026          |

  @gitea
  Scenario: A page is read with the wiki's sidebar and footer
    Given the wiki of "dev/app" has the page "Home" with the content "home"
    And the wiki of "dev/app" has the page "_Sidebar" with the content "links"
    And the wiki of "dev/app" has the page "_Footer" with the content "bye"
    When "bob" reads the wiki page "Home" of "dev/app"
    Then the response status is 200
    And the wiki page has the content "home"
    And the wiki page shows the sidebar "links" and the footer "bye"

  @gitea
  Scenario: Anonymous clients read the wiki of a public repository
    Given the wiki of "dev/app" has the page "Home" with the content "home"
    When "an anonymous client" reads the wiki page "Home" of "dev/app"
    Then the response status is 200
    And the wiki page has the content "home"

  @gitea
  Scenario Outline: Who may not write the wiki is refused
    Given the wiki of "dev/app" has the page "Home" with the content "home"
    And "carol" is a collaborator of "dev/app" with the permission "read"
    When "<who>" creates the wiki page "Notes" in "dev/app" with the content "mine"
    Then the request is refused with status <status>
    And the wiki of "dev/app" has no page "Notes"

    Examples:
      | who                 | status |
      | bob                 | 403    |
      | carol               | 403    |
      | an anonymous client | 401    |

  @gitea
  Scenario: A reader may neither change nor delete a page
    Given the wiki of "dev/app" has the page "Home" with the content "home"
    When "bob" changes the wiki page "Home" of "dev/app" to the title "Home" and the content "defaced"
    Then the request is refused with status 403
    And the wiki page "Home" of "dev/app" has the content "home"

  @gitea
  Scenario: The wiki of a private repository is unknown to whom may not read it
    Given a private repository "dev/secret"
    And the wiki of "dev/secret" has the page "Home" with the content "plans"
    When "bob" reads the wiki page "Home" of "dev/secret"
    Then the request is refused with status 404

  @gitea
  Scenario: Before its first page a repository's wiki is not found
    When "bob" lists the wiki pages of "dev/app"
    Then the request is refused with status 404

  @gitea
  Scenario Outline: A page that cannot be written is refused with 400
    Given the wiki of "dev/app" has the page "Home" with the content "home"
    When "dev" creates the wiki page "<title>" in "dev/app" with the base64 content "<content>"
    Then the request is refused with status 400

    Examples:
      | title  | content  |
      | Home   | aG9tZQ== |
      | _pages | aG9tZQ== |
      | raw    | aG9tZQ== |
      | Notes  | not%b64  |

  @gitea
  Scenario: A page that exists already is not overwritten by a new page
    Given the wiki of "dev/app" has the page "Home" with the content "home"
    When "dev" creates the wiki page "Home" in "dev/app" with the content "other"
    Then the request is refused with status 400
    And the error message mentions "already exists"
    And the wiki page "Home" of "dev/app" has the content "home"

  @gitea
  Scenario: A change is a new revision of the page
    Given the wiki of "dev/app" has the page "Home" with the content "v1"
    When "dev" changes the wiki page "Home" of "dev/app" to the title "Home" and the content "v2"
    Then the response status is 200
    And the wiki page has the content "v2"
    And the response field "commit_count" is 2

  @gitea
  Scenario: The revisions of a page are its commits, newest first, with Gitea's default messages
    Given the wiki of "dev/app" has the page "Home" with the content "v1"
    And the wiki of "dev/app" has the page "Other" with the content "x"
    And "dev" changed the content of the wiki page "Home" of "dev/app" to "v2"
    When "bob" lists the revisions of the wiki page "Home" of "dev/app"
    Then the response status is 200
    And the revisions, newest first, have the messages
      """
      Update "Home"
      Add "Home"
      """

  @gitea
  Scenario: A new title moves the page
    Given the wiki of "dev/app" has the page "Draft" with the content "text"
    When "dev" changes the wiki page "Draft" of "dev/app" to the title "Final Plan" and the content "text"
    Then the response status is 200
    And the response field "sub_url" is "Final-Plan"
    And the wiki page "Final-Plan" of "dev/app" has the content "text"
    And the wiki of "dev/app" has no page "Draft"

  @gitea
  Scenario: A change without a title moves the page to "unnamed", as Gitea 1.27 does
    Gitea 1.27 turns the missing title into the web path "unnamed" (UserTitleToWebPath of an empty
    title) and so renames the page; a client must send the title it wants to keep.
    Given the wiki of "dev/app" has the page "Draft" with the content "v1"
    When "dev" changes only the content of the wiki page "Draft" of "dev/app" to "v2"
    Then the response status is 200
    And the response field "sub_url" is "unnamed"
    And the wiki of "dev/app" has no page "Draft"

  @gitea
  Scenario: A deleted page is gone and deleting it again is not found
    Given the wiki of "dev/app" has the page "Home" with the content "home"
    And the wiki of "dev/app" has the page "Old" with the content "old"
    And "dev" deleted the wiki page "Old" of "dev/app"
    When "dev" deletes the wiki page "Old" of "dev/app"
    Then the request is refused with status 404
    And the wiki of "dev/app" has no page "Old"
    And the wiki page "Home" of "dev/app" has the content "home"

  @gitea
  Scenario: The page list names every page with its title
    Given the wiki of "dev/app" has the page "Home" with the content "home"
    And the wiki of "dev/app" has the page "Release Notes" with the content "notes"
    When "bob" lists the wiki pages of "dev/app"
    Then the response status is 200
    And the listed wiki pages are "Home, Release Notes"
    And the response header "X-Total-Count" is "2"

  @gitea
  Scenario: The page list is paged over the wiki's files
    Given the wiki of "dev/app" has the page "A" with the content "a"
    And the wiki of "dev/app" has the page "B" with the content "b"
    And the wiki of "dev/app" has the page "C" with the content "c"
    When "bob" lists the wiki pages of "dev/app" 2 a page, page 2
    Then the response status is 200
    And the listed wiki pages are "C"
    And the response header "X-Total-Count" is "3"

  @gitea
  Scenario: The wiki of an archived repository cannot be changed
    Given the wiki of "dev/app" has the page "Home" with the content "home"
    And the repository "dev/app" is archived
    When "dev" deletes the wiki page "Home" of "dev/app"
    Then the request is refused with status 423
    And the wiki page "Home" of "dev/app" has the content "home"

  @gitea
  Scenario: The wiki is cloned over Git smart HTTP like its repository
    Given the wiki of "dev/app" has the page "Home" with the content "Welcome to the app"
    When "bob" clones the wiki of "dev/app" over HTTPS
    Then the clone succeeds
    And the clone of "dev/app.wiki" has the file "Home.md" with content "Welcome to the app"

  @gitea
  Scenario: A private repository's wiki is not cloned by someone who cannot read it
    Given a private repository "dev/secret"
    And the wiki of "dev/secret" has the page "Home" with the content "Hidden"
    When "bob" clones the wiki of "dev/secret" over HTTPS
    Then the clone is refused

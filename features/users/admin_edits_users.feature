@users
Feature: A site administrator edits user accounts
  PATCH /admin/users/{username} takes Gitea's EditUserOption: the sign-in (source_id and login_name, both
  required; a new password; must_change_password; prohibit_login), the e-mail, the profile (full_name,
  location, website, description), the flags (active, admin, restricted, visibility) and the limits
  (allow_create_organization, max_repo_creation, allow_git_hook, allow_import_local). A field the body
  leaves out keeps its value; the answer is the User as it is then. A password shorter than the
  instance's minimum and an e-mail another user has are refused with 400 and change nothing; only site
  administrators edit users. The limits bind at once: a user who may not create organizations is refused
  one, and a user at max_repo_creation repositories is refused another.

  Background:
    Given a user "bob"

  @gitea
  Scenario: The admin changes a user's profile and the user shows it
    When the admin edits the user "bob" with
      """
      {"full_name": "Bob Builder", "location": "Oslo", "website": "https://bob.example"}
      """
    Then the response status is 200
    And the response field "full_name" is "Bob Builder"
    And the response field "website" is "https://bob.example"
    And the user "bob" shows the location "Oslo" and the full name "Bob Builder"

  @gitea
  Scenario: Fields the body leaves out keep their values
    Given the admin edits the user "bob" with
      """
      {"full_name": "Bob Builder"}
      """
    When the admin edits the user "bob" with
      """
      {"location": "Oslo"}
      """
    Then the response status is 200
    And the user "bob" shows the location "Oslo" and the full name "Bob Builder"

  @gitea
  Scenario: A new password replaces the old one for signing in
    When the admin gives "bob" a new password
    Then the response status is 200
    And "bob" signs in with the new password
    And the old password of "bob" is refused

  @gitea
  Scenario: A password shorter than the minimum is refused and changes nothing
    When the admin gives "bob" the password "short"
    Then the request is refused with status 400
    And "bob" still signs in with their password

  @gitea
  Scenario: A user prohibited from signing in loses the use of their tokens
    When the admin edits the user "bob" with
      """
      {"prohibit_login": true}
      """
    Then the response status is 200
    And the response field "prohibit_login" is true
    And the token of "bob" is refused

  @gitea
  Scenario: An e-mail address another user has is refused
    Given a user "carol"
    When the admin edits the user "bob" with the e-mail address of "carol"
    Then the request is refused with status 400

  @gitea
  Scenario: The login name is required
    When the admin edits the user "bob" leaving out the field "login_name"
    Then the request is refused with status 422
    And the error message mentions "LoginName"

  @gitea
  Scenario: A user who is not a site administrator cannot edit users
    Given a user "alice"
    When "alice" tries to edit the user "bob" with
      """
      {"admin": true}
      """
    Then the request is refused with status 403

  @gitea
  Scenario: A user the admin forbids organizations cannot create one
    Given the admin edits the user "bob" with
      """
      {"allow_create_organization": false}
      """
    When "bob" creates the organization "guild"
    Then the request is refused with status 403

  @gitea
  Scenario: A user at the repository limit cannot create another repository
    Given the admin edits the user "bob" with
      """
      {"max_repo_creation": 0}
      """
    When "bob" creates the repository "bob/extra" with the options
      """
      {"auto_init": false}
      """
    Then the request is refused with status 403
    And the error message mentions "maximum limit of repositories"

  @gitea
  Scenario: The admin creates a repository a user owns
    When the admin creates the repository "extra" for "bob"
    Then the response status is 201
    And "bob" owns the repository "extra"

  @gitea
  Scenario: The admin creates an organization a user owns
    When the admin creates the organization "guild" for "bob"
    Then the response status is 201
    And "bob" lists the organization "guild" among theirs

  @gitea
  Scenario: The admin renames a user and the user's repositories move along
    Given the admin creates the repository "kept" for "bob"
    When the admin renames the user "bob" to "robert"
    Then the response status is 204
    And the user "robert" is the user "bob" renamed
    And the repository "kept" of "bob" is now under the name "robert"

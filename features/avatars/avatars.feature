@avatars
Feature: Users, repositories and organizations have avatars uploaded and deleted
  POST /user/avatar, /repos/{owner}/{repo}/avatar and /orgs/{org}/avatar take {"image": base64} and
  answer 204; DELETE on the same paths answers 204 and goes back to the default avatar. The JSON
  "avatar_url" of the user, repository or organization then points at the new picture, stored at most
  256 pixels square. A repository admin changes a repository's avatar, an owner an organization's.

  Background:
    Given a user "alice"

  @spec @clause_S1_avatars @clause_S4_4_avatars
  Scenario: A user uploads an avatar and the avatar URL serves the new picture
    When "alice" uploads a 600x400 picture as the avatar of "alice"
    Then the response status is 204
    And the avatar of "alice" is a new picture of at most 256 pixels square

  @spec @clause_S1_avatars @clause_S4_4_avatars
  Scenario: A user deletes the avatar and is back to the default one
    Given "alice" has an uploaded avatar
    When "alice" deletes the avatar of "alice"
    Then the response status is 204
    And the avatar of "alice" is the default one again
    And the default avatar of "alice" serves a picture

  @reference
  Scenario: The picture of a deleted avatar is no longer served (the reference removes the stored picture)
    Given "alice" has an uploaded avatar
    When "alice" deletes the avatar of "alice"
    Then the response status is 204
    And the removed avatar picture of "alice" is no longer served

  @spec @clause_S1_avatars @clause_S4_4_avatars
  Scenario: A repository admin uploads and deletes the avatar of a repository
    Given a repository "alice/demo"
    When "alice" uploads a 100x100 picture as the avatar of "alice/demo"
    Then the response status is 204
    And the avatar of "alice/demo" is a new picture of at most 256 pixels square

  @spec @clause_S4_4_avatars
  Scenario: A deleted repository avatar leaves the repository without an avatar URL
    Given a repository "alice/demo"
    And "alice/demo" has an uploaded avatar
    When "alice" deletes the avatar of "alice/demo"
    Then the response status is 204
    And the avatar of "alice/demo" is the default one again

  @spec @clause_S1_avatars @clause_S4_4_avatars
  Scenario: An organization owner uploads and deletes the organization's avatar
    Given an organization "acme" owned by "alice"
    When "alice" uploads a 300x300 picture as the avatar of "acme"
    Then the response status is 204
    And the avatar of "acme" is a new picture of at most 256 pixels square

  @spec @clause_S4_4_avatars
  Scenario: A deleted organization avatar goes back to the default one
    Given an organization "acme" owned by "alice"
    And "acme" has an uploaded avatar
    When "alice" deletes the avatar of "acme"
    Then the response status is 204
    And the avatar of "acme" is the default one again

  @gitea
  Scenario: Invalid base64 is refused with 400 and the avatar stays
    Given "alice" has an uploaded avatar
    When "alice" uploads the image text "this is %%% not base64" as the avatar of "alice"
    Then the request is refused with status 400
    And the avatar of "alice" is unchanged

  @gitea
  Scenario: A body without an image is refused with 422
    When "alice" uploads an avatar without an image for "alice"
    Then the request is refused with status 422
    And the avatar of "alice" is unchanged

  @reference
  Scenario: Valid base64 that is no picture is refused with 422 "not a valid image" (Gitea 1.27 answers 500)
    Given "alice" has an uploaded avatar
    When "alice" uploads the base64 of "just some text, no picture" as the avatar of "alice"
    Then the request is refused with status 422
    And the error message mentions "not a valid image"
    And the avatar of "alice" is unchanged

  @gitea
  Scenario: A user who is no admin of a repository cannot change its avatar
    Given a repository "alice/demo"
    And a user "bob"
    When "bob" uploads a 64x64 picture as the avatar of "alice/demo"
    Then the request is refused with status 403
    And the avatar of "alice/demo" is unchanged

  @gitea
  Scenario: A user who is no owner of an organization cannot change its avatar
    Given an organization "acme" owned by "alice"
    And a user "bob"
    When "bob" uploads a 64x64 picture as the avatar of "acme"
    Then the request is refused with status 403
    And the avatar of "acme" is unchanged

  @gitea
  Scenario: An anonymous client cannot upload an avatar
    Given a repository "alice/demo"
    When "an anonymous client" uploads a 64x64 picture as the avatar of "alice/demo"
    Then the request is refused with status 401
    And the avatar of "alice/demo" is unchanged

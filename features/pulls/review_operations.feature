@pulls
Feature: Review requests, pending reviews, dismissals and resolved conversations
  As in Gitea 1.27: GET /repos/{owner}/{repo}/reviewers lists who can be asked for a review (by name);
  POST .../pulls/{index}/requested_reviewers asks users for a review (201 with the REQUEST_REVIEW
  reviews; they appear in the pull's requested_reviewers) and DELETE cancels the requests (204); the
  pull's poster cannot be asked (422 "poster of pr can't be reviewer"). POST .../reviews/{id} submits
  a pending review with an event (200; only a pending review, 422 otherwise) and DELETE .../reviews/{id}
  deletes a review (its reviewer or a site administrator, 403 otherwise). POST .../reviews/{id}/dismissals
  dismisses an approval or a rejection (repository administrators; a dismissed approval no longer
  counts). POST .../pulls/comments/{id}/resolve marks a review conversation resolved (the pull's poster
  or a writer, 403 otherwise). GET .../pulls/{base}/{head} finds a pull request by its branches and
  GET .../commits/{sha}/pull the pull request whose merge made a commit.

  Background:
    Given a repository "dev/app"
    And "bob" is a collaborator of "dev/app" with the permission "write"
    And the branch "main" of "dev/app" changes "code.txt" to "a\nb\nc\n"
    And the repository "dev/app" has the branch "feature" changing "code.txt" to "a\nB\nc\n"
    And "dev" opened a pull request of "feature" into "main" in "dev/app"

  @gitea
  Scenario: The requestable reviewers are the repository's owner and collaborators, by name
    When "dev" lists the requestable reviewers of "dev/app"
    Then the response status is 200
    And the response lists the users "bob, dev"

  @gitea
  Scenario: A requested reviewer appears in the pull request's requested reviewers
    When "dev" requests a review of pull request 1 of "dev/app" from "bob"
    Then the response status is 201
    And the response field "0.state" is "REQUEST_REVIEW"
    And the response field "0.user.login" is the name of "bob"
    And pull request 1 of "dev/app" has the requested reviewers "bob"

  @gitea
  Scenario: The pull request's poster cannot be asked for a review
    When "bob" requests a review of pull request 1 of "dev/app" from "dev"
    Then the request is refused with status 422
    And the error message mentions "poster of pr can't be reviewer"
    And pull request 1 of "dev/app" has the requested reviewers ""

  @gitea
  Scenario: A cancelled review request is no longer requested
    Given "dev" requested a review of pull request 1 of "dev/app" from "bob"
    When "dev" cancels the review request of pull request 1 of "dev/app" for "bob"
    Then the response status is 204
    And pull request 1 of "dev/app" has the requested reviewers ""

  @gitea
  Scenario: A pending review is submitted as an approval
    Given "bob" left a pending review on pull request 1 of "dev/app" on line 2 of "code.txt"
    When "bob" submits the review on pull request 1 of "dev/app" as "APPROVE"
    Then the response status is 200
    And the response field "state" is "APPROVED"
    And the response field "official" is true
    And the response field "comments_count" is 1

  @gitea
  Scenario: A review that is no longer pending cannot be submitted again
    Given "bob" left a pending review on pull request 1 of "dev/app" on line 2 of "code.txt"
    And "bob" submitted the review on pull request 1 of "dev/app" as "COMMENT"
    When "bob" submits the review on pull request 1 of "dev/app" as "APPROVE"
    Then the request is refused with status 422
    And the error message mentions "only a pending review can be submitted"

  @gitea
  Scenario: Only its reviewer deletes a review
    Given "bob" reviewed pull request 1 of "dev/app" commenting "Why?" on line 2 of "code.txt"
    When "dev" deletes the review on pull request 1 of "dev/app"
    Then the request is refused with status 403
    And the review of pull request 1 of "dev/app" has 1 comments

  @gitea
  Scenario: A reviewer deletes their review with its comments
    Given "bob" reviewed pull request 1 of "dev/app" commenting "Why?" on line 2 of "code.txt"
    When "bob" deletes the review on pull request 1 of "dev/app"
    Then the response status is 204
    And the review on pull request 1 of "dev/app" is gone

  @gitea
  Scenario: A dismissed approval no longer counts for the required approvals
    Given "dev" protects the branch "main" of "dev/app" with the body
      """
      {"enable_push": true, "required_approvals": 1}
      """
    And "bob" approved pull request 1 of "dev/app"
    And "dev" dismissed the review on pull request 1 of "dev/app" saying "Not this way"
    When "dev" merges pull request 1 of "dev/app" by merge
    Then the request is refused with status 405
    And the error message mentions "Does not have enough approvals"

  @gitea
  Scenario: A repository administrator dismisses an approval
    Given "bob" approved pull request 1 of "dev/app"
    When "dev" dismisses the review on pull request 1 of "dev/app" saying "Not this way"
    Then the response status is 200
    And the response field "dismissed" is true

  @gitea
  Scenario: A writer who is not an administrator cannot dismiss a review
    Given "carol" is a collaborator of "dev/app" with the permission "write"
    And "bob" approved pull request 1 of "dev/app"
    When "carol" dismisses the review on pull request 1 of "dev/app" saying "No"
    Then the request is refused with status 403

  @gitea
  Scenario: The pull request's poster resolves a review conversation
    Given "bob" reviewed pull request 1 of "dev/app" commenting "Why?" on line 2 of "code.txt"
    When "dev" resolves the review comment on "dev/app"
    Then the response status is 204
    And the review comment on pull request 1 of "dev/app" was resolved by "dev"

  @gitea
  Scenario: A dismissed review is undismissed by a repository administrator
    Given "bob" approved pull request 1 of "dev/app"
    And "dev" dismissed the review on pull request 1 of "dev/app" saying "Not this way"
    When "dev" undismisses the review on pull request 1 of "dev/app"
    Then the response status is 200
    And the response field "dismissed" is false

  @gitea
  Scenario: A resolved conversation is reopened by unresolving it
    Given "bob" reviewed pull request 1 of "dev/app" commenting "Why?" on line 2 of "code.txt"
    And "dev" resolved the review comment on "dev/app"
    When "dev" unresolves the review comment on "dev/app"
    Then the response status is 204
    And the review comment on pull request 1 of "dev/app" is not resolved

  @gitea
  Scenario: A reader cannot resolve a review conversation
    Given "carol" is a collaborator of "dev/app" with the permission "read"
    And "bob" reviewed pull request 1 of "dev/app" commenting "Why?" on line 2 of "code.txt"
    When "carol" resolves the review comment on "dev/app"
    Then the request is refused with status 403

  @gitea
  Scenario: A pull request is found by its base and head branches
    When "bob" reads the pull request of "feature" into "main" in "dev/app"
    Then the response status is 200
    And the response field "number" is 1

  @gitea
  Scenario: No pull request of a head into a base is 404
    When "bob" reads the pull request of "main" into "feature" in "dev/app"
    Then the request is refused with status 404

  @gitea
  Scenario: The merged pull request of a merge commit
    Given "dev" merged pull request 1 of "dev/app"
    When "bob" reads the pull request of the tip of "main" in "dev/app"
    Then the response status is 200
    And the response field "number" is 1
    And the response field "merged" is true

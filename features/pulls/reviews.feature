@pulls
Feature: Pull requests are reviewed, and review comments are answered with replies
  POST /repos/{owner}/{repo}/pulls/{index}/reviews submits a review (event COMMENT, APPROVE,
  REQUEST_CHANGES or PENDING) with code comments on a path and a line (new_position for the new side,
  old_position for the old side); Gitea 1.27 answers 200 with the PullReview. A review's code comments
  (GET .../reviews/{id}/comments) carry the diff hunk ending at their line. POST
  .../pulls/{index}/comments/{id}/replies with a body answers a review comment: 201 with a
  PullReviewComment threaded under the same review, on the same path and line. Gitea's refusals: an
  empty body 422; a comment that is not a review comment 400 ("comment is not a review comment", or
  "comment does not belong to a pull request" for an issue's comment); an unknown comment, one of
  another pull request or another repository 404; an archived repository 423 ("repo is archived",
  Gitea's mustNotBeArchived). No refusal stores anything.

  Background:
    Given a repository "dev/app"
    And a user "bob"
    And the branch "main" of "dev/app" changes "code.txt" to "a\nb\nc\nd\ne\n"
    And the repository "dev/app" has the branch "feature" changing "code.txt" to "a\nb\nc\nD\ne\n"
    And "dev" opened a pull request of "feature" into "main" in "dev/app"

  @gitea
  Scenario: A review with a code comment is submitted and its comment carries the diff hunk
    When "bob" reviews pull request 1 of "dev/app" with the body
      """
      {"event": "COMMENT", "body": "Some notes", "comments": [{"path": "code.txt", "body": "Why upper case?", "new_position": 4}]}
      """
    Then the response status is 200
    And the response field "state" is "COMMENT"
    And the response field "comments_count" is 1
    And the response field "user.login" is the name of "bob"
    And the code comment of the submitted review on "dev/app" ends its diff hunk with "+D"

  @gitea
  Scenario: The reviews of a pull request are listed oldest first, on the commit they reviewed
    Given "bob" reviewed pull request 1 of "dev/app" commenting "Why upper case?" on line 4 of "code.txt"
    And "bob" approved pull request 1 of "dev/app"
    When "an anonymous client" lists the reviews of pull request 1 of "dev/app"
    Then the response status is 200
    And the reviews listed are "bob:COMMENT, bob:APPROVED"
    And the response field "0.commit_id" is the remembered tip of "feature" of "dev/app"
    And the response field "0.comments_count" is 1
    And the response field "1.comments_count" is 0

  @gitea
  Scenario: A review is read by its id
    Given "bob" reviewed pull request 1 of "dev/app" commenting "Why upper case?" on line 4 of "code.txt"
    When "an anonymous client" reads the review on pull request 1 of "dev/app"
    Then the response status is 200
    And the response field "state" is "COMMENT"
    And the response field "user.login" is the name of "bob"
    And the response field "comments_count" is 1
    And the response field "commit_id" is the remembered tip of "feature" of "dev/app"

  @gitea
  Scenario: A review's code comments carry their path, line, text, author and commit
    Given "bob" reviewed pull request 1 of "dev/app" commenting "Why upper case?" on line 4 of "code.txt"
    When "an anonymous client" reads the comments of the review on pull request 1 of "dev/app"
    Then the response status is 200
    And the response is a list of 1 items
    And the response field "0.body" is "Why upper case?"
    And the response field "0.path" is "code.txt"
    And the response field "0.position" is 4
    And the response field "0.user.login" is the name of "bob"
    And the response field "0.commit_id" is the remembered tip of "feature" of "dev/app"

  @gitea
  Scenario: A pull request's author cannot approve it
    When "dev" reviews pull request 1 of "dev/app" with the body
      """
      {"event": "APPROVE", "body": "LGTM"}
      """
    Then the request is refused with status 422
    And the error message mentions "approve your own pull is not allowed"

  @spec @clause_S1_review_replies @clause_S4_3_replies
  Scenario: A reply to a review comment is threaded under the same review
    Given "bob" reviewed pull request 1 of "dev/app" commenting "Why upper case?" on line 4 of "code.txt"
    When "dev" replies "It is a constant now" to the review comment on pull request 1 of "dev/app"
    Then the response status is 201
    And the response field "body" is "It is a constant now"
    And the response field "user.login" is the name of "dev"
    And the reply is threaded under the review of the comment it answers
    And the review of pull request 1 of "dev/app" has 2 comments

  @gitea
  Scenario: A reply to a plain comment of the pull request is refused with 400
    Given "bob" reviewed pull request 1 of "dev/app" commenting "Why upper case?" on line 4 of "code.txt"
    And "bob" commented "General remark" on issue 1 of "dev/app"
    When "dev" replies "Thanks" to the plain comment on pull request 1 of "dev/app"
    Then the request is refused with status 400
    And the error message mentions "comment is not a review comment"
    And the review of pull request 1 of "dev/app" has 1 comments

  @gitea
  Scenario: A reply to an issue's comment is refused with 400
    Given "dev" opened the issue "Unrelated" in "dev/app"
    And "bob" commented "On the issue" on issue 2 of "dev/app"
    When "dev" replies "Thanks" to the plain comment on pull request 1 of "dev/app"
    Then the request is refused with status 400
    And the error message mentions "comment does not belong to a pull request"
    And issue 2 of "dev/app" has 1 comments

  @gitea
  Scenario: A reply in an archived repository is refused with 423 and stores nothing
    Given "bob" reviewed pull request 1 of "dev/app" commenting "Why upper case?" on line 4 of "code.txt"
    And the repository "dev/app" is archived
    When "dev" replies "Too late" to the review comment on pull request 1 of "dev/app"
    Then the request is refused with status 423
    And the error message mentions "repo is archived"
    And the review of pull request 1 of "dev/app" has 1 comments

  @gitea
  Scenario: A reply with an empty body is refused with 422
    Given "bob" reviewed pull request 1 of "dev/app" commenting "Why upper case?" on line 4 of "code.txt"
    When "dev" replies "" to the review comment on pull request 1 of "dev/app"
    Then the request is refused with status 422
    And the review of pull request 1 of "dev/app" has 1 comments

  @gitea
  Scenario: A reply through another pull request's number is not found
    Given the repository "dev/app" has the branch "other" changing "other.txt" to "x\n"
    And "dev" opened a pull request of "other" into "main" in "dev/app"
    And "bob" reviewed pull request 1 of "dev/app" commenting "Why upper case?" on line 4 of "code.txt"
    When "dev" replies "Wrong place" to the review comment on pull request 2 of "dev/app"
    Then the request is refused with status 404
    And the review of pull request 1 of "dev/app" has 1 comments

  @gitea
  Scenario: A reply to an unknown comment is not found
    When "dev" replies "Hello?" to comment 999999999 on pull request 1 of "dev/app"
    Then the request is refused with status 404

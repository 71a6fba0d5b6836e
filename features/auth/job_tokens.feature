@auth
Feature: A job's token acts for its own repository only
  Every job gets a token (GITEA_TOKEN) that acts as the built-in Actions user. It must reach its own
  repository and nothing that belongs to a user, an organization or the instance: otherwise any
  workflow author could, from a job, ask for a user-level runner registration token, register a
  runner of the Actions user and be handed other owners' private jobs with their secrets, or read and
  change the user-level variables and secrets that every other repository's jobs share.
  Gitea 1.27 lets a job token reach /user routes (reqToken admits it; its handlers use the Actions
  user's id) but its task filter hands a runner of a non-zero owner only that owner's jobs
  (models/actions/task.go, runner.OwnerID != 0), so such a runner receives nothing: that rule is
  tagged gitea. The reference refuses the user-level routes outright (403 "job tokens may only act on
  their own repository"): those scenarios are tagged reference. Notes: docs/gitea-security-facts.md,
  section 1.

  Background:
    Given a mock runner has taken a job of a new repository

  @gitea
  Scenario: A job's token gives no runner that could take another owner's private jobs
    Given a private repository "victim/vault" with a waiting job for the label "vault"
    When the job's token asks for a user-level runner registration token
    Then no runner registered with the answer is handed a job of "victim/vault"

  @reference
  Scenario: A job's token gets no user-level runner registration token
    When the job's token asks for a user-level runner registration token
    Then the request is refused with status 403
    And the error message mentions "own repository"

  @reference
  Scenario Outline: A job's token is refused at user, organization and instance level: <method> <path>
    When the job's token sends <method> "<path>" with the body
      """
      {"value": "from a job", "data": "from a job", "name": "from-a-job", "username": "from-a-job", "title": "x"}
      """
    Then the request is refused with status 403

    Examples:
      | method | path                                             |
      | GET    | user/actions/runners/registration-token          |
      | PUT    | user/actions/secrets/FROM_A_JOB                  |
      | POST   | user/actions/variables/FROM_A_JOB                |
      | GET    | user/actions/variables                           |
      | GET    | user/actions/runners                             |
      | POST   | user/repos                                       |
      | POST   | orgs                                             |
      | POST   | users/gitea-actions/projects                     |
      | POST   | admin/actions/runners/registration-token         |

  @reference
  Scenario: Jobs of two repositories share no user-level variables
    Given a mock runner has taken a job of another new repository
    When the job's token sends POST "user/actions/variables/SHARED_BY_JOBS" with the body
      """
      {"value": "written by one repository's job"}
      """
    And the other job's token sends GET "user/actions/variables"
    Then the response does not mention "written by one repository's job"

  @reference
  Scenario: A job's token reads and writes its own repository
    The reference gives a job's token write access to its own repository (Gitea's permissive token
    mode); Gitea 1.27 may be configured to give it less.
    When the job's token sends POST "repos/{dev/app}/issues" with the body
      """
      {"title": "opened by the job"}
      """
    Then the response status is 201

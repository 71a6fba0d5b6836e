@runners
Feature: The runner protocol registers runners and hands them tasks
  Runners speak Connect unary to /api/actions/runner.v1.RunnerService/<Method> and
  /api/actions/ping.v1.PingService/Ping, as act_runner does. After Register, every call carries the
  runner's uuid and token in x-runner-uuid and x-runner-token.

  Background:
    Given a repository "dev/app"

  @gitea @clause_S1_runners
  Scenario: Ping answers with a greeting
    When a runner pings the instance with "conformance"
    Then the runner call answers "Hello, conformance!"

  @gitea @clause_S1_runners
  Scenario: The runner protocol also speaks Connect with JSON bodies
    act_runner sends binary protobuf; connect-go servers accept protojson as well, which makes the
    wire readable when debugging.
    When a runner pings the instance with "json-client" in Connect JSON
    Then the runner call answers "Hello, json-client!"

  @gitea @clause_S1_runners
  Scenario: A procedure the runner service does not have is unimplemented
    connect-go answers a method it does not serve with a plain-text 404, which its clients read as
    the Connect code unimplemented; a Connect JSON error with that code does as well.
    When a runner calls the procedure "Nope" of the runner service
    Then the runner call fails with the Connect code "unimplemented"

  @reference @clause_S1_runners
  Scenario: The reference answers a procedure it does not have with 501 and the Connect code unimplemented
    501 is the HTTP status current connect-go gives the code unimplemented (older releases gave 404).
    When a runner calls the procedure "Nope" of the runner service
    Then the runner call fails with status 501 and Connect code "unimplemented"

  @gitea @clause_S1_runners
  Scenario: Register with a valid registration token gives a runner identity
    When a runner registers with the repository's registration token as "builder-1" with the labels "ubuntu-latest"
    Then the runner call succeeds
    And the registered runner has a uuid, a token and the name "builder-1" with the labels "ubuntu-latest"

  @gitea @clause_S1_runners
  Scenario: Register without a registration token is refused
    When a runner registers with the registration token "" as "builder-2" with the labels "ubuntu-latest"
    Then the runner call is refused

  @gitea @clause_S1_runners
  Scenario: Register with an unknown registration token is refused
    When a runner registers with the registration token "0000000000000000000000000000000000000000" as "builder-3" with the labels "ubuntu-latest"
    Then the runner call is refused

  @reference @clause_S1_runners
  Scenario: Register with a registration token that was replaced is refused
    Like Gitea, the reference hands out the scope's active token on every POST until it is replaced;
    it offers DELETE on the registration-token route (an extension standing in for Gitea's "reset
    registration token" web action) to invalidate it, so the next POST makes a new one.
    Given the repository's registration token has been replaced by a new one
    When a runner registers with the replaced registration token as "builder-4" with the labels "ubuntu-latest"
    Then the runner call is refused
    When a runner registers with the repository's current registration token as "builder-5" with the labels "ubuntu-latest"
    Then the runner call succeeds

  @gitea @clause_S1_runners
  Scenario: Declare replaces the runner's labels and version
    Given a mock runner registered to "dev/app" with the labels "ubuntu-latest"
    When the mock runner declares the labels "ubuntu-latest,arm64" and the version "v9.9.9"
    Then the runner call succeeds
    And the declared runner has the labels "ubuntu-latest,arm64" and the version "v9.9.9"

  @gitea @clause_S1_runners
  Scenario: FetchTask reports the tasks version and hands out a task only when one is waiting
    Given a mock runner registered to "dev/app" with the labels "ubuntu-latest"
    When the mock runner fetches a task with tasks version 0
    Then no task is handed out and the tasks version is positive
    When the mock runner fetches a task with the tasks version it was given
    Then no task is handed out and the tasks version is unchanged
    When the workflow "ci.yml" named "CI" is pushed to the repository
    And the mock runner fetches a task with the tasks version it was given
    Then a task is handed out with a runtime token for its run

  @gitea @clause_S1_runners
  Scenario: UpdateTask records the result and echoes it
    Given a mock runner registered to "dev/app" with the labels "ubuntu-latest"
    And the workflow "ci.yml" named "CI" is pushed to the repository
    And the mock runner has taken the job
    When the mock runner reports the job's result as "success"
    Then the runner call succeeds
    And the UpdateTask reply carries the result "success"
    And the run of "ci.yml" has completed with conclusion "success"

  @gitea @clause_S1_runners
  Scenario: UpdateLog acknowledges rows by index and ignores duplicates and gaps
    Given a mock runner registered to "dev/app" with the labels "ubuntu-latest"
    And the workflow "ci.yml" named "CI" is pushed to the repository
    And the mock runner has taken the job
    When the mock runner sends 2 log rows from index 0
    Then the log acknowledgement index is 2
    When the mock runner sends 2 log rows from index 0
    Then the log acknowledgement index is 2
    When the mock runner sends 1 log rows from index 5
    Then the log acknowledgement index is 2
    When the mock runner sends 3 log rows from index 1
    Then the log acknowledgement index is 4

  @gitea @clause_S1_runners @clause_S5_5
  Scenario: A call with a wrong x-runner-token is refused
    Gitea answers 500 with the Connect code "unknown" (its handlers return gRPC errors); the
    reference answers 401 "unauthenticated" (see the next scenario). Either way nothing is handed out.
    Given a mock runner registered to "dev/app" with the labels "ubuntu-latest"
    And the workflow "ci.yml" named "CI" is pushed to the repository
    When the mock runner fetches a task with a wrong runner token
    Then the runner call is refused
    And the run of "ci.yml" has status "queued"

  @reference @clause_S5_5
  Scenario: The reference refuses a wrong x-runner-token with the Connect code unauthenticated
    Given a mock runner registered to "dev/app" with the labels "ubuntu-latest"
    When the mock runner fetches a task with a wrong runner token
    Then the runner call fails with status 401 and Connect code "unauthenticated"

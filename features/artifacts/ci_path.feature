@artifacts
Feature: The whole CI path: a pushed workflow runs on the mock runner and its artifacts come back intact
  A workflow pushed through the contents API starts a run; the mock runner, registered with a
  repository registration token obtained over REST, takes the job, runs its run: steps in host mode
  and uploads artifacts with the native actions/upload-artifact@v4. The run's conclusion follows
  the job's result, and the artifacts are listed over REST and downloaded as zips holding exactly
  the bytes the job wrote.

  Background:
    Given a repository "dev/app"
    And a mock runner registered to "dev/app" with the labels "ubuntu-latest"

  @spec @slow @clause_S1_artifacts @clause_S1_runs_jobs_workflows @clause_S4_1_CreateArtifact @clause_S4_1_FinalizeArtifact @clause_S4_3_artifact_zip @clause_S4_3_artifact_zip_raw
  Scenario: A succeeding job's artifacts are listed and downloaded byte for byte
    Given the workflow "build.yml" is pushed to the repository with
      """
      name: build
      on: [push]
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: mkdir -p out/sub && printf 'alpha\n' > out/a.txt && seq 1 20000 > out/sub/numbers.txt
            - run: printf '\000\001\377' > out/bytes.bin
            - uses: actions/upload-artifact@v4
              with:
                name: build-output
                path: out/
      """
    When the mock runner runs one job
    Then the job ends with result "success"
    And the run of "build.yml" has completed with conclusion "success"
    And the repository's REST artifacts hold exactly "build-output"
    And the REST zip of "build-output" holds exactly the files "a.txt,bytes.bin,sub/numbers.txt"
    And in the REST zip of "build-output" the file "a.txt" holds "alpha" and a newline
    And in the REST zip of "build-output" the file "sub/numbers.txt" holds the numbers 1 to 20000, one per line
    And in the REST zip of "build-output" the file "bytes.bin" holds the bytes "0001ff" in hex

  @spec @slow @clause_S1_artifacts @clause_S1_runs_jobs_workflows @clause_S4_3_artifacts_list
  Scenario: A failing job concludes in failure and keeps the artifacts uploaded before the failing step
    Given the workflow "flaky.yml" is pushed to the repository with
      """
      name: flaky
      on: [push]
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - run: mkdir -p out && seq 1 500 > out/partial.log
            - uses: actions/upload-artifact@v4
              with:
                name: partial-logs
                path: out/partial.log
            - run: echo "tests failed" && exit 3
            - run: echo "never reached" > out/late.log
            - uses: actions/upload-artifact@v4
              with:
                name: late-logs
                path: out/late.log
      """
    When the mock runner runs one job
    Then the job ends with result "failure"
    And the run of "flaky.yml" has completed with conclusion "failure"
    And the repository's REST artifacts hold exactly "partial-logs"
    And the REST zip of "partial-logs" holds exactly the files "partial.log"
    And in the REST zip of "partial-logs" the file "partial.log" holds the numbers 1 to 500, one per line

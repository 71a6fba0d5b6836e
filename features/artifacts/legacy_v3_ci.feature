@artifacts @capability_artifacts_v3
Feature: A workflow using upload-artifact@v3 and download-artifact@v3 round-trips its files on the mock runner
  The mock runner runs actions/upload-artifact@v3 and actions/download-artifact@v3 over the legacy protocol
  at ACTIONS_RUNTIME_URL, as the official v3 actions do: each file keeps its path, text files travel
  gzip'ed, and a later step finds the downloaded copies identical to what the job wrote.

  Background:
    Given a repository "dev/app"
    And a mock runner registered to "dev/app" with the labels "ubuntu-latest"

  @gitea @slow
  Scenario: Files uploaded with upload-artifact@v3 download identical with download-artifact@v3
    Given the workflow "legacy.yml" is pushed to the repository with
      """
      name: legacy
      on: [push]
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: mkdir -p out/sub && seq 1 20000 > out/sub/numbers.txt && printf '\000\001\377' > out/bytes.bin && touch out/empty.txt
            - uses: actions/upload-artifact@v3
              with:
                name: legacy-output
                path: out/
            - uses: actions/download-artifact@v3
              with:
                name: legacy-output
                path: back
            - run: diff -r out back && test -f back/sub/numbers.txt && test -f back/empty.txt
      """
    When the mock runner runs one job
    Then the job ends with result "success"
    And the run of "legacy.yml" has completed with conclusion "success"

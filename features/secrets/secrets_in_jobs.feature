@secrets
Feature: Jobs receive the secrets of their scope, and logs show them masked
  A task handed to a runner carries the secrets of the repository's owner (user or organization)
  and then those of the repository, the repository's winning on a shared name, plus GITHUB_TOKEN and
  GITEA_TOKEN. The runner replaces every secret value by *** in the log it sends, so the job's log
  read over REST never shows one; a file the job writes and uploads as an artifact holds the real
  value, which proves the job received it.

  Background:
    Given a repository "dev/app"
    And a mock runner registered to "dev/app" with the labels "ubuntu-latest"

  @gitea @slow
  Scenario: A job prints a repository secret as *** and writes the real value into an artifact
    Given the repository "dev/app" has the secret "API_KEY" set to "ck-job-secret-4711"
    And the workflow "secret.yml" is pushed to the repository with
      """
      name: secret
      on: [push]
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: echo "key=${{ secrets.API_KEY }}"
            - run: mkdir -p out && printf '%s\n' '${{ secrets.API_KEY }}' > out/key.txt
            - uses: actions/upload-artifact@v4
              with:
                name: received
                path: out/key.txt
      """
    When the mock runner runs one job
    Then the job ends with result "success"
    And in the REST zip of "received" the file "key.txt" holds "ck-job-secret-4711" and a newline
    And the job's log read over REST shows "key=***"
    And the job's log read over REST reveals no secret value

  @gitea @slow
  Scenario: The repository's secret wins over the owner's secret of the same name
    Given the user "dev" has the secret "SHARED" set to "ck-owner-shared-1"
    And the user "dev" has the secret "OWNER_ONLY" set to "ck-owner-only-1"
    And the repository "dev/app" has the secret "SHARED" set to "ck-repo-shared-1"
    And the workflow "layers.yml" is pushed to the repository with
      """
      name: layers
      on: [push]
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: |
                mkdir -p out
                printf '%s\n' '${{ secrets.SHARED }}' > out/shared.txt
                printf '%s\n' '${{ secrets.OWNER_ONLY }}' > out/owner.txt
                if [ -n '${{ secrets.GITEA_TOKEN }}' ]; then echo yes > out/token.txt; else echo no > out/token.txt; fi
            - uses: actions/upload-artifact@v4
              with:
                name: received
                path: out/
      """
    When the mock runner runs one job
    Then the job ends with result "success"
    And in the REST zip of "received" the file "shared.txt" holds "ck-repo-shared-1" and a newline
    And in the REST zip of "received" the file "owner.txt" holds "ck-owner-only-1" and a newline
    And in the REST zip of "received" the file "token.txt" holds "yes" and a newline
    And the job's log read over REST reveals no secret value

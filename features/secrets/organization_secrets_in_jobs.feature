@secrets
Feature: A job of an organization's repository receives the organization's secrets
  A task handed to a runner carries the secrets of the repository's owner, here an organization, and
  then those of the repository, the repository's winning on a shared name (Gitea's GetSecretsOfTask
  reads the owner's secrets first and the repository's over them). The log shows every value as ***;
  a file the job uploads as an artifact holds the real values, which proves the job received them.

  Background:
    Given a user "owner"
    And an organization "acme" owned by "owner"
    And a repository "acme/app"
    And a mock runner registered to "acme/app" with the labels "ubuntu-latest"

  @gitea @slow @clause_S1_org_secrets_variables
  Scenario: An organization's secret reaches the job masked, and the repository's secret of the same name wins
    Given the organization "acme" has the secret "ORG_ONLY" set to "ck-org-only-4711"
    And the organization "acme" has the secret "SHARED" set to "ck-org-shared-1"
    And the repository "acme/app" has the secret "SHARED" set to "ck-repo-shared-2"
    And the workflow "org-secrets.yml" is pushed to the repository with
      """
      name: org-secrets
      on: [push]
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: echo "org=${{ secrets.ORG_ONLY }} shared=${{ secrets.SHARED }}"
            - run: |
                mkdir -p out
                printf '%s\n' '${{ secrets.ORG_ONLY }}' > out/org.txt
                printf '%s\n' '${{ secrets.SHARED }}' > out/shared.txt
            - uses: actions/upload-artifact@v4
              with:
                name: received
                path: out/
      """
    When the mock runner runs one job
    Then the job ends with result "success"
    And in the REST zip of "received" the file "org.txt" holds "ck-org-only-4711" and a newline
    And in the REST zip of "received" the file "shared.txt" holds "ck-repo-shared-2" and a newline
    And the job's log read over REST shows "org=*** shared=***"
    And the job's log read over REST reveals no secret value

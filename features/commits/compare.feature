@commits
Feature: Comparing two branches or commits
  GET /repos/{owner}/{repo}/compare/{basehead} compares base...head or base..head (refs are branches,
  tags or commit SHAs; a head may be owner:ref for a fork); without a separator the base is the default
  branch. The answer is a comparison object {total_commits, commits}, the commits of head that base
  lacks, newest first; output=diff or output=patch answers the raw text. Unknown refs are not found
  and a basehead with more than one separator is a bad request (Gitea 1.27).

  Background:
    Given a repository "alice/demo"
    And the repository "alice/demo" has a branch "feature"
    And the branch "feature" of "alice/demo" has 2 more commits

  @spec @clause_S1_compare @clause_S2_3_comparison @clause_S4_3_compare
  Scenario: Comparing two branches answers a comparison object with the head's new commits
    When "alice" compares "main...feature" in "alice/demo"
    Then the response status is 200
    And the comparison counts 2 commits
    And the response lists the commits made on "feature" of "alice/demo", newest first

  @gitea
  Scenario: The compared commits name the files they changed
    The files come from the scenario's own commits, not from the forge: a comparison whose commits list no
    (or other) files fails here.
    When "alice" compares "main...feature" in "alice/demo"
    Then the response status is 200
    And the compared commits changed exactly the files "feature-1.txt, feature-2.txt"

  @spec @clause_S4_3_compare
  Scenario: Two dots compare the same commits
    When "alice" compares "main..feature" in "alice/demo"
    Then the response status is 200
    And the comparison counts 2 commits

  @spec @clause_S1_compare @clause_S4_3_compare
  Scenario: A commit SHA can be the base of a comparison
    Given the branch "main" of "alice/demo" has 1 more commits
    When "alice" compares the first commit of "main" with "main" in "alice/demo"
    Then the response status is 200
    And the comparison counts 1 commits
    And the response lists the commits made on "main" of "alice/demo", newest first

  @gitea
  Scenario: Without a separator the head is compared with the default branch
    When "alice" compares "feature" in "alice/demo"
    Then the response status is 200
    And the comparison counts 2 commits

  @gitea
  Scenario: Comparing a branch with itself finds nothing
    When "alice" compares "feature...feature" in "alice/demo"
    Then the response status is 200
    And the comparison counts 0 commits

  @gitea
  Scenario: The comparison as a diff is plain text
    When "alice" compares "main...feature" in "alice/demo" as a diff
    Then the response status is 200
    And the response is plain text containing "diff --git a/feature-1.txt b/feature-1.txt"

  @gitea
  Scenario: The comparison as a patch is plain text mails
    When "alice" compares "main...feature" in "alice/demo" as a patch
    Then the response status is 200
    And the response is plain text containing "Subject: [PATCH"

  @gitea
  Scenario Outline: A comparison naming an unknown ref or owner is not found
    When "alice" compares "<basehead>" in "alice/demo"
    Then the request is refused with status 404

    Examples:
      | basehead                        |
      | main...no-such-branch           |
      | no-such-branch...feature        |
      | main...nobody-zz9-plural:feature |

  @gitea
  Scenario: A basehead with more than one separator is a bad request
    When "alice" compares "main...feature...main" in "alice/demo"
    Then the request is refused with status 400

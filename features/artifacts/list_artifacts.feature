@artifacts
Feature: ListArtifacts lists the finalized artifacts of the job's run
  Each item is a ListArtifactsResponse_MonolithArtifact: the backend ids of the run and job, the
  database id, the name, the size and the creation time. name_filter matches a name exactly and
  id_filter a database id. Artifacts being uploaded, deleted artifacts and other runs' artifacts
  are not listed.

  Background:
    Given a mock runner has taken a job of a new repository
    And the job has uploaded the artifact "logs" containing "line one"
    And the job has uploaded the artifact "coverage" containing "93 percent"

  @spec @clause_S4_1_ListArtifacts @clause_S2_1_ListArtifactsRequest @clause_S2_1_ListArtifactsResponse @clause_S2_1_MonolithArtifact
  Scenario: ListArtifacts lists every finalized artifact with its fields
    When the job calls ListArtifacts
    Then the RPC succeeds
    And the RPC reply lists exactly the artifacts "coverage,logs"
    And every listed artifact carries the job's run and job backend ids
    And the listed artifact "logs" has size 8 and the database id given at finalize
    And every listed artifact has a created_at timestamp in RFC 3339

  @spec @clause_S2_1_ListArtifactsRequest
  Scenario: name_filter selects the artifact with exactly that name
    When the job calls ListArtifacts with
      | name_filter | logs |
    Then the RPC succeeds
    And the RPC reply lists exactly the artifacts "logs"

  @spec @clause_S2_1_ListArtifactsRequest
  Scenario: name_filter is an exact match, not a prefix
    When the job calls ListArtifacts with
      | name_filter | log |
    Then the RPC succeeds
    And the RPC reply lists exactly the artifacts ""

  @spec @clause_S2_1_ListArtifactsRequest
  Scenario: id_filter selects the artifact with that database id
    When the job calls ListArtifacts with the id filter of "coverage"
    Then the RPC succeeds
    And the RPC reply lists exactly the artifacts "coverage"

  @gitea @clause_S2_1_ListArtifactsRequest
  Scenario: id_filter may be sent as a JSON number as well as a string
    When the job calls ListArtifacts with the id filter of "coverage" as a JSON number
    Then the RPC succeeds
    And the RPC reply lists exactly the artifacts "coverage"

  @gitea @clause_S4_1_ListArtifacts
  Scenario: An artifact still being uploaded is not listed
    Given the job has created the artifact "pending" and uploaded "not yet" to it
    When the job calls ListArtifacts
    Then the RPC reply lists exactly the artifacts "coverage,logs"

  @gitea @clause_S4_1_ListArtifacts
  Scenario: Artifacts of another run are not listed
    Given a mock runner has taken a job of another new repository
    And the other job has uploaded the artifact "elsewhere" containing "other run"
    When the job calls ListArtifacts
    Then the RPC reply lists exactly the artifacts "coverage,logs"

  @reference @clause_S2_1_ListArtifactsResponse @clause_S2_1_MonolithArtifact
  Scenario: ListArtifacts in binary protobuf answers with the field numbers of section 2.1
    When the job calls ListArtifacts in binary protobuf
    Then the RPC succeeds in binary protobuf
    And the binary reply has 2 artifacts in field 1
    And every binary artifact has its run id in field 1, job id in field 2, database id in field 3, name in field 4, size in field 5 and created_at in field 6

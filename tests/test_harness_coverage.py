"""Operation coverage from traffic (paths mapped to the reference's API description), clause coverage, verdicts."""

from __future__ import annotations

import pytest

from conformance.clauses import load_catalogue
from conformance.coverage import Operation, OperationMap, clause_coverage, operation_coverage
from conformance.operations import GITEA_FILE, REFERENCE_FILE, load_operations
from conformance.verdicts import Counts, FailureInfo, classify_failure, unsupported_by_501


@pytest.fixture(scope="module")
def reference_map() -> OperationMap:
    return OperationMap.from_list(load_operations(REFERENCE_FILE))


@pytest.mark.parametrize(
    ("method", "path", "template"),
    [
        ("GET", "/version", "/version"),
        ("GET", "/repos/alice/demo", "/repos/{owner}/{repo}"),
        ("DELETE", "/repos/alice/demo", "/repos/{owner}/{repo}"),
        ("GET", "/repos/alice/demo/contents/docs/deep/README.md", "/repos/{owner}/{repo}/contents/{filepath}"),
        ("POST", "/users/ck1-alice/tokens", "/users/{username}/tokens"),
        ("GET", "/repos/a/b/issues/3/comments", "/repos/{owner}/{repo}/issues/{index}/comments"),
        ("GET", "/user", "/user"),
        (
            "POST",
            "/repos/a/b/actions/runners/registration-token",
            "/repos/{owner}/{repo}/actions/runners/registration-token",
        ),
    ],
)
def test_requests_map_to_the_most_specific_operation(
    reference_map: OperationMap, method: str, path: str, template: str
) -> None:
    operation = reference_map.match(method, path)
    assert operation is not None and operation.path == template and operation.method == method


@pytest.mark.parametrize(
    ("method", "path"), [("GET", "/activitypub/actor"), ("PATCH", "/version"), ("GET", "/no/such/route/here")]
)
def test_requests_outside_the_description_match_nothing(reference_map: OperationMap, method: str, path: str) -> None:
    assert reference_map.match(method, path) is None


def test_a_literal_segment_wins_over_a_parameter() -> None:
    operations = OperationMap(
        [
            Operation("GET", "/repos/{owner}/{repo}/branches/{branch}", "branch"),
            Operation("GET", "/repos/{owner}/{repo}/branches/main", "main_branch"),
            Operation("GET", "/repos/{owner}/{repo}/raw/{filepath}", "raw"),
        ]
    )
    assert operations.match("GET", "/repos/a/b/branches/main").operation_id == "main_branch"  # type: ignore[union-attr]
    assert operations.match("GET", "/repos/a/b/branches/dev").operation_id == "branch"  # type: ignore[union-attr]
    assert operations.match("GET", "/repos/a/b/raw/x/y/z.txt").operation_id == "raw"  # type: ignore[union-attr]


def test_operation_coverage_lists_what_no_scenario_reached() -> None:
    operations = OperationMap(
        [Operation("GET", "/version", "version", "miscellaneous"), Operation("GET", "/user", "user", "user")]
    )
    coverage = operation_coverage(operations, {"a::b": [("GET", "/version"), ("GET", "/nowhere")]}, "test")
    assert coverage["covered"] == 1 and coverage["total"] == 2
    assert coverage["uncovered"] == [{"method": "GET", "path": "/user", "operation_id": "user", "tag": "user"}]
    assert coverage["by_tag"] == {"miscellaneous": {"total": 1, "covered": 1}, "user": {"total": 1, "covered": 0}}
    assert coverage["unmatched_requests"] == ["GET /nowhere"]


def test_gitea_s_whole_api_is_shipped_with_its_tags() -> None:
    gitea = OperationMap.from_list(load_operations(GITEA_FILE))
    tags = {operation.tag for operation in gitea.operations}
    assert len(gitea.operations) == 482
    assert tags == {
        "admin", "issue", "miscellaneous", "notification", "organization", "package", "repository", "settings", "user"
    }  # fmt: skip
    created = gitea.match("POST", "/repos/alice/demo/statuses/" + "a" * 40)
    assert created is not None and (created.operation_id, created.tag) == ("repo_create_status", "repository")
    assert gitea.match("GET", "/notifications") is not None


def test_the_description_covers_the_specification_operations(reference_map: OperationMap) -> None:
    assert len(reference_map.operations) > 100
    assert all(
        operation.path.startswith("/") and "-/reference" not in operation.path for operation in reference_map.operations
    )


def test_clause_coverage_has_every_clause_with_a_verdict() -> None:
    rows = clause_coverage(
        [
            ("a::one", ["S9.1"], "passed"),
            ("a::two", ["S9.1"], "disabled"),
            ("a::three", ["S5.2"], "failed"),
            ("a::four", ["S5.2"], "passed"),
            ("a::five", ["S9.2"], "unsupported"),
            ("a::six", ["S2.2-id"], "expected-failure"),
        ]
    )
    assert [row["id"] for row in rows] == list(load_catalogue())
    verdicts = {row["id"]: row["verdict"] for row in rows}
    assert verdicts["S9.1"] == "covered" and verdicts["S5.2"] == "failed"
    assert verdicts["S9.2"] == "not-run" and verdicts["S2.2-id"] == "expected-failure"
    assert {verdicts[clause] for clause in load_catalogue() if clause not in ("S9.1", "S5.2", "S9.2", "S2.2-id")} == {
        "no-scenario"
    }
    assert next(row for row in rows if row["id"] == "S9.1")["scenarios"] == [
        {"id": "a::one", "outcome": "passed"},
        {"id": "a::two", "outcome": "disabled"},
    ]


@pytest.mark.parametrize(
    ("info", "verdict"),
    [
        (FailureInfo("call", "AssertionError", "then"), "failed"),
        (FailureInfo("call", "AssertionError", "given"), "failed"),
        (FailureInfo("call", "SchemaMismatchError", "then"), "failed"),
        (FailureInfo("call", "ContractViolation", "given"), "failed"),
        (FailureInfo("call", "KeyError", "then"), "failed"),
        (FailureInfo("call", "KeyError", "given"), "error"),
        (FailureInfo("call", "ConnectionError", "when"), "error"),
        (FailureInfo("call", "StepDefinitionNotFoundError", "given"), "error"),
        (FailureInfo("setup", "AssertionError"), "error"),
        (FailureInfo("teardown", "RuntimeError"), "error"),
    ],
)
def test_failed_versus_error(info: FailureInfo, verdict: str) -> None:
    assert classify_failure(info) == verdict


def test_a_501_makes_a_capability_scenario_unsupported_and_nothing_else() -> None:
    assert unsupported_by_501(["spec", "capability_lfs"], [200, 501]) == "lfs"
    assert unsupported_by_501(["spec", "capability_lfs"], [200, 404]) is None
    assert unsupported_by_501(["spec", "activitypub"], [501]) is None
    assert unsupported_by_501(["reference_only"], [501]) is None


def test_counts_verdicts() -> None:
    counts = Counts()
    for verdict in ("passed", "expected-failure", "disabled"):
        counts.add(verdict)
    assert counts.verdict == "partial" and counts.total == 3
    counts.add("error")
    assert counts.verdict == "failed"

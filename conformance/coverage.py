"""Coverage: which clauses of the specification and which API operations the run's scenarios touched.

Clause coverage comes from the ``@clause_*`` tags of every collected scenario (those that ran and
those left out), with each scenario's outcome. Operation coverage comes from traffic: every request
the steps made (the Recorder sees them all) is matched, by method and path template, to an operation,
with the API base path (and any deployment sub-path) stripped; it is measured twice, against the
target's own description (the reference's, which the target serves at ``/swagger.v1.json`` when it is
the reference server, else the kit's generated copy) and against Gitea 1.27.3's whole API, per tag.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from .clauses import load_catalogue
from .operations import OperationList

__all__ = [
    "Operation",
    "OperationMap",
    "clause_coverage",
    "operation_coverage",
]

_PARAM = re.compile(r"\{[^}/]+\}")
METHODS = ("get", "put", "post", "patch", "delete", "head", "options")


@dataclass(frozen=True)
class Operation:
    """One operation of the API description."""

    method: str
    path: str
    operation_id: str
    tag: str = ""

    @property
    def key(self) -> str:
        """``GET /repos/{owner}/{repo}``."""
        return f"{self.method} {self.path}"


@cache
def _pattern(template: str, *, greedy: bool) -> re.Pattern[str]:
    """A regex for a path template; ``greedy`` lets a parameter span slashes (``{filepath}``). Compiled when a
    request is first matched against it: a map holds a thousand templates and a run meets a fraction of them."""
    pieces = _PARAM.split(template)
    value = "(?:.+)" if greedy else "(?:[^/]+)"
    return re.compile("^" + value.join(re.escape(piece) for piece in pieces) + "/?$")


def _segments(path: str) -> int:
    """The number of segments of a path or template (a trailing slash adds none)."""
    return path.rstrip("/").count("/")


def _literal_length(template: str) -> int:
    return len(_PARAM.sub("", template))


class OperationMap:
    """Matches ``(method, path)`` of a request to the most specific operation of a description."""

    def __init__(self, operations: Iterable[Operation]) -> None:
        self.operations = sorted(operations, key=lambda op: (op.path, op.method))
        self._exact: dict[tuple[str, int], list[Operation]] = {}
        """Per method and number of path segments: where a parameter is one segment, the counts are equal."""
        self._spanning: dict[str, list[Operation]] = {}
        """Per method, the templates with a parameter, which may also span slashes (``{filepath}``)."""
        for operation in self.operations:
            self._exact.setdefault((operation.method, _segments(operation.path)), []).append(operation)
            if _PARAM.search(operation.path):
                self._spanning.setdefault(operation.method, []).append(operation)

    @classmethod
    def from_swagger(cls, document: Mapping[str, Any]) -> OperationMap:
        """The operations of a Swagger 2.0 (or OpenAPI 3) document's ``paths``."""
        operations = []
        for path, methods in (document.get("paths") or {}).items():
            for method, operation in methods.items():
                if method.lower() in METHODS and isinstance(operation, dict):
                    operation_id = str(operation.get("operationId") or f"{method} {path}")
                    operations.append(Operation(method.upper(), path, operation_id))
        return cls(operations)

    @classmethod
    def from_list(cls, listed: OperationList) -> OperationMap:
        """The operations of one of the kit's shipped lists (``conformance/data``)."""
        return cls(Operation(method, path, operation_id, tag) for method, path, operation_id, tag in listed.rows)

    def match(self, method: str, path: str) -> Operation | None:
        """The operation ``method path`` (relative to the API root, query removed) belongs to."""
        method = method.upper()
        path = "/" + path.lstrip("/")
        candidates_of = (
            (self._exact.get((method, _segments(path)), ()), False),
            (self._spanning.get(method, ()), True),
        )
        for candidates, greedy in candidates_of:
            found = [operation for operation in candidates if _pattern(operation.path, greedy=greedy).match(path)]
            if found:
                return max(found, key=lambda operation: (_literal_length(operation.path), -len(operation.path)))
        return None


def operation_coverage(
    operation_map: OperationMap, traffic: Mapping[str, Iterable[tuple[str, str]]], source: str
) -> dict[str, Any]:
    """Covered and uncovered operations from each scenario's ``(method, path)`` requests."""
    scenarios_of: dict[str, set[str]] = {}
    unmatched: set[str] = set()
    for scenario_id, requests in traffic.items():
        for method, path in requests:
            operation = operation_map.match(method, path)
            if operation is None:
                unmatched.add(f"{method.upper()} {path}")
            else:
                scenarios_of.setdefault(operation.key, set()).add(scenario_id)
    uncovered = [
        {"method": op.method, "path": op.path, "operation_id": op.operation_id, "tag": op.tag}
        for op in sorted(operation_map.operations, key=lambda op: (op.tag, op.path, op.method))
        if op.key not in scenarios_of
    ]
    by_tag: dict[str, dict[str, int]] = {}
    for op in operation_map.operations:
        counts = by_tag.setdefault(op.tag or "untagged", {"total": 0, "covered": 0})
        counts["total"] += 1
        counts["covered"] += op.key in scenarios_of
    return {
        "source": source,
        "total": len(operation_map.operations),
        "covered": len(operation_map.operations) - len(uncovered),
        "by_tag": dict(sorted(by_tag.items())),
        "uncovered": uncovered,
        "unmatched_requests": sorted(unmatched)[:200],
    }


def clause_coverage(scenarios: Iterable[tuple[str, list[str], str]]) -> list[dict[str, Any]]:
    """Every catalogued clause with its scenarios ``(id, clauses, outcome)`` and a verdict.

    A clause is ``failed`` when a scenario of it failed or errored, else ``covered`` when one passed,
    ``expected-failure`` when one failed as expected, ``not-run`` when its scenarios were all unsupported
    or disabled, and ``no-scenario`` when it has none.
    """
    by_clause: dict[str, list[dict[str, str]]] = {}
    for scenario_id, clauses, outcome in scenarios:
        for clause_id in clauses:
            by_clause.setdefault(clause_id, []).append({"id": scenario_id, "outcome": outcome})
    rows = []
    for clause in load_catalogue().values():
        entries = by_clause.get(clause.id, [])
        outcomes = {entry["outcome"] for entry in entries}
        if not entries:
            verdict = "no-scenario"
        elif outcomes & {"failed", "error"}:
            verdict = "failed"
        elif "passed" in outcomes:
            verdict = "covered"
        elif "expected-failure" in outcomes:
            verdict = "expected-failure"
        else:
            verdict = "not-run"
        rows.append(
            {
                "id": clause.id,
                "section": clause.section,
                "text": clause.text,
                "verdict": verdict,
                "scenarios": entries,
            }
        )
    return rows

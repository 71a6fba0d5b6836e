"""Schemathesis over the reference server's own OpenAPI description, in-process through WSGI.

Every operation of ``/openapi3.v1.json`` gets positive and negative examples (path parameters half of
the time from the seeded world), with the admin's token, and one anonymous positive example. Each answer
is checked for server errors, for status codes and media types the description does not declare, and
for a body that contradicts its declared schema. Failures are collected, not raised, so one run lists
every defect with the request that caused it and the server's traceback.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

import schemathesis
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException
from schemathesis import Case
from schemathesis.checks import not_a_server_error
from schemathesis.core import NOT_SET
from schemathesis.core.failures import FailureGroup
from schemathesis.core.result import Ok
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from .world import ADMIN_TOKEN, World, known_values

__all__ = ["ApiFuzzReport", "Finding", "captured_server_log", "fuzz_api", "operations_of", "run_examples"]

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
MODES = (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE)
AUTH = {"Authorization": f"token {ADMIN_TOKEN}"}


@dataclass(frozen=True)
class Finding:
    """One answer that broke a check: where, what was sent, what came back, and the server's traceback."""

    operation: str
    mode: str
    status: int
    request: str
    problem: str
    traceback: str = ""

    def describe(self) -> str:
        lines = [f"{self.operation} [{self.mode}] -> {self.status}: {self.problem}", f"  request: {self.request}"]
        if self.traceback:
            lines.append("  server: " + self.traceback.strip().splitlines()[-1])
        return "\n".join(lines)


@dataclass
class ApiFuzzReport:
    """What a run covered and what it found."""

    operations: int = 0
    described: int = 0
    """Operations in the description, fuzzed or not (a part of a run fuzzes some of them)."""
    examples: int = 0
    anonymous: int = 0
    rebuilds: int = 0
    seconds: float = 0.0
    findings: list[Finding] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"{self.operations} of {self.described} operations, {self.examples} examples with the admin token, "
            f"{self.anonymous} anonymous, "
            f"{len(self.findings)} findings, {self.rebuilds} world rebuilds, {self.seconds:.1f} s"
        )


class _ServerLog(logging.Handler):
    """Keeps the reference server's logged tracebacks of the current request."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(self.format(record))


@contextmanager
def captured_server_log() -> Iterator[_ServerLog]:
    handler = _ServerLog()
    logger = logging.getLogger("reference_server")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


def _describe_request(case: Case[Any]) -> str:
    body = "" if case.body is NOT_SET else f" body={case.body!r}"[:300]
    query = f" query={case.query!r}" if case.query else ""
    return f"{case.method} {case.formatted_path}{query}{body}"


def _strategy(operation: Any, mode: schemathesis.GenerationMode, world: World) -> st.SearchStrategy[Any]:
    """Half seeded path parameters, half generated ones."""
    plain: st.SearchStrategy[Any] = operation.as_strategy(generation_mode=mode)
    names = [param.name for param in operation.path_parameters]
    candidates = known_values(world, names)
    if not candidates:
        return plain
    fixed = st.fixed_dictionaries({name: st.sampled_from(values) for name, values in candidates.items()})
    seeded = fixed.flatmap(lambda params: operation.as_strategy(generation_mode=mode, path_parameters=params))
    return st.one_of(seeded, plain)


def run_examples(
    strategy: st.SearchStrategy[Any],
    examples: int,
    run_seed: int,
    on_case: Callable[[Case[Any]], None],
) -> None:
    @seed(run_seed)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
        derandomize=False,
    )
    @given(case=strategy)
    def run(case: Case[Any]) -> None:
        on_case(case)

    run()


def operations_of(world: World) -> dict[str, Any]:
    """The description's operations, bound to this world's app, by ``METHOD /path``."""
    schema = schemathesis.openapi.from_wsgi("/openapi3.v1.json", world.app)
    operations = (result.ok() for result in schema.get_all_operations() if isinstance(result, Ok))
    return {f"{operation.method.upper()} {operation.path}": operation for operation in operations}


def fuzz_api(
    *,
    examples: int,
    run_seed: int,
    anonymous: bool = True,
    select: Callable[[str], bool] | None = None,
    part: tuple[int, int] = (0, 1),
) -> ApiFuzzReport:
    """Fuzz every operation (or those whose ``METHOD /path`` ``select`` accepts) with ``examples`` per mode.

    ``part=(k, n)`` keeps every n-th of them in sorted order from the k-th on: the n parts together fuzz each
    selected operation once, and as n tests they spread over xdist's workers instead of holding one for minutes.
    """
    started = time.monotonic()
    report = ApiFuzzReport()
    world = World.build()
    try:
        operations = operations_of(world)
        report.described = len(operations)
        selected = [label for label in sorted(operations) if select is None or select(label)]
        index, count = part
        changed = False
        for label in selected[index::count]:
            if changed and not world.intact():
                world.close()
                world = World.build()
                operations = operations_of(world)
                report.rebuilds += 1
            operation = operations[label]
            changed = not label.startswith("GET ")
            report.operations += 1
            for mode in MODES:
                report.examples += _fuzz_operation(
                    operation, mode, world=world, examples=examples, run_seed=run_seed, report=report, headers=AUTH
                )
            if anonymous:
                report.anonymous += _fuzz_operation(
                    operation,
                    MODES[0],
                    world=world,
                    examples=1,
                    run_seed=run_seed,
                    report=report,
                    headers={},
                    label_suffix="anonymous",
                )
    finally:
        world.close()
    report.seconds = time.monotonic() - started
    return report


def _fuzz_operation(
    operation: Any,
    mode: schemathesis.GenerationMode,
    *,
    world: World,
    examples: int,
    run_seed: int,
    report: ApiFuzzReport,
    headers: dict[str, str],
    label_suffix: str = "",
) -> int:
    """Run one operation in one mode; returns how many examples were sent."""
    label = f"{operation.method.upper()} {operation.path}"
    mode_name = mode.value + (f", {label_suffix}" if label_suffix else "")
    sent = 0

    def on_case(case: Case[Any]) -> None:
        nonlocal sent
        sent += 1
        with captured_server_log() as log:
            response = case.call(headers=headers)
            try:
                case.validate_response(response, checks=CHECKS, headers=headers)
            except FailureGroup as error:  # every failed check of this answer
                problem = "; ".join(sorted({getattr(f, "title", type(f).__name__) for f in error.exceptions}))
                report.findings.append(
                    Finding(
                        label, mode_name, response.status_code, _describe_request(case), problem, "\n".join(log.records)
                    )
                )

    with suppress(HypothesisException):  # no example of this mode exists (negative, for an operation without inputs)
        run_examples(_strategy(operation, mode, world), examples, run_seed, on_case)
    return sent

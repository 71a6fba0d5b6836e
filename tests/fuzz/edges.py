"""String edge cases through every JSON request body, then every read once more.

Hypothesis' text strategy never draws a lone UTF-16 surrogate, so the schema fuzz (``api.py``) never sent
``{"title": "\\ud800"}``, which answered 500 on 21 operations. This pass draws one seeded positive body per
operation, adds every declared string property it lacks (the first example Hypothesis draws is the minimal
one: required properties only), and sends one copy per edge string with every string value replaced by it.
A stored value may only break a later answer, so every GET operation is then called again (the read-back),
also just before a damaged world is replaced, since the replacement forgets what was stored.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from itertools import islice, product
from typing import Any

import schemathesis
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException
from schemathesis import Case

from .api import AUTH, Finding, captured_server_log, operations_of, run_examples
from .world import World, known_values

__all__ = ["CI_EDGE_STRINGS", "EDGE_STRINGS", "EdgeReport", "fuzz_edge_strings"]

Schema = dict[str, Any]

LONG = "x" * 10_000
FULLWIDTH_TRAVERSAL = "../../.ssh/authorized_keys".translate({ord("."): "\uff0e", ord("/"): "\uff0f"})
"""Fullwidth full stops and solidi: NFKC folds them to ``../../.ssh/authorized_keys``."""
EDGE_STRINGS: tuple[str, ...] = (
    "\ud800",
    "x\udc00y",
    "\udfff\ud800",
    "\x00",
    "a\x00b",
    "\u202e",
    "\ufeff",
    "\uffff",
    "😀",
    FULLWIDTH_TRAVERSAL,
    "../../etc/passwd",
    "%2e%2e%2f",
    LONG,
    "",
    " ",
    "\r\n",
    "${{ secrets.X }}",
    "<script>",
    "'; DROP TABLE x;--",
)
"""Values a text strategy rarely or never draws: lone surrogates, NUL, bidi and byte-order marks, a
non-character, an astral character, traversals (fullwidth, plain, percent-encoded), a long, an empty and a
blank value, a line break, an Actions expression, markup and SQL."""
CI_EDGE_STRINGS: tuple[str, ...] = ("\ud800", "x\udc00y", "a\x00b", FULLWIDTH_TRAVERSAL, LONG)
"""CI's share of :data:`EDGE_STRINGS`: lone surrogates (the hole this pass was written for), NUL, size, and
the traversal that survives a naive ``..`` check."""
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Probe:
    """One drawn request, sendable to any world: every world is seeded alike, so its names and ids hold."""

    label: str
    request: dict[str, Any]  # Werkzeug's ``open`` arguments, without the body
    body: dict[str, Any] | None = None


@dataclass
class EdgeReport:
    """What the edge pass covered and what it found."""

    operations: int = 0
    examples: int = 0
    baselines: int = 0  # requests sent while picking path parameters that name something
    reads: int = 0
    rebuilds: int = 0
    seconds: float = 0.0
    findings: list[Finding] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"edge strings: {self.operations} operations with a JSON body, {self.examples} edge bodies, "
            f"{self.baselines} baseline requests, {self.reads} read-back calls, {len(self.findings)} findings, "
            f"{self.rebuilds} world rebuilds, {self.seconds:.1f} s"
        )


class _Pass:
    """The current world and the reads that check it; a world a request damaged is read back, then replaced."""

    def __init__(self, report: EdgeReport) -> None:
        self.report = report
        self.world = World.build()
        self.reads: list[Probe] = []

    def send(self, probe: Probe, body: Any, mode: str) -> int:
        status = _send(self.world, probe, body, mode, self.report)
        if probe.request["method"] != "GET" and status < 300 and not self.world.intact():
            self.read_back()  # the replacement forgets what this world stored
            self.world.close()
            self.world = World.build()
            self.report.rebuilds += 1
        return status

    def read_back(self) -> None:
        """Every GET operation once more: a stored edge string may only break the answers that carry it."""
        for probe in self.reads:
            _send(self.world, probe, None, "read-back", self.report)
            self.report.reads += 1


def fuzz_edge_strings(
    *, edges: Sequence[str], run_seed: int, select: Callable[[str], bool] | None = None
) -> EdgeReport:
    """Send every edge string through every JSON body operation (or those ``select`` accepts), then read back."""
    started = time.monotonic()
    report = EdgeReport()
    run = _Pass(report)
    try:
        operations = operations_of(run.world)
        for label in sorted(label for label in operations if label.startswith("GET ")):
            if (read := _pick(run, label, operations[label], None, run_seed)) is not None:
                run.reads.append(read)
        for label in sorted(operations):
            schema = _json_body_schema(operations[label])
            if schema is None or (select is not None and not select(label)):
                continue
            if (probe := _pick(run, label, operations[label], schema, run_seed)) is not None:
                report.operations += 1
                for edge in edges:
                    run.send(probe, _substitute(probe.body, edge, schema), f"edge {_edge_name(edge)}")
                    report.examples += 1
        run.read_back()
    finally:
        run.world.close()
    report.seconds = time.monotonic() - started
    return report


def _json_body_schema(operation: Any) -> Schema | None:
    """The operation's ``application/json`` request body schema, references inlined, if it is an object."""
    components = operation.schema.raw_schema.get("components", {}).get("schemas", {})
    content = operation.definition.raw.get("requestBody", {}).get("content", {})
    schema: Schema = _inline(content.get("application/json", {}).get("schema", {}), components)
    return schema if schema.get("type") == "object" else None


def _inline(value: Any, components: Schema, depth: int = 0) -> Any:
    """``value`` with every ``#/components/schemas/`` reference replaced by its target (a cycle stops at 8)."""
    if isinstance(value, list):
        return [_inline(item, components, depth) for item in value]
    if not isinstance(value, dict):
        return value
    if "$ref" in value:
        return _inline(components[value["$ref"].rsplit("/", 1)[-1]], components, depth + 1) if depth < 8 else {}
    return {key: _inline(item, components, depth) for key, item in value.items()}


def _pick(run: _Pass, label: str, operation: Any, schema: Schema | None, run_seed: int) -> Probe | None:
    """The first positive example, under the first of the world's path parameter combinations that the server
    does not answer 404 with its (completed) body: names are shared (``id`` is a project's and a team's), and
    a path that names nothing tests only the router. The tries are sent as baselines."""
    case = _draw(operation, run.world, run_seed)
    if case is None or (schema is not None and not isinstance(case.body, dict)):
        return None
    first: Probe | None = None
    for variant in _variants(operation, case, run.world):
        request = variant.as_transport_kwargs(headers=AUTH)
        body = None if schema is None else _complete(request.pop("json"), schema)
        probe = Probe(label, request, body)
        first = first or probe
        run.report.baselines += 1
        if run.send(probe, body, "baseline") != 404:
            return probe
    return first


def _draw(operation: Any, world: World, run_seed: int) -> Case[Any] | None:
    """The first positive example Hypothesis draws, with the world's path parameters where it has them."""
    mode = schemathesis.GenerationMode.POSITIVE
    strategy: st.SearchStrategy[Any] = operation.as_strategy(generation_mode=mode)
    candidates = known_values(world, [param.name for param in operation.path_parameters])
    if candidates:
        fixed = st.fixed_dictionaries({name: st.sampled_from(values) for name, values in candidates.items()})
        strategy = fixed.flatmap(lambda params: operation.as_strategy(generation_mode=mode, path_parameters=params))
    drawn: list[Case[Any]] = []
    with suppress(HypothesisException):  # no positive example exists
        run_examples(strategy, 1, run_seed, drawn.append)
    return drawn[0] if drawn else None


def _variants(operation: Any, case: Case[Any], world: World, limit: int = 32) -> Iterator[Case[Any]]:
    """``case`` with each combination of the world's values for its path parameters (at most ``limit``)."""
    candidates = known_values(world, list(case.path_parameters or {}))
    for combination in islice(product(*candidates.values()), limit):
        yield operation.Case(
            path_parameters={**(case.path_parameters or {}), **dict(zip(candidates, combination, strict=True))},
            headers=case.headers,
            cookies=case.cookies,
            query=case.query,
            body=case.body,
            media_type=case.media_type,
        )


def _filler(schema: Schema) -> Any:
    """A value that carries strings for an absent property (``"x"``, ``["x"]``, an object of them), or None."""
    kind = schema.get("type")
    if kind == "string":
        return "x"
    if kind == "array":
        item = _filler(schema.get("items", {}))
        return None if item is None else [item]
    if kind == "object":
        return _complete({}, schema) or None
    return None


def _complete(value: Any, schema: Schema) -> Any:
    """``value`` with every absent (or empty) string-carrying property added, at any depth, so that each
    declared string reaches the server; a free-form map gets one entry."""
    if isinstance(value, list):
        return [_complete(item, schema.get("items", {})) for item in value]
    if not isinstance(value, dict):
        return value
    done = {key: _complete(item, schema.get("properties", {}).get(key, {})) for key, item in value.items()}
    for name, sub in schema.get("properties", {}).items():
        if done.get(name) in (None, [], {}) and (filler := _filler(sub)) is not None:
            done[name] = filler
    extra = schema.get("additionalProperties")
    if not done and isinstance(extra, dict) and (filler := _filler(extra)) is not None:
        done["x"] = filler
    return done


def _substitute(value: Any, edge: str, schema: Schema) -> Any:
    """``value`` with every string replaced by ``edge``, and the keys of free-form maps too (a declared
    property's name stays: renaming it would only drop the value)."""
    if isinstance(value, str):
        return edge
    if isinstance(value, list):
        return [_substitute(item, edge, schema.get("items", {})) for item in value]
    if not isinstance(value, dict):
        return value
    declared: Schema = schema.get("properties", {})
    extra = schema.get("additionalProperties")
    free: Schema = extra if isinstance(extra, dict) else {}
    return {
        (key if key in declared else edge): _substitute(item, edge, declared.get(key, free))
        for key, item in value.items()
    }


def _encode(body: Any) -> bytes:
    """``body`` as UTF-8 JSON, each lone surrogate as its ``\\uXXXX`` escape (as a JavaScript client sends
    it): the only way to put one on the wire, and other text stays raw UTF-8 so that path is fuzzed too."""
    text = json.dumps(body, ensure_ascii=False)
    return _LONE_SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text).encode("utf-8")


def _edge_name(edge: str) -> str:
    return ascii(edge) if len(edge) <= 40 else f"<{len(edge)} characters>"


def _send(world: World, probe: Probe, body: Any, mode: str, report: EdgeReport) -> int:
    """Send ``probe`` (with ``body``); a 5xx answer becomes a finding with the server's traceback."""
    data = None if body is None else _encode(body)
    with captured_server_log() as log:
        response = world.client.open(**probe.request, data=data)
    if response.status_code >= 500:
        method, path = probe.request["method"], probe.request["path"]
        query = f" query={probe.request['query_string']!r}" if probe.request.get("query_string") else ""
        sent = "" if body is None else f" body={json.dumps(body)[:300]}"
        request = f"{method} {path}{query}{sent}"
        traceback = "\n".join(log.records)
        report.findings.append(Finding(probe.label, mode, response.status_code, request, "Server error", traceback))
    return response.status_code

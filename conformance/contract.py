"""The contract check: every JSON answer of the REST API is validated against the schema of the operation called.

No step has to ask for it (DESIGN 6): the run's :class:`~conformance.client.Recorder` hands each answer
under the target's ``/api/v1/`` to :meth:`Contract.check`, which matches the request to an operation of
the reference's description (``conformance/data/reference-operations.json``, by method and path template,
the same matching as operation coverage) and validates

* an answer with the operation's declared success status and a JSON body against its schema (``name``,
  ``[name]`` or ``a|b`` of ``schemas/``),
* a refusal (4xx, 5xx) with a JSON body against the error schema (Gitea's APIError, or the operation's
  own error model where Gitea has one, :data:`ERROR_SCHEMAS`),

and skips the rest: other 2xx and 3xx statuses, HEAD, and answers whose Content-Type is not JSON (a
rendered text, a file, a diff; Gitea 1.27 answers the comparison as text when asked ``output=diff``).
A breach is a :class:`Violation` naming the operation, the JSON pointer of each difference and what was
expected there against what was found; the plugin fails the step with it.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

from jsonschema import ValidationError

from .coverage import OperationMap
from .operations import REFERENCE_FILE, Answer, OperationList, load_operations
from .schemas import body_acceptor, body_validator

__all__ = [
    "ERROR_SCHEMA",
    "ERROR_SCHEMAS",
    "MAX_DIFFERENCES",
    "Contract",
    "ContractViolation",
    "Difference",
    "Violation",
]

ERROR_SCHEMA = "error"
ERROR_SCHEMAS: dict[str, dict[int, str]] = {
    "repoUpdateTopics": {422: "invalid_topics_error|error"},
    "repoAddTopic": {422: "invalid_topics_error|error"},
}
"""Refusals that may be other than Gitea's APIError: the topic routes answer 422 with the names they refused
(a body that does not bind is still an APIError)."""
MAX_DIFFERENCES = 5
"""Differences listed per answer; one wrong nested model can otherwise repeat the same breach for every item."""
REFERENCE_ONLY = "-/"
"""The reference server's test hooks (``/api/v1/-/...``) are not forge operations."""
_REQUIRED = re.compile(r"^'(?P<name>.+)' is a required property$")
_TEXT_LIMIT = 80


@dataclass(frozen=True)
class Difference:
    """One breach: where (a JSON pointer into the body), what the schema wants there, and what the body holds."""

    pointer: str
    expected: str
    found: str

    def render(self) -> str:
        """``at /id: expected integer, found string "2024-01-01"``."""
        return f"at {self.pointer or '/'}: expected {self.expected}, found {self.found}"


@dataclass(frozen=True)
class Violation:
    """An answer that breaks its operation's contract."""

    operation_id: str
    method: str
    path: str
    """The operation's path template, or the request's own path when no operation matched."""
    status: int
    schema: str
    differences: tuple[Difference, ...]

    def render(self) -> str:
        """The operation, the status, the schema, then one line per difference."""
        head = f"{self.operation_id} ({self.method} {self.path}) answered {self.status}, not matching {self.schema}:"
        return "\n".join([head, *(f"  {difference.render()}" for difference in self.differences)])

    def masked(self, hide: Callable[[str, str], str]) -> Violation:
        """The same violation with each difference's found value passed through ``hide(pointer, found)``."""
        differences = tuple(replace(item, found=hide(item.pointer, item.found)) for item in self.differences)
        return replace(self, differences=differences)


class ContractViolation(AssertionError):
    """Raised at the end of a step whose traffic broke the contract; lists every violation."""

    def __init__(self, violations: list[Violation]) -> None:
        self.violations = list(violations)
        text = "\n".join(violation.render() for violation in self.violations)
        super().__init__(f"the forge's answer does not match the API contract:\n{text}")


def _pointer(parts: list[Any]) -> str:
    """A JSON pointer (RFC 6901): ``~`` and ``/`` in a key escaped."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _cut(text: str) -> str:
    return text if len(text) <= _TEXT_LIMIT else text[:_TEXT_LIMIT] + "..."


def _describe(value: Any) -> str:
    """A short, typed account of a value: ``string "2024-01-01"``, ``object with keys a, b``."""
    kind = _kind(value)
    if isinstance(value, dict):
        return _cut(f"object with keys {', '.join(value)}") if value else "an empty object"
    if isinstance(value, list):
        return f"array of {len(value)} item(s)"
    return f"{kind} {_cut(json.dumps(value, ensure_ascii=False))}" if value is not None else "null"


def _closeness(error: ValidationError) -> tuple[bool, int]:
    """A branch of ``anyOf`` that failed inside the value came closer than one refusing its type outright."""
    return (bool(error.relative_path) or error.validator != "type", len(error.absolute_path))


def _leaf(error: ValidationError) -> ValidationError:
    """Inside ``anyOf``/``oneOf`` (a nullable reference, ``a|b``), the error of the branch that came closest."""
    while error.context:
        error = max(error.context, key=_closeness)
    return error


def _difference(error: ValidationError) -> Difference:
    """What one validation error means, as a pointer, the expectation and what was found."""
    error = _leaf(error)
    parts = list(error.absolute_path)
    rule, wanted, instance = error.validator, error.validator_value, error.instance
    if rule == "type":
        expected = " or ".join(wanted) if isinstance(wanted, list) else str(wanted)
        return Difference(_pointer(parts), expected, _describe(instance))
    if rule == "required":
        match = _REQUIRED.match(error.message)
        name = match.group("name") if match else str(wanted)
        return Difference(_pointer([*parts, name]), "a required property", "nothing")
    if rule in ("additionalProperties", "unevaluatedProperties") and isinstance(instance, dict):
        known = set(error.schema.get("properties", {})) if isinstance(error.schema, dict) else set()
        extra = ", ".join(sorted(set(instance) - known))
        return Difference(_pointer(parts), "no other property", _cut(f"property {extra}"))
    if rule in ("enum", "const"):
        choices = wanted if rule == "enum" else [wanted]
        return Difference(_pointer(parts), _cut("one of " + json.dumps(choices)), _describe(instance))
    if rule == "format":
        return Difference(_pointer(parts), f"a {wanted} string", _describe(instance))
    return Difference(_pointer(parts), _cut(f"{rule} {json.dumps(wanted, default=str)}"), _describe(instance))


class Contract:
    """The API contract of one target: the reference's operations and their declared answers."""

    def __init__(self, api_url: str, operations: OperationList | None = None) -> None:
        listed = operations if operations is not None else load_operations(REFERENCE_FILE)
        self.api_url = api_url if api_url.endswith("/") else api_url + "/"
        self.operations = OperationMap.from_list(listed)
        self.answers: dict[str, Answer] = listed.answers
        self.validated = 0
        """Bodies validated so far by this process (one count per answer)."""
        self.violations = 0
        """Answers found breaking the contract so far."""
        self.seconds = 0.0
        """Time spent checking, to keep an eye on what the check costs a run."""

    def totals(self) -> dict[str, Any]:
        """What this process checked, for results.json (the xdist controller adds the workers' up)."""
        return {"validated": self.validated, "violations": self.violations, "seconds": round(self.seconds, 3)}

    def _schema(self, operation_id: str, status: int) -> str:
        """The schema an answer of this status must match ('' when none applies)."""
        if status >= 400:
            return ERROR_SCHEMAS.get(operation_id, {}).get(status, ERROR_SCHEMA)
        answer = self.answers.get(operation_id)
        if answer is None or answer.status != status:
            return ""
        return answer.spec

    def check(self, method: str, url: str, status: int, content_type: str, body: bytes) -> Violation | None:
        """Validate one answer; ``None`` when it keeps the contract or no part of the contract applies to it."""
        started = time.perf_counter()
        try:
            violation = self._check(method.upper(), url, status, content_type, body)
        finally:
            self.seconds += time.perf_counter() - started
        self.violations += violation is not None
        return violation

    def _applies(self, method: str, url: str, status: int, content_type: str) -> tuple[str, str, str] | None:
        """``(operation id, path template, schema)`` of an answer the contract checks, else ``None``."""
        if method == "HEAD" or not url.startswith(self.api_url) or (status < 200 or 300 <= status < 400):
            return None
        path = "/" + urlsplit(url[len(self.api_url) :]).path
        if path.startswith("/" + REFERENCE_ONLY) or "json" not in content_type.lower():
            return None
        operation = self.operations.match(method, path)
        if operation is None:
            return ("(an operation the kit does not know)", path, ERROR_SCHEMA) if status >= 400 else None
        schema = self._schema(operation.operation_id, status)
        return (operation.operation_id, operation.path, schema) if schema else None

    def covers(self, method: str, url: str, status: int, content_type: str) -> str:
        """The schema the contract validates this answer against ('' when it leaves the answer alone)."""
        applies = self._applies(method.upper(), url, status, content_type)
        return applies[2] if applies is not None else ""

    def _check(self, method: str, url: str, status: int, content_type: str, body: bytes) -> Violation | None:
        applies = self._applies(method, url, status, content_type)
        if applies is None:
            return None
        operation_id, template, schema = applies
        try:
            document = json.loads(body)
        except ValueError:
            found = _cut(body[:200].decode("utf-8", "replace"))
            broken = (Difference("", "a JSON document (the Content-Type says so)", f"{found!r}"),)
            return Violation(operation_id, method, template, status, schema, broken)
        self.validated += 1
        if body_acceptor(schema)(document):
            return None
        errors = body_validator(schema).iter_errors(document)
        first = next(errors, None)
        if first is None:
            return None
        found_errors = [first, *(error for _, error in zip(range(MAX_DIFFERENCES - 1), errors, strict=False))]
        differences = tuple(_difference(error) for error in found_errors)
        return Violation(operation_id, method, template, status, schema, differences)

"""The contract check's fast path (``schemas.body_acceptor``) never accepts a body the full check refuses.

A yes from the fast path ends the check; a no hands the body to ``jsonschema``, which gives the verdict. So the
only way the fast path could weaken the contract is by accepting a body ``jsonschema`` refuses. For every answer
schema of the reference's operations, an example body is built and then broken field by field (each value
swapped for one of every JSON type, each required field removed); on every variant the fast path's yes must
imply the full check's yes.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from conformance.operations import REFERENCE_FILE, load_operations
from conformance.schemas import body_acceptor, body_validator

REPLACEMENTS: tuple[Any, ...] = (None, 0, -1, 1.5, "", "x", "2026-13-45", True, [], [1], {}, {"id": "x"})


def _example(schema: Any, depth: int = 0) -> Any:
    """A plausible body for the schema's common keywords (enum, const, anyOf/oneOf, objects, arrays, scalars)."""
    if not isinstance(schema, dict) or depth > 6:
        return None
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        if schema.get(key):
            return _example(schema[key][0], depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((item for item in kind if item != "null"), "null")
    if kind == "object" or "properties" in schema:
        return {name: _example(sub, depth + 1) for name, sub in schema.get("properties", {}).items()}
    if kind == "array":
        return [_example(schema.get("items", {}), depth + 1)] if schema.get("minItems") else []
    return {"integer": max(0, schema.get("minimum", 0)), "number": 0, "boolean": False, "null": None}.get(
        str(kind), "x" * max(1, schema.get("minLength", 1))
    )


def _variants(document: Any) -> Iterator[Any]:
    yield document
    targets = [document] + (document[:1] if isinstance(document, list) else [])
    for target in targets:
        if not isinstance(target, dict):
            continue
        for key in list(target):
            for value in REPLACEMENTS:
                changed = copy.deepcopy(document)
                holder = changed[0] if changed is not document and isinstance(changed, list) else changed
                if isinstance(holder, dict) and key in holder:
                    holder[key] = value
                    yield changed
            removed = copy.deepcopy(document)
            holder = removed[0] if isinstance(removed, list) else removed
            if isinstance(holder, dict):
                holder.pop(key, None)
                yield removed


def test_the_fast_path_never_accepts_what_the_full_check_refuses() -> None:
    specs = sorted({answer.spec for answer in load_operations(REFERENCE_FILE).answers.values() if answer.spec})
    accepted = refused = 0
    for spec in [*specs, "error"]:
        validator, acceptor = body_validator(spec), body_acceptor(spec)
        schema = validator.schema
        example = _example(schema["anyOf"][0] if "anyOf" in schema else schema)
        for variant in _variants(example):
            if acceptor(variant):
                accepted += 1
                problems = [error.message for error in validator.iter_errors(variant)]
                assert not problems, f"{spec}: the fast path accepted {variant!r}, which breaks {problems[:3]}"
            else:
                refused += 1
    assert accepted > 100 and refused > 100, f"too few cases on either side: {accepted} accepted, {refused} refused"

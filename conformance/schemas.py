"""Validate a JSON document against a named schema of ``schemas/`` (JSON Schema 2020-12, ``$ref`` across files).

Every schema file has ``$id`` ``https://conformance.forge.invalid/schemas/<name>.json`` so a
``{"$ref": "user.json"}`` in another file resolves through the registry.

Validators are compiled once per process, over a copy of the schema with its ``$ref``s inlined (a
reference that would loop, a repository's ``parent``, stays one): resolving a reference costs more than
checking what it points to, and the contract check validates thousands of answers in a run.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from .paths import SCHEMAS_DIR

__all__ = [
    "SCHEMA_BASE",
    "SchemaMismatchError",
    "body_acceptor",
    "body_validator",
    "inlined",
    "schema_names",
    "validate",
    "validator_for",
]

SCHEMA_BASE = "https://conformance.forge.invalid/schemas/"
_NOT_COPIED = frozenset({"$ref", "$id", "$schema", "$defs"})
"""Keys an inlined copy leaves out: its references are resolved, so its own identity and definitions are not needed."""


class SchemaMismatchError(AssertionError):
    """A document does not match its schema; the message lists where and why."""


@lru_cache(maxsize=1)
def _registry(directory: Path = SCHEMAS_DIR) -> Registry[Any]:
    resources = []
    for path in sorted(directory.glob("*.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        expected = SCHEMA_BASE + path.name
        if contents.get("$id") != expected:
            raise ValueError(f"schema {path.name} must have $id {expected}")
        resources.append((expected, Resource.from_contents(contents)))
    return Registry().with_resources(resources)


def schema_names() -> list[str]:
    """The names of every schema (file names without ``.json``)."""
    return sorted(path.stem for path in SCHEMAS_DIR.glob("*.json"))


def _contents(file_name: str) -> Any:
    try:
        return _registry().contents(SCHEMA_BASE + file_name)
    except LookupError:
        raise SchemaMismatchError(f'there is no schema "{file_name.removesuffix(".json")}" in {SCHEMAS_DIR}') from None


def _target(file_name: str, pointer: str) -> Any:
    """The node a ``file#pointer`` reference names (pointers are ``/$defs/name`` in the kit's schemas)."""
    node = _contents(file_name)
    for part in pointer.split("/")[1:]:
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def _inline(node: Any, file_name: str, stack: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        return [_inline(item, file_name, stack) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _inline(value, file_name, stack) for key, value in node.items() if key not in _NOT_COPIED}
    ref = node.get("$ref")
    if not isinstance(ref, str):
        return out
    target, _, pointer = ref.partition("#")
    key = f"{target or file_name}#{pointer}"
    if key in stack:
        resolved: Any = {"$ref": SCHEMA_BASE + key}
    else:
        resolved = _inline(_target(target or file_name, pointer), target or file_name, (*stack, key))
    if not out:
        return resolved
    out["allOf"] = [resolved, *out.get("allOf", [])]  # a reference with siblings applies both, as allOf does
    return out


def inlined(file_name: str) -> dict[str, Any]:
    """Schema ``file_name`` with its references replaced by what they name (a loop stays a reference)."""
    schema = _inline(_contents(file_name), file_name, (f"{file_name}#",))
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


def _compiled(schema: dict[str, Any]) -> Draft202012Validator:
    return Draft202012Validator(schema, registry=_registry(), format_checker=Draft202012Validator.FORMAT_CHECKER)


@cache
def validator_for(name: str) -> Draft202012Validator:
    """The validator of schema ``name`` (``user`` or ``user.json``). The shipped schemas are held to the 2020-12
    meta-schema by the kit's tests, not here: checking one took 8 ms, in every process of a run, for each of the
    few hundred schemas the answers use."""
    file_name = name if name.endswith(".json") else f"{name}.json"
    return _compiled(inlined(file_name))


@cache
def body_validator(spec: str) -> Draft202012Validator:
    """The validator of an answer's body as ``conformance.operations`` writes it: ``name``, ``[name]`` (an array
    of them) or ``a|b`` (either); compiled once per process, like :func:`validator_for`."""
    choices: list[dict[str, Any]] = []
    for name in spec.split("|"):
        schema = validator_for(name.strip("[]")).schema
        assert isinstance(schema, dict)
        choices.append({"type": "array", "items": schema} if name.startswith("[") else schema)
    return _compiled(choices[0] if len(choices) == 1 else {"anyOf": choices})


@lru_cache(maxsize=1)
def _fast_registry(directory: Path = SCHEMAS_DIR) -> jsonschema_rs.Registry:
    return jsonschema_rs.Registry(
        [
            (SCHEMA_BASE + path.name, json.loads(path.read_text(encoding="utf-8")))
            for path in sorted(directory.glob("*.json"))
        ]
    )


@cache
def body_acceptor(spec: str) -> Callable[[Any], bool]:
    """A fast yes to "does this body keep schema ``spec``?": the same schema compiled by ``jsonschema_rs``, which
    checks every format (so it never accepts what :func:`body_validator` refuses); a no is only a hint, and
    :func:`body_validator` then gives the verdict and its differences. Answers take a tenth of the time."""
    validator = jsonschema_rs.validator_for(
        body_validator(spec).schema, validate_formats=True, registry=_fast_registry(), offline=True
    )
    return validator.is_valid


def validate(document: Any, name: str) -> None:
    """Raise :class:`SchemaMismatchError` listing every violation of schema ``name``."""
    errors = sorted(validator_for(name).iter_errors(document), key=lambda error: list(error.absolute_path))
    if errors:
        lines = [
            f"  at /{'/'.join(str(part) for part in error.absolute_path)}: {error.message[:300]}"
            for error in errors[:20]
        ]
        more = f"\n  ... and {len(errors) - 20} more" if len(errors) > 20 else ""
        raise SchemaMismatchError(f'the document does not match the schema "{name}":\n' + "\n".join(lines) + more)

"""Validate a JSON document against a named schema of ``schemas/`` (JSON Schema 2020-12, ``$ref`` across files).

Every schema file has ``$id`` ``https://conformance.forge.invalid/schemas/<name>.json`` so a
``{"$ref": "user.json"}`` in another file resolves through the registry.
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from .paths import SCHEMAS_DIR

__all__ = ["SCHEMA_BASE", "SchemaMismatchError", "schema_names", "validate", "validator_for"]

SCHEMA_BASE = "https://conformance.forge.invalid/schemas/"


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


@cache
def validator_for(name: str) -> Draft202012Validator:
    """The validator of schema ``name`` (``user`` or ``user.json``)."""
    file_name = name if name.endswith(".json") else f"{name}.json"
    registry = _registry()
    try:
        schema = registry.contents(SCHEMA_BASE + file_name)
    except LookupError:
        raise SchemaMismatchError(f'there is no schema "{name}" in {SCHEMAS_DIR}') from None
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER)


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

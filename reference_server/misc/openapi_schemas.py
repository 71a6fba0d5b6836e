"""Success bodies in the API description: the ``schemas/`` files the endpoints declare (``Endpoint.returns``).

The kit's schemas are JSON Schema 2020-12 with cross-file ``$ref``s; the OpenAPI 3.0.3 document (Gitea
serves 3.0.3) gets them converted into ``components/schemas`` (``schema_<name>``), so Schemathesis
validates success bodies.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "SCHEMAS_DIR",
    "component_name",
    "convert_schema",
    "openapi30_components",
    "schema_files",
    "success_response",
]

SCHEMAS_DIR = Path(__file__).resolve().parents[2] / "schemas"
"""The kit's ``schemas/`` directory, next to the ``reference_server`` package in the checkout."""

SUCCESS_STATUS_KEY = "x-success-status"
"""The responses' extension naming the declared success status (a string, so tools that read responses skip
it): the only trace of a declared answer without a JSON body, which ``204`` or ``2XX`` already cover. The
harness's operation list reads it (``conformance/data/generate.py``)."""

_REF_PREFIX = "#/components/schemas/"
_DROPPED = ("$schema", "$id", "$defs", "$comment")


def component_name(file_name: str, definition: str = "") -> str:
    """``schema_<file>`` for a file, ``schema_<file>__<definition>`` for one of its ``$defs``."""
    base = "schema_" + file_name.removesuffix(".json")
    return f"{base}__{definition}" if definition else base


def _ref(ref: str, file_name: str) -> str:
    """A 2020-12 ``$ref`` (``other.json``, ``other.json#/$defs/x``, ``#/$defs/x``) as a component reference."""
    target, _, pointer = ref.partition("#")
    definition = pointer.removeprefix("/$defs/") if pointer else ""
    if pointer and definition == pointer:
        raise ValueError(f"{file_name}: unsupported $ref {ref!r}")
    return _REF_PREFIX + component_name(target or file_name, definition)


def convert_schema(node: Any, file_name: str) -> Any:
    """One 2020-12 schema node in OpenAPI 3.0's dialect: ``type`` lists and ``null`` become ``nullable``, ``const``
    an ``enum``, ``if``/``then`` an ``anyOf`` (``not if``, or ``then``), and a ``$ref`` with siblings an ``allOf``."""
    if isinstance(node, list):
        return [convert_schema(item, file_name) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _DROPPED or key in ("if", "then"):
            continue
        if key == "const":
            out["enum"] = [value]
        elif key == "$ref":
            out["$ref"] = _ref(value, file_name)
        elif key in ("properties", "patternProperties"):
            out[key] = {name: convert_schema(sub, file_name) for name, sub in value.items()}
        else:
            out[key] = convert_schema(value, file_name)
    _convert_type(out)
    if "if" in node:
        otherwise = {"not": convert_schema(node["if"], file_name)}
        condition = {"anyOf": [otherwise, convert_schema(node.get("then", {}), file_name)]}
        out.setdefault("allOf", []).append(condition)
    if "$ref" in out and len(out) > 1:
        ref = out.pop("$ref")
        out.setdefault("allOf", []).insert(0, {"$ref": ref})
    return out


def _convert_type(out: dict[str, Any]) -> None:
    """``type: [t, "null"]`` -> ``type: t, nullable: true``; several non-null types -> ``anyOf``; ``type: null``
    -> a nullable string whose only value is null."""
    kinds = out.get("type")
    if kinds == "null":  # 3.0 has no null type: a nullable string that admits only null
        out.update(type="string", nullable=True, enum=[None])
        return
    if not isinstance(kinds, list):
        return
    non_null = [kind for kind in kinds if kind != "null"]
    if len(non_null) < len(kinds):
        out["nullable"] = True
    if len(non_null) == 1:
        out["type"] = non_null[0]
    else:
        del out["type"]
        out.setdefault("anyOf", []).extend({"type": kind} for kind in non_null)


def _referenced_files(names: set[str]) -> set[str]:
    """The mapped files and every file they reach through ``$ref``."""
    seen: set[str] = set()
    pending = sorted(names)
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        text = (SCHEMAS_DIR / f"{name}.json").read_text(encoding="utf-8")
        for ref in _refs(json.loads(text)):
            target = ref.partition("#")[0]
            if target:
                pending.append(target.removesuffix(".json"))
    return seen


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return own + [ref for value in node.values() for ref in _refs(value)]
    if isinstance(node, list):
        return [ref for item in node for ref in _refs(item)]
    return []


def schema_files(spec: str) -> set[str]:
    """The ``schemas/`` files a ``returns`` spec names (``a``, ``[a]``, ``a|b``)."""
    return {name.strip("[]") for name in spec.split("|")}


@cache
def openapi30_components(names: frozenset[str]) -> dict[str, Any]:
    """The named schema files, every file they reach, and their ``$defs``, as OpenAPI 3.0 components; built once
    per process and set of names."""
    components: dict[str, Any] = {}
    for name in sorted(_referenced_files(set(names))):
        document = json.loads((SCHEMAS_DIR / f"{name}.json").read_text(encoding="utf-8"))
        file_name = f"{name}.json"
        for definition, schema in document.get("$defs", {}).items():
            components[component_name(file_name, definition)] = convert_schema(schema, file_name)
        components[component_name(file_name)] = convert_schema(document, file_name)
    return components


def _body_schema(spec: str) -> dict[str, Any]:
    choices = []
    for name in spec.split("|"):
        ref = {"$ref": _REF_PREFIX + component_name(name.strip("[]"))}
        choices.append({"type": "array", "items": ref} if name.startswith("[") else ref)
    return choices[0] if len(choices) == 1 else {"anyOf": choices}


def success_response(status: int, spec: str) -> dict[str, Any]:
    """A declared success answer: its status and JSON schema (``spec`` as in ``Endpoint.returns``)."""
    content = {"application/json": {"schema": _body_schema(spec)}}
    return {str(status): {"description": f"the result ({spec})", "content": content}}

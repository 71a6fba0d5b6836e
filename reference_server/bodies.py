"""Readers of JSON request bodies, shared by every family (beside ``rest.py``, which decodes the body): the
check of a body against its operation's declared option model, and readers of optional fields, with one
wording of the 422 answers wherever an option is read."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import request

from .errors import Unprocessable
from .option_models import model_schemas
from .rest import field_label, json_body

__all__ = ["check_body", "optional_flag", "optional_text"]

SCHEMAS = model_schemas("")
"""Every option model as a JSON Schema object, a reference to another model being its bare name."""
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
KINDS: dict[str, tuple[type, str]] = {
    "string": (str, "a string"),
    "integer": (int, "an integer"),
    "boolean": (bool, "a boolean"),
    "array": (list, "a list"),
    "object": (dict, "an object"),
}
"""A JSON Schema type: the Python type its JSON values decode to, and its name in a 422 answer."""


def optional_text(options: Mapping[str, Any], key: str, max_length: int = 255) -> str:
    """A string option ('' when absent); 422 when it is not a string or too long."""
    value = options.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Unprocessable(f"[{field_label(key)}]: must be a string")
    if len(value) > max_length:
        raise Unprocessable(f"[{field_label(key)}]: MaxSize({max_length})")
    return value


def optional_flag(options: Mapping[str, Any], key: str, default: bool = False) -> bool:
    """A boolean option; 422 when present but not a boolean."""
    value = options.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise Unprocessable(f"[{field_label(key)}]: must be a boolean")
    return value


def check_body(model: str) -> None:
    """Hold the request's body to the option model its operation declares, as Gitea's binding does before a
    handler runs: a JSON object whose fields have their declared types (a list's items too; ``null`` is an
    absent field), then every required field present and not empty (422 ``[Field]: Required``). Field
    names match without regard to case, as Go's JSON decoder matches them (``Title`` is ``title``), and the
    view reads the body under the model's names."""
    if request.mimetype in FORM_TYPES:
        return  # a form is the view's to read (Gitea binds forms too, field by field)
    schema = SCHEMAS[model]
    body = _canonical(json_body(), schema["properties"])
    for key, value in body.items():
        spec = schema["properties"].get(key)
        if spec is not None and value is not None:
            _check_type(key, value, spec)
    for key in schema.get("required", ()):
        if body.get(key) in (None, ""):
            raise Unprocessable(f"[{field_label(key)}]: Required")


def _canonical(body: dict[str, Any], properties: Mapping[str, Any]) -> dict[str, Any]:
    """The body with each field under the model's spelling of its name (in place: the view reads this one);
    a field spelled exactly as the model spells it wins over another spelling, as in Go."""
    names = {key.lower(): key for key in properties}
    for key in [key for key in body if key not in properties and key.lower() in names]:
        value = body.pop(key)
        body.setdefault(names[key.lower()], value)
    return body


def _check_type(key: str, value: Any, spec: Mapping[str, Any]) -> None:
    kind = "object" if "$ref" in spec else spec.get("type")
    if kind is None:
        return  # any JSON value
    python_type, name = KINDS[kind]
    if not isinstance(value, python_type) or (python_type is int and isinstance(value, bool)):
        raise Unprocessable(f"[{field_label(key)}]: must be {name}")
    if isinstance(value, list) and "type" in spec["items"]:
        for item in value:
            if item is not None:
                _check_type(key, item, spec["items"])

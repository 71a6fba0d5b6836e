"""Readers of optional fields of JSON request bodies, shared by every family (beside ``rest.py``, which decodes
the body): one wording of Gitea's 422 answers wherever an option is read."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import Unprocessable

__all__ = ["optional_flag", "optional_text"]


def _field(key: str) -> str:
    """The field as the 422 messages name it: the key with its first letter upper-cased."""
    return f"{key[:1].upper()}{key[1:]}"


def optional_text(options: Mapping[str, Any], key: str, max_length: int = 255) -> str:
    """A string option ('' when absent); 422 when it is not a string or too long."""
    value = options.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Unprocessable(f"[{_field(key)}]: must be a string")
    if len(value) > max_length:
        raise Unprocessable(f"[{_field(key)}]: MaxSize({max_length})")
    return value


def optional_flag(options: Mapping[str, Any], key: str, default: bool = False) -> bool:
    """A boolean option; 422 when present but not a boolean."""
    value = options.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise Unprocessable(f"[{_field(key)}]: must be a boolean")
    return value

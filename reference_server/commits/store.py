"""The commits family keeps no tables: history is read from the bare Git repositories themselves."""

from __future__ import annotations

__all__ = ["SCHEMA"]

SCHEMA = ""

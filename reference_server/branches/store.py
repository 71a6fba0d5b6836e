"""The branches family keeps no tables: branches are the refs of the bare Git repositories."""

from __future__ import annotations

__all__ = ["SCHEMA"]

SCHEMA = ""

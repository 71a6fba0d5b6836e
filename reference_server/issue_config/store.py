"""The issue configuration family keeps no tables: everything is read from the repository's Git data."""

from __future__ import annotations

__all__ = ["SCHEMA"]

SCHEMA = ""

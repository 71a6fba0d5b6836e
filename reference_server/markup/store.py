"""The markup family keeps no tables: rendering reads only the request (and account names for mentions)."""

from __future__ import annotations

__all__ = ["SCHEMA"]

SCHEMA = ""

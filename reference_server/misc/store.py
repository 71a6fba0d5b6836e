"""The misc family keeps no tables: version, settings and the API description derive from configuration."""

from __future__ import annotations

__all__ = ["SCHEMA"]

SCHEMA = ""

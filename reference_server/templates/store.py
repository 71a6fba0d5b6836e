"""The templates family keeps no tables: its data ships with the package (and the SPDX distribution)."""

from __future__ import annotations

__all__ = ["SCHEMA"]

SCHEMA = ""

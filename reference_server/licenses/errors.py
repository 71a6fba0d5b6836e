"""Named error conditions of the licenses family (reading a repository's licenses fails only as the repository does)."""

from __future__ import annotations

__all__: list[str] = []

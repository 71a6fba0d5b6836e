"""Named errors of the repository search (Gitea answers 422 with these messages)."""

from __future__ import annotations

from ..errors import Unprocessable

__all__ = ["InvalidSearch"]


class InvalidSearch(Unprocessable):
    """An unknown ``mode``, ``sort`` or ``order``: ``Invalid search mode: "x"`` and the like."""

"""Gitea's ``Milestone`` as the API shows it."""

from __future__ import annotations

from typing import Any

from ..timefmt import iso
from .models import NO_DEADLINE, Milestone

__all__ = ["milestone_to_api"]


def milestone_to_api(milestone: Milestone) -> dict[str, Any]:
    """``closed_at`` only while closed, ``due_on`` only for a real deadline (before the year 9999)."""
    return {
        "id": milestone.id,
        "title": milestone.name,
        "description": milestone.content,
        "state": milestone.state,
        "open_issues": milestone.open_issues,
        "closed_issues": milestone.closed_issues,
        "created_at": iso(milestone.created),
        "updated_at": iso(milestone.updated),
        "closed_at": iso(milestone.closed) if milestone.is_closed and milestone.closed else None,
        "due_on": iso(milestone.deadline) if milestone.deadline < NO_DEADLINE else None,
    }

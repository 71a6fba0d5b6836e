"""Named error conditions of reactions (Gitea's messages)."""

from __future__ import annotations

from ..errors import Forbidden

__all__ = ["ReactionForbidden", "ReactionNotAllowed"]


class ReactionNotAllowed(Forbidden):
    """Gitea's ``ErrForbiddenIssueReaction``: the content is not in the instance's ``[ui] REACTIONS``."""

    default_message = "not an allowed reaction"


class ReactionForbidden(Forbidden):
    """A locked issue takes reactions only from writers."""

    default_message = "no permission to change reaction"

"""Gitea's ``Reaction``: the reacting user (the ghost once the account is gone), the content, when."""

from __future__ import annotations

from typing import Any

from ..issues.presenters import poster_to_api
from ..timefmt import iso
from .models import Reaction

__all__ = ["reaction_to_api"]


def reaction_to_api(reaction: Reaction) -> dict[str, Any]:
    return {"user": poster_to_api(reaction.user_id), "content": reaction.content, "created_at": iso(reaction.created)}

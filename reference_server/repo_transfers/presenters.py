"""Gitea's ``RepoTransfer`` (the ``repo_transfer`` of a ``Repository`` while a transfer waits)."""

from __future__ import annotations

from typing import Any

from ..orgs.models import Team
from ..orgs.presenters import team_to_api
from ..orgs.store import team_by_id
from ..users.models import get_user
from ..users.presenters import user_to_api
from . import store

__all__ = ["repo_transfer_to_api"]


def repo_transfer_to_api(repo_id: int) -> dict[str, Any] | None:
    """The pending transfer of the repository (who started it, who receives it, the teams asked for), or None."""
    row = store.pending(repo_id)
    if row is None:
        return None
    teams = [team_by_id(team_id) for team_id in store.team_ids_of(row)]
    return {
        "doer": user_to_api(get_user(int(row["doer_id"]))),
        "recipient": user_to_api(get_user(int(row["recipient_id"]))),
        "teams": [team_to_api(Team.from_row(team), with_org=False) for team in teams if team is not None],
    }

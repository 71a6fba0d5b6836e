"""Gitea's ``Organization`` and ``Team`` as the API shows them; above the models, which never render."""

from __future__ import annotations

from typing import Any

from ..users.models import User, get_user
from ..users.presenters import avatar_url
from . import store
from .models import REPO_UNITS, Team

__all__ = ["org_to_api", "team_to_api"]


def org_to_api(org: User) -> dict[str, Any]:
    """Gitea's ``Organization``."""
    return {
        "id": org.id,
        "name": org.name,
        "full_name": org.full_name,
        "email": org.email,
        "avatar_url": avatar_url(org),
        "description": org.description,
        "website": org.website,
        "location": org.location,
        "visibility": org.visibility,
        "repo_admin_change_team_access": org.repo_admin_change_team_access,
        "username": org.name,
    }


def team_to_api(team: Team, *, with_org: bool) -> dict[str, Any]:
    """Gitea's ``Team``; ``organization`` is null where Gitea leaves it out (lists of an organization, edits)."""
    modes = {row["unit"]: row["access"] for row in store.units_of(team.id)}
    ordered = [unit for unit in REPO_UNITS if unit in modes]
    return {
        "id": team.id,
        "name": team.name,
        "description": team.description,
        "organization": org_to_api(get_user(team.org_id)) if with_org else None,
        "includes_all_repositories": team.includes_all_repositories,
        "permission": team.access,
        "units": ordered,
        "units_map": {unit: modes[unit] for unit in ordered},
        "can_create_org_repo": team.can_create_org_repo,
        "visibility": team.visibility,
    }

"""Gitea's ``TrackedTime`` (services/convert/issue.go ToTrackedTime): the issue in full, the user by name."""

from __future__ import annotations

from typing import Any

from ..db import Row
from ..issues.models import get_issue_by_id
from ..issues.presenters import issue_api
from ..repos.models import Repo
from ..timefmt import iso
from ..users.errors import UserNotFound
from ..users.models import get_user

__all__ = ["tracked_time_to_api"]


def tracked_time_to_api(row: Row, repo: Repo) -> dict[str, Any]:
    try:
        user_name = get_user(int(row["user_id"])).name
    except UserNotFound:
        user_name = ""
    return {
        "id": row["id"],
        "created": iso(int(row["created"])),
        "time": row["time"],
        "user_id": row["user_id"],
        "user_name": user_name,
        "issue_id": row["issue_id"],
        "issue": issue_api(repo, get_issue_by_id(int(row["issue_id"]))),
    }

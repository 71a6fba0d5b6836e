"""Deleting a user and what it leaves on disk: above the repositories and organizations families, whose
repositories and memberships go first."""

from __future__ import annotations

import contextlib
import sqlite3

from ..auth import Principal
from ..context import forge
from ..errors import Unprocessable
from ..events import AccountDeletedEvent
from ..orgs.models import leave_all_orgs, orgs_of_member
from ..repos.models import delete_repo, git_path_for, repos_of_owner
from . import store
from .errors import UserHasRepositories, UserNotFound
from .models import get_user_by_name

__all__ = ["delete_user", "remove_empty_owner_dir"]


def delete_user(name: str, *, purge: bool, doer: Principal) -> None:
    """Delete a user; refused (422) while it owns repositories or belongs to organizations, unless ``purge``."""
    user = get_user_by_name(name)
    if user.is_org:
        raise UserNotFound(f"user does not exist [name: {name}]")
    if user.id == doer.user_id:
        raise Unprocessable("you cannot delete yourself")
    owned = repos_of_owner(user.id)
    if owned and not purge:
        raise UserHasRepositories(f"user still has ownership of repositories [uid: {user.id}]")
    if orgs_of_member(user.id) and not purge:
        raise Unprocessable(f"user still has membership of organizations [uid: {user.id}]")
    for repo in owned:
        delete_repo(repo)
    with forge().db.transaction():
        forge().events.publish(AccountDeletedEvent(user.id, is_org=False))
        leave_all_orgs(user.id)
        try:
            store.delete_account(user.id)
        except sqlite3.IntegrityError as exc:
            raise Unprocessable(f"user is still referenced by other records [uid: {user.id}]") from exc


def remove_empty_owner_dir(event: AccountDeletedEvent) -> None:
    """An account that is going leaves no empty ``<data>/git/<owner>`` behind (its repositories went first)."""
    row = store.account_by_id(event.account_id)
    if row is None:
        return
    owner_dir = git_path_for(row["name"], "-").parent
    with contextlib.suppress(OSError):  # missing, or still holding something that is not ours to remove
        owner_dir.rmdir()

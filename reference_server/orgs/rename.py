"""Account rename (organizations by their owners, users by site administrators): the row, the old name's
redirect and the repositories' Git directories.

The account row, the redirect of the old name and a record of the pending directory move change in one
transaction; the Git directories move afterwards, and the record goes once they have. A crash between
the two leaves the record, and the next start (``finish_pending_moves``) completes the move, so no
repository is ever lost: its data is always either where the row says or where the record says.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

from .. import gitcache
from ..context import forge, now_seconds
from ..repos.models import Repo, repo_lock, repos_of_owner
from ..users import models as users
from ..users.errors import UserAlreadyExists
from . import store

__all__ = ["finish_pending_moves", "redirect_location", "rename_account"]

log = logging.getLogger(__name__)


def _git_root() -> Path:
    return forge().config.data_dir / "git"


def _validate_new_name(account: users.User, new_name: object) -> str:
    """Gitea's account name rules; the account's own name in another case is not "taken"."""
    try:
        return users.validate_account_name(new_name, "NewName")
    except UserAlreadyExists:
        if isinstance(new_name, str) and new_name.lower() == account.name.lower():
            return new_name
        raise


def rename_account(account: users.User, new_name: object) -> None:
    """Rename an account (who may is the route's rule); the same name is a no-op, a case-only change is
    allowed. Its repositories move with it and the old name redirects to the new one."""
    if new_name == account.name:
        return
    checked = _validate_new_name(account, new_name)
    old_lower, new_lower = account.name.lower(), checked.lower()
    owned = repos_of_owner(account.id)
    now = now_seconds()
    with _repo_locks(owned), forge().db.transaction():
        try:
            store.rename_account(account.id, checked, now)
        except sqlite3.IntegrityError as exc:
            raise UserAlreadyExists(f"user already exists [name: {checked}]") from exc
        store.delete_redirect(new_lower)
        if old_lower != new_lower:
            store.put_redirect(old_lower, account.id, now)
            if owned:
                store.record_move(account.id, old_lower, new_lower)
        moved = old_lower != new_lower and bool(owned)
    if moved:
        with _repo_locks(owned):
            _finish_move(account.id)


@contextlib.contextmanager
def _repo_locks(owned: list[Repo]) -> Iterator[None]:
    """Hold every repository's commit lock (by id) so no commit writes into a directory being moved."""
    with contextlib.ExitStack() as stack:
        for repo in sorted(owned, key=lambda item: item.id):
            stack.enter_context(repo_lock(repo))
        yield


def _finish_move(org_id: int) -> None:
    """Move the recorded old directory's repositories under the new name, then drop the record."""
    for row in store.pending_moves_of(org_id):
        _move_tree(_git_root() / row["old_lower"], _git_root() / row["new_lower"])
        with forge().db.transaction():
            store.finish_move(org_id)


def _move_tree(source: Path, target: Path) -> None:
    """Rename the whole directory when the target is free, else each repository into the existing target."""
    if not source.exists():
        return
    gitcache.forget(source)
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        source.rename(target)
        return
    for entry in sorted(source.iterdir()):
        destination = target / entry.name
        if destination.exists():
            stale = target / f".stale-{secrets.token_hex(8)}-{entry.name}"
            log.warning("moving aside %s, which no repository row owned, before moving %s in", destination, entry)
            destination.rename(stale)
        entry.rename(destination)
    with contextlib.suppress(OSError):
        source.rmdir()


def finish_pending_moves() -> None:
    """Complete directory moves a crash interrupted (called when the app starts)."""
    for row in store.pending_moves():
        log.info("completing the interrupted move of %s to %s", row["old_lower"], row["new_lower"])
        _finish_move(int(row["org_id"]))


def redirect_location(path: str, old_name: str, account: users.User, script_root: str, query: str) -> str:
    """Gitea's ``RedirectToUser`` target: the path with the first occurrence of the old name replaced."""
    new_path = path.replace(quote(old_name, safe=""), quote(account.name, safe=""), 1)
    location = f"{script_root}{new_path}"
    return f"{location}?{query}" if query else location

"""Blocking and unblocking (with what a block undoes in other families) and the user search.

Blocking follows Gitea's ``services/user/block.go``: nobody blocks themself, an organization or a member of
the blocking organization; a new block drops the follows both ways, both sides' stars and watches on the
other's repositories, their assignments on the other's issues, their collaborations on the other's
repositories and the repository transfers either offered the other, in one transaction with the block itself.
"""

from __future__ import annotations

from ..auth import Principal
from ..collaborators import store as collaborators_store
from ..context import forge, now_seconds
from ..issues import store as issues_store
from ..permissions import is_org_member, is_visible_to
from ..repo_transfers import store as transfers_store
from ..stars import store as stars_store
from ..users import store as users_store
from ..users.models import User, get_user, search_users
from .errors import CannotBlock, CannotUnblock

__all__ = ["block", "blocked_users", "is_blocking", "search", "unblock"]


def is_blocking(blocker: User, blockee: User) -> bool:
    """Whether ``blocker`` blocks ``blockee`` (a block on a site admin still counts here, as Gitea lists it)."""
    return users_store.has_blocking(blockee.id, (blocker.id,))


def _undo_between(one: User, other: User) -> None:
    """What a block undoes from ``one`` toward ``other`` (called both ways, inside the transaction)."""
    users_store.delete_follow(one.id, other.id)
    stars_store.unmark_owned_by("star", one.id, other.id)
    stars_store.unmark_owned_by("watch", one.id, other.id)
    issues_store.unassign_on_owner(one.id, other.id)
    collaborators_store.delete_on_owner(other.id, one.id)
    transfers_store.drop_pending_between(one.id, other.id)


def block(doer: Principal, blocker: User, blockee: User, note: str) -> None:
    """``blocker`` (the caller, or an organization it owns) blocks ``blockee``; 400 when Gitea refuses it."""
    if blockee.is_org:
        raise CannotBlock("cannot block an organization")
    refused = (
        blockee.id in (blocker.id, doer.user_id)
        or is_blocking(blocker, blockee)
        or (blocker.is_org and is_org_member(blockee.id, blocker.id))
    )
    if refused:
        raise CannotBlock()
    with forge().db.transaction():
        _undo_between(blocker, blockee)
        _undo_between(blockee, blocker)
        users_store.insert_blocking(blocker.id, blockee.id, note, now_seconds())


def unblock(doer: Principal, blocker: User, blockee: User) -> None:
    """Lift a block; 400 when there is none or the caller names itself."""
    if blockee.is_org:
        raise CannotBlock("cannot block an organization")
    if doer.user_id == blockee.id or not is_blocking(blocker, blockee):
        raise CannotUnblock()
    with forge().db.transaction():
        users_store.delete_blocking(blocker.id, blockee.id)


def blocked_users(blocker: User, limit: int, offset: int) -> tuple[list[User], int]:
    """One page of the accounts ``blocker`` blocks, oldest block first, and their number."""
    ids = users_store.blockee_ids(blocker.id, limit, offset)
    return [get_user(i) for i in ids], users_store.count_blockees(blocker.id)


def search(viewer: Principal | None, keyword: str, uid: int, limit: int, offset: int) -> tuple[list[User], int]:
    """One page of the users the viewer may see whose name or full name contains ``keyword`` (the e-mail too
    for a site admin), alphabetically, and their number; a ``public-only`` token sees public users only."""
    public_only = viewer is not None and "public-only" in viewer.scopes
    admin = viewer is not None and viewer.is_admin
    found = [
        user
        for user in search_users(keyword, uid=uid, with_email=admin)
        if (user.visibility == "public" if public_only else is_visible_to(user, viewer))
    ]
    return found[offset : offset + limit], len(found)

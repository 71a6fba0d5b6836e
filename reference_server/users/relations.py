"""Follows and blocks between accounts: the one place that answers "is this user blocked by that account?".

Every family that refuses a blocked user (stars and watches, collaborators, issues, comments, follows) asks
:func:`is_blocked` here, below them all. Gitea never counts a site administrator as blocked
(``IsUserBlockedBy``). What blocking undoes in other families (stars, watches, collaborations) is the
``people`` family's, which sits above them.
"""

from __future__ import annotations

from ..context import forge, now_seconds
from ..errors import Forbidden
from . import store
from .models import User, get_user

__all__ = [
    "BlockedUser",
    "count_followers",
    "count_following",
    "follow",
    "followers",
    "following",
    "is_blocked",
    "is_following",
    "refuse_if_blocked",
    "unfollow",
]


class BlockedUser(Forbidden):
    """Gitea's ``ErrBlockedUser``, answered 403 by the API."""

    default_message = "user is blocked"


def is_blocked(blockee: User, *blocker_ids: int) -> bool:
    """Whether any of ``blocker_ids`` blocks ``blockee``; never for a site administrator (as Gitea)."""
    if blockee.is_admin:
        return False
    return store.has_blocking(blockee.id, tuple(i for i in blocker_ids if i > 0))


def refuse_if_blocked(user_id: int, *blocker_ids: int) -> None:
    """403 ``user is blocked`` when any of ``blocker_ids`` blocks the account ``user_id`` (none for the
    Actions user, who has no account to block)."""
    if user_id <= 0:
        return
    if is_blocked(get_user(user_id), *blocker_ids):
        raise BlockedUser()


def follow(user: User, target: User) -> None:
    """Follow ``target``; following oneself or twice changes nothing, a block either way refuses (403)."""
    if user.id == target.id:
        return
    if is_blocked(user, target.id) or is_blocked(target, user.id):
        raise BlockedUser()
    with forge().db.transaction():
        store.insert_follow(user.id, target.id, now_seconds())


def unfollow(user_id: int, target_id: int) -> None:
    """Stop following (nothing to undo is no error)."""
    with forge().db.transaction():
        store.delete_follow(user_id, target_id)


def is_following(user_id: int, target_id: int) -> bool:
    """Whether ``user_id`` follows ``target_id``."""
    return store.is_following(user_id, target_id)


def count_followers(user_id: int) -> int:
    """Gitea's ``NumFollowers``."""
    return store.count_followers(user_id)


def count_following(user_id: int) -> int:
    """Gitea's ``NumFollowing``."""
    return store.count_following(user_id)


def followers(user: User) -> list[User]:
    """Every account following ``user``, newest follow first (who may see them is the caller's to filter)."""
    return [get_user(i) for i in store.follower_ids(user.id)]


def following(user: User) -> list[User]:
    """Every account ``user`` follows, newest follow first."""
    return [get_user(i) for i in store.following_ids(user.id)]

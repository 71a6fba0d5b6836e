"""Stars and watches: marking a repository, who marked it, and what an account marked as a viewer may see it.

Gitea watches a new repository for its creator and, for an organization's repository, for the members of the
teams that include every repository (``AUTO_WATCH_NEW_REPOS``, on by default); adding a repository to a team
makes the team's members watch it. ``on_repo_created`` and ``watch_for_team`` do the same here.
"""

from __future__ import annotations

import logging

from flask import has_request_context

from ..auth import Principal, optional_principal
from ..context import forge, now_seconds
from ..errors import Forbidden
from ..events import RepoCreatedEvent
from ..orgs import store as orgs_store
from ..permissions import permission
from ..repos.errors import RepoNotFound
from ..repos.models import Repo, get_repo_by_id
from ..users.models import User, get_user
from ..users.relations import refuse_if_blocked
from . import store
from .store import Kind

__all__ = [
    "is_marked",
    "mark",
    "marked_repos",
    "marking_users",
    "on_repo_created",
    "unmark",
    "unwatch_in_transaction",
    "watch_for_team",
]

log = logging.getLogger(__name__)


def mark(kind: Kind, user_id: int, repo: Repo) -> None:
    """Star or watch the repository (doing it twice changes nothing); the built-in Actions user of a job token
    has no account to keep a star or a watch (403)."""
    if user_id <= 0:
        raise Forbidden(f"the Actions user cannot {'star' if kind == 'star' else 'watch'} repositories")
    refuse_if_blocked(user_id, repo.owner_id)
    with forge().db.transaction():
        store.mark(kind, user_id, repo.id, now_seconds())


def unmark(kind: Kind, user_id: int, repo: Repo) -> None:
    """Unstar or unwatch the repository (nothing to undo is no error, as in Gitea)."""
    with forge().db.transaction():
        store.unmark(kind, user_id, repo.id)


def is_marked(kind: Kind, user_id: int, repo: Repo) -> bool:
    """Whether the account starred or watches the repository."""
    return store.has_mark(kind, user_id, repo.id)


def marking_users(kind: Kind, repo: Repo, limit: int, offset: int) -> tuple[list[User], int]:
    """One page of the stargazers or watchers (oldest first) and their total, Gitea's ``NumStars``/``NumWatches``."""
    ids = store.users_page(kind, repo.id, limit, offset)
    return [get_user(user_id) for user_id in ids], store.count_of_repo(kind, repo.id)


def marked_repos(
    kind: Kind, account: User, viewer: Principal | None, *, include_private: bool, limit: int, offset: int
) -> tuple[list[Repo], int]:
    """One page of the repositories the account starred or watches (newest first) and their total: private
    ones only when ``include_private`` (the account asking about itself), and only those the viewer may read."""
    visible: list[Repo] = []
    for repo_id in store.repo_ids_of_user(kind, account.id):
        try:
            repo = get_repo_by_id(repo_id)
        except RepoNotFound:
            continue
        if repo.private and not include_private:
            continue
        if permission(viewer, repo).can_read:
            visible.append(repo)
    return visible[offset : offset + limit], len(visible)


def watch_for_team(team_id: int, repo: Repo) -> None:
    """The team's members watch a repository the team was given (inside the caller's transaction)."""
    now = now_seconds()
    for user_id in orgs_store.team_member_ids(team_id):
        store.mark("watch", user_id, repo.id, now)


def unwatch_in_transaction(user_id: int, repo: Repo) -> None:
    """Stop a watch inside the caller's transaction (a member who lost access to the repository)."""
    store.unmark("watch", user_id, repo.id)


def _creator(event: RepoCreatedEvent, repo: Repo) -> int:
    if event.doer_id:
        return event.doer_id
    principal = optional_principal() if has_request_context() else None
    return principal.user_id if principal is not None and principal.user_id > 0 else repo.owner_id


def on_repo_created(event: RepoCreatedEvent) -> None:
    """The creator watches the new repository, and so do the members of an owning organization's teams that
    include every repository; a failure here is logged, never the creation's."""
    try:
        repo = get_repo_by_id(event.repo_id)
        with forge().db.transaction():
            creator = _creator(event, repo)
            if creator > 0:
                store.mark("watch", creator, repo.id, now_seconds())
            if repo.owner_is_org:
                for team_id in orgs_store.all_repository_team_ids(repo.owner_id):
                    watch_for_team(team_id, repo)
    except Exception:
        log.exception("stars: could not watch the new repository %s", event.repo_id)

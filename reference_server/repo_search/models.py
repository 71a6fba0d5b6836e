"""Gitea's ``SearchRepository`` over the repositories a caller may see.

Facts kept from Gitea (``routers/api/v1/repo/repo.go`` ``Search``, ``models/repo/search.go``): ``q`` is split
at commas and any part may match the name, a topic (``LIKE``) or, with ``includeDesc``, the description;
``topic`` makes the parts exact topic names; ``private`` (default true for signed-in callers, always false for
anonymous ones) only says whether private repositories may appear; ``uid`` keeps that account's repositories
and, unless ``exclusive``, those it collaborates on (``mode=collaborative``: only the latter); the default
order is by name, ``priority_owner_id`` puts one owner first, and booleans and numbers that do not parse are
taken as false and 0, as Go's form helpers do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..auth import Principal
from ..orgs import store as orgs_store
from ..permissions import collaborator_access, is_org_member, permission, team_permission_on
from ..repos import store as repos_store
from ..repos.models import Repo, all_repos
from ..stars import store as stars_store
from ..topics.models import topic_names
from .errors import InvalidSearch

__all__ = ["SearchOptions", "parse_options", "search"]

_TRUE = frozenset({"1", "t", "T", "TRUE", "true", "True"})
_FALSE = frozenset({"0", "f", "F", "FALSE", "false", "False"})
MODES = ("", "source", "fork", "mirror", "collaborative")
SORT_KEYS: dict[str, Callable[[Repo], Any]] = {
    "alpha": lambda repo: (repo.owner_name.lower(), repo.name.lower()),
    "created": lambda repo: (repo.created, repo.id),
    "updated": lambda repo: (repo.updated, repo.id),
    "size": lambda repo: (0, repo.id),
    "git_size": lambda repo: (0, repo.id),
    "lfs_size": lambda repo: (0, repo.id),
    "id": lambda repo: repo.id,
    "stars": lambda repo: (stars_store.count_of_repo("star", repo.id), repo.id),
    "forks": lambda repo: (repos_store.count_forks(repo.id), repo.id),
}


@dataclass(frozen=True)
class SearchOptions:
    """What the query asks for (Gitea's ``SearchRepoOptions``); ``None`` means "either"."""

    keyword: str = ""
    topic_only: bool = False
    include_description: bool = False
    owner_id: int = 0
    priority_owner_id: int = 0
    team_id: int = 0
    starred_by: int = 0
    private: bool = False
    is_private: bool | None = None
    template: bool | None = None
    archived: bool | None = None
    fork: bool | None = None
    mirror: bool | None = None
    collaborate: bool | None = None
    sort: str = ""
    descending: bool = False


def _bool(value: str | None) -> bool:
    """Go's ``ParseBool``, false when it does not parse (``ctx.FormBool``)."""
    return value in _TRUE if value is not None else False


def _optional_bool(value: str | None) -> bool | None:
    return None if value is None or value == "" else _bool(value)


def _int(value: str | None) -> int:
    """Go's ``ParseInt``, 0 when it does not parse (``ctx.FormInt64``)."""
    try:
        return int(value or "0")
    except ValueError:
        return 0


def _mode_filters(mode: str) -> dict[str, bool]:
    if mode not in MODES:
        raise InvalidSearch(f'Invalid search mode: "{mode}"')
    return {
        "source": {"fork": False, "mirror": False},
        "fork": {"fork": True},
        "mirror": {"mirror": True},
        "collaborative": {"mirror": False, "collaborate": True},
    }.get(mode, {})


def parse_options(args: Mapping[str, str], signed_in: bool) -> SearchOptions:
    """The query of ``GET /repos/search`` as Gitea reads it; 422 on an unknown mode, sort or order."""
    filters: dict[str, Any] = {"collaborate": False} if _bool(args.get("exclusive")) else {}
    filters.update(_mode_filters(args.get("mode", "")))
    sort, descending = args.get("sort", ""), False
    if sort:
        order = args.get("order") or "asc"
        if order not in ("asc", "desc"):
            raise InvalidSearch(f'Invalid sort order: "{order}"')
        if sort not in SORT_KEYS:
            raise InvalidSearch(f'Invalid sort mode: "{sort}"')
        descending = order == "desc"
    private_arg = args.get("private", "")
    return SearchOptions(
        keyword=args.get("q", "").strip(),
        topic_only=_bool(args.get("topic")),
        include_description=_bool(args.get("includeDesc")),
        owner_id=_int(args.get("uid")),
        priority_owner_id=_int(args.get("priority_owner_id")),
        team_id=_int(args.get("team_id")),
        starred_by=_int(args.get("starredBy")),
        private=signed_in and (private_arg == "" or _bool(private_arg)),
        is_private=_optional_bool(args.get("is_private")),
        template=_optional_bool(args.get("template")),
        archived=_optional_bool(args.get("archived")),
        sort=sort,
        descending=descending,
        **filters,
    )


def _matches_keyword(repo: Repo, options: SearchOptions) -> bool:
    parts = [part.strip().lower() for part in options.keyword.split(",") if part.strip()]
    if not parts:
        return True
    topics = topic_names(repo.id)
    for part in parts:
        if options.topic_only:
            if part in topics:
                return True
            continue
        if part in repo.name.lower() or any(part in topic for topic in topics):
            return True
        if options.include_description and part in repo.description.lower():
            return True
    return False


def _collaborates(user_id: int, repo: Repo) -> bool:
    """A repository the account does not own but reaches: a collaboration, a team, or a public repository of
    an organization it belongs to."""
    if repo.owner_id == user_id:
        return False
    if collaborator_access(user_id, repo) != "none" or team_permission_on(user_id, repo) != "none":
        return True
    return repo.owner_is_org and not repo.private and is_org_member(user_id, repo.owner_id)


def _in_owner_scope(repo: Repo, options: SearchOptions) -> bool:
    if options.owner_id <= 0:
        return True
    if options.collaborate is not True and repo.owner_id == options.owner_id:
        return True
    return options.collaborate is not False and _collaborates(options.owner_id, repo)


def _in_team(repo: Repo, team_id: int) -> bool:
    row = orgs_store.team_by_id(team_id)
    if row is None or row["org_id"] != repo.owner_id:
        return False
    return bool(row["includes_all_repositories"]) or orgs_store.has_team_repo(team_id, repo.id)


def _flag_filters(repo: Repo, options: SearchOptions) -> bool:
    wanted = (
        (options.is_private, repo.private),
        (options.template, repo.is_template),
        (options.archived, repo.archived),
        (options.fork, repo.fork_of is not None),
        (options.mirror, repo.is_mirror),
    )
    return all(want is None or want == have for want, have in wanted)


def _selected(repo: Repo, options: SearchOptions, viewer: Principal | None) -> bool:
    if repo.private and not options.private:
        return False
    if not _flag_filters(repo, options) or not _in_owner_scope(repo, options):
        return False
    if options.team_id > 0 and not _in_team(repo, options.team_id):
        return False
    if options.starred_by > 0 and not stars_store.has_mark("star", options.starred_by, repo.id):
        return False
    return _matches_keyword(repo, options) and permission(viewer, repo).can_read


def search(options: SearchOptions, viewer: Principal | None, limit: int, offset: int) -> tuple[list[Repo], int]:
    """One page of the repositories found, in the asked order, and how many were found."""
    found = [repo for repo in all_repos() if _selected(repo, options, viewer)]
    if options.sort:
        found.sort(key=SORT_KEYS[options.sort], reverse=options.descending)
    else:
        found.sort(key=lambda repo: (repo.name.lower(), repo.id))
    if options.priority_owner_id > 0:
        found.sort(key=lambda repo: repo.owner_id != options.priority_owner_id)
    return found[offset : offset + limit], len(found)

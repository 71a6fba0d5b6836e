"""``GET /repos/issues/search`` as Gitea 1.27 answers it (``routers/api/v1/repo/issue.go`` SearchIssues).

The repositories searched are the public ones and, for a signed-in caller, the private ones it can read (a
``public-only`` token: public ones only); ``owner`` narrows them to that account's repositories (400 when it
does not exist), ``team`` to a team of that organization (400 without ``owner`` or for an unknown team).
Label and milestone names that exist nowhere are dropped, so a filter of unknown names filters nothing. The
caller-relative filters (created, assigned, mentioned, review_requested, reviewed) need a signed-in caller;
newest first; ``priority_repo_id`` is read and ignored, as Gitea's indexer does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from werkzeug.datastructures import MultiDict

from ..auth import Principal
from ..errors import BadRequest
from ..issues import models as issues
from ..issues import store as issues_store
from ..labels.models import labels_of_issue
from ..notifications import store as notifications_store
from ..orgs import store as orgs_store
from ..permissions import permission
from ..pulls import store as pulls_store
from ..repos.models import Repo, all_repos
from ..timefmt import parse_query_time
from ..users import models as users

__all__ = ["SearchFound", "search"]

REVIEW_DECISIONS = (1, 2, 3)
"""Review types that are a review given (approve, comment, reject), not a pending one or a request."""


@dataclass(frozen=True)
class SearchFound:
    """One issue found, with its repository (to render it)."""

    repo: Repo
    issue: issues.Issue


def _flag(args: MultiDict[str, str], name: str) -> bool:
    return args.get(name, "").strip().lower() in ("1", "t", "true")


def _repos(args: MultiDict[str, str], viewer: Principal | None) -> list[Repo]:
    owner_name = args.get("owner", "")
    team_name = args.get("team", "")
    owner = users.find_account(owner_name) if owner_name else None
    if owner_name and owner is None:
        raise BadRequest(f"user does not exist [uid: 0, name: {owner_name}]")
    if team_name and owner is None:
        raise BadRequest("Owner organisation is required for filtering on team")
    team = orgs_store.team_by_name(owner.id, team_name) if owner is not None and team_name else None
    if team_name and team is None:
        raise BadRequest(f"team does not exist [org_id: {owner.id if owner else 0}, team_id: 0, name: {team_name}]")
    found = []
    for repo in all_repos():
        if owner is not None and repo.owner_id != owner.id:
            continue
        if team is not None and not (
            team["includes_all_repositories"] or orgs_store.has_team_repo(team["id"], repo.id)
        ):
            continue
        if permission(viewer, repo).can_read:
            found.append(repo)
    return found


def _caller_filters(args: MultiDict[str, str], viewer: Principal | None) -> list[Callable[[issues.Issue], bool]]:
    """The filters relative to the signed-in caller (ignored for an anonymous one, as Gitea)."""
    if viewer is None:
        return []
    me = viewer.user_id
    checks: list[Callable[[issues.Issue], bool]] = []
    if _flag(args, "created"):
        checks.append(lambda issue: issue.poster_id == me)
    if _flag(args, "assigned"):
        checks.append(lambda issue: me in issues_store.assignee_ids(issue.id))
    if _flag(args, "mentioned"):
        mentioned = set(notifications_store.mentioned_issue_ids(me))
        checks.append(lambda issue: issue.id in mentioned)
    if _flag(args, "review_requested"):
        checks.append(lambda issue: issue.is_pull and me in pulls_store.requested_reviewer_ids(issue.id))
    if _flag(args, "reviewed"):
        checks.append(
            lambda issue: (
                issue.is_pull
                and any(int(row["type"]) in REVIEW_DECISIONS for row in pulls_store.reviews_of(issue.id, me))
            )
        )
    return checks


def _label_filter(args: MultiDict[str, str], repos: list[Repo]) -> Callable[[issues.Issue], bool] | None:
    """Issues with any of the named labels; None when no named label exists (Gitea drops unknown names)."""
    names = {name.strip() for name in args.get("labels", "").split(",") if name.strip()}
    if not names:
        return None

    def has_label(issue: issues.Issue) -> bool:
        return any(label.name in names for label in labels_of_issue(issue.id))

    exists = any(has_label(issue) for repo in repos for issue in _issues_of(repo, "all", None, ""))
    return has_label if exists else None


def _issues_of(repo: Repo, state: str, is_pull: bool | None, keyword: str) -> list[issues.Issue]:
    rows, _ = issues_store.issue_rows(
        repo.id, state=state, is_pull=is_pull, keyword=keyword, ids=None, limit=-1, offset=0
    )
    return [issues.Issue.from_row(row) for row in rows]


def search(
    args: MultiDict[str, str], viewer: Principal | None, limit: int, offset: int
) -> tuple[list[SearchFound], int]:
    """One page of the issues and pulls found, newest first, and how many were found."""
    since = parse_query_time(args.get("since", ""))
    before = parse_query_time(args.get("before", ""))
    state = args.get("state", "open")
    state = state if state in ("closed", "all") else "open"
    is_pull = {"issues": False, "pulls": True}.get(args.get("type", ""))
    keyword = args.get("q", "").strip().replace("\x00", "")
    repos = _repos(args, viewer)
    checks = _caller_filters(args, viewer)
    labelled = _label_filter(args, repos)
    if labelled is not None:
        checks.append(labelled)
    if since is not None:
        checks.append(lambda issue: issue.updated >= since)
    if before is not None:
        checks.append(lambda issue: issue.updated <= before)
    found = [
        SearchFound(repo, issue)
        for repo in repos
        for issue in _issues_of(repo, state, is_pull, keyword)
        if all(check(issue) for check in checks)
    ]
    found.sort(key=lambda item: (item.issue.created, item.issue.id), reverse=True)
    return found[offset : offset + limit], len(found)

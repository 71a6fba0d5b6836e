"""Issues on a board: placing an issue in a column, moving it to another column (with a position),
taking it off the board, and listing a column's issues as the caller may see them.

An issue is on at most one column of a board. A repository's board takes only that repository's issues;
a user's or organization's board takes issues of any repository of that owner (Gitea refuses others in
``IssueAssignOrRemoveProject``). The reference answers 422 for an issue out of the board's reach.
Issue ids in paths are global ids (``Issue.id``), not per-repository numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..auth import optional_principal
from ..context import forge
from ..issues.errors import IssueNotFound
from ..issues.models import Issue, get_issue_by_id
from ..repos import models as repos
from ..repos.errors import RepoNotFound
from . import store
from .columns import Column, get_column
from .errors import ColumnNotFound, InvalidProjectOption, IssueNotOnBoard, IssueOutOfReach
from .models import Project
from .scopes import Scope, can_read_repo

__all__ = ["add_issue", "column_issues", "move_issue", "remove_issue", "visible_issue"]

INT64 = (-(2**63), 2**63 - 1)


def visible_issue(issue_id: int) -> tuple[Issue, repos.Repo]:
    """The issue with this global id and its repository, if the caller may read it (404 otherwise: an
    issue the caller cannot see does not exist for it)."""
    try:
        issue = get_issue_by_id(issue_id)
        repo = repos.get_repo_by_id(issue.repo_id)
    except (IssueNotFound, RepoNotFound):
        raise IssueNotFound(f"issue does not exist [id: {issue_id}]") from None
    if not can_read_repo(optional_principal(), repo):
        raise IssueNotFound(f"issue does not exist [id: {issue_id}]")
    return issue, repo


def _within_reach(scope: Scope, issue: Issue, repo: repos.Repo) -> None:
    if scope.repo is not None:
        if issue.repo_id != scope.repo.id:
            raise IssueOutOfReach("issue's repository is not the same as project's repository")
    elif repo.owner_id != scope.owner.id:
        raise IssueOutOfReach("issue's repository does not belong to the project's owner")


def add_issue(scope: Scope, project: Project, column: Column, issue_id: int) -> None:
    """Put the issue on the board in this column (at its end), or move it there if already on the board."""
    issue, repo = visible_issue(issue_id)
    _within_reach(scope, issue, repo)
    with forge().db.transaction():
        sorting = store.next_card_sorting(column.id)
        card = store.card_of(project.id, issue.id)
        if card is None:
            store.insert_card(
                project_id=project.id, column_id=column.id, issue_id=issue.id, repo_id=issue.repo_id, sorting=sorting
            )
        elif card["column_id"] != column.id:
            store.place_card(card["id"], column.id, sorting)


def remove_issue(project: Project, column: Column, issue_id: int) -> None:
    """Take the issue off the board through the column it is in (404 through any other column)."""
    issue, _repo = visible_issue(issue_id)
    with forge().db.transaction():
        card = store.card_of(project.id, issue.id)
        if card is None or card["column_id"] != column.id:
            raise IssueNotFound(f"issue {issue.id} is not in the column {column.id}")
        store.delete_card(card["id"])


def _int64(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and INT64[0] <= value <= INT64[1]


def _move_option(options: Mapping[str, Any]) -> tuple[int, int | None]:
    column_id = options.get("column_id")
    if column_id in (None, 0):
        raise InvalidProjectOption("[ColumnID]: Required")
    if not _int64(column_id):
        raise InvalidProjectOption("[ColumnID]: must be a 64-bit integer")
    sorting = options.get("sorting")
    if sorting is not None and not _int64(sorting):
        raise InvalidProjectOption("[Sorting]: must be a 64-bit integer")
    return int(column_id), sorting


def move_issue(project: Project, issue_id: int, options: Mapping[str, Any]) -> None:
    """``MoveProjectIssueOption``: to ``column_id`` of this board (422 for any other), at ``sorting`` or
    at the end of the column when omitted; the issue must already be on the board (422)."""
    column_id, sorting = _move_option(options)
    issue, _repo = visible_issue(issue_id)
    try:
        column = get_column(project, column_id)
    except ColumnNotFound:
        raise InvalidProjectOption(f"column {column_id} is not a column of the project") from None
    with forge().db.transaction():
        card = store.card_of(project.id, issue.id)
        if card is None:
            raise IssueNotOnBoard(f"issue {issue.id} is not in the project")
        position = store.next_card_sorting(column.id) if sorting is None else sorting
        if card["column_id"] == column.id and sorting is None:
            return
        store.place_card(card["id"], column.id, position)


def column_issues(column: Column, limit: int, offset: int) -> tuple[list[tuple[Issue, repos.Repo]], int]:
    """A page of the column's issues the caller may see, in board order, and how many it may see."""
    viewer = optional_principal()
    readable: dict[int, repos.Repo | None] = {}
    visible: list[tuple[Issue, repos.Repo]] = []
    for card in store.cards_of_column(column.id):
        repo_id = card["repo_id"]
        if repo_id not in readable:
            try:
                repo = repos.get_repo_by_id(repo_id)
                readable[repo_id] = repo if can_read_repo(viewer, repo) else None
            except RepoNotFound:
                readable[repo_id] = None
        found = readable[repo_id]
        if found is None:
            continue
        try:
            visible.append((get_issue_by_id(card["issue_id"]), found))
        except IssueNotFound:
            continue
    return visible[offset : offset + limit], len(visible)

"""Project boards: creation (with the template's columns), listing, editing, closing and deletion. Columns
live in :mod:`.columns`, the issues on them in :mod:`.cards`, Gitea's ``Project`` in :mod:`.presenters`.

Every board has exactly one default column from its creation on: the template's ``Backlog`` for
``basic_kanban`` and ``bug_triage`` (as Gitea creates them), else ``Uncategorized`` (the column Gitea
creates on first need; the reference creates it eagerly so every board looks the same at once).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..auth import Principal
from ..context import forge, now_seconds
from ..db import Row
from ..events import AccountDeletedEvent, IssueDeletedEvent, RepoDeletedEvent
from . import store
from .errors import InvalidProjectOption, ProjectClosed, ProjectNotFound
from .scopes import KIND_NUMBERS, Scope

__all__ = [
    "MAX_TITLE",
    "Project",
    "create_project",
    "delete_project",
    "edit_project",
    "get_project",
    "list_projects",
    "on_account_deleted",
    "on_issue_deleted",
    "on_repo_deleted",
    "require_open",
    "text_option",
    "title_option",
]

MAX_TITLE = 100
TEMPLATE_TYPES = ("none", "basic_kanban", "bug_triage")
CARD_TYPES = ("text_only", "images_and_text")
KIND_NAMES = {number: name for name, number in KIND_NUMBERS.items()}
TEMPLATE_COLUMNS: dict[str, tuple[str, ...]] = {
    "none": ("Uncategorized",),
    "basic_kanban": ("Backlog", "To Do", "In Progress", "Done"),
    "bug_triage": ("Backlog", "Needs Triage", "High Priority", "Low Priority", "Closed"),
}
"""The columns a new board starts with, the first being its default column."""


@dataclass(frozen=True)
class Project:
    """A board row: ``owner_id`` for a user's or organization's board, ``repo_id`` for a repository's."""

    id: int
    owner_id: int
    repo_id: int
    kind: str
    title: str
    description: str
    creator_id: int
    is_closed: bool
    template_type: str
    card_type: str
    created: int
    updated: int
    closed: int

    @classmethod
    def from_row(cls, row: Row) -> Project:
        return cls(
            id=row["id"],
            owner_id=row["owner_id"],
            repo_id=row["repo_id"],
            kind=KIND_NAMES.get(row["type"], "individual"),
            title=row["title"],
            description=row["description"],
            creator_id=row["creator_id"],
            is_closed=bool(row["is_closed"]),
            template_type=TEMPLATE_TYPES[row["template_type"]],
            card_type=CARD_TYPES[row["card_type"]],
            created=row["created"],
            updated=row["updated"],
            closed=row["closed"],
        )

    @property
    def state(self) -> str:
        return "closed" if self.is_closed else "open"


# -- validation --------------------------------------------------------------------------------------


def text_option(options: Mapping[str, Any], key: str) -> str | None:
    """A string field, None when absent or null; 422 when it is not a string."""
    value = options.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidProjectOption(f"[{key[:1].upper()}{key[1:]}]: must be a string")
    return value


def title_option(options: Mapping[str, Any], *, required: bool) -> str | None:
    """``title`` trimmed: required on creation, and never empty when given (Gitea's ``TrimSpace;Required``)."""
    if "title" not in options and not required:
        return None
    title = (text_option(options, "title") or "").strip()
    if not title:
        raise InvalidProjectOption("[Title]: Required")
    if len(title) > MAX_TITLE:
        raise InvalidProjectOption(f"[Title]: MaxSize({MAX_TITLE})")
    return title


def _choice(options: Mapping[str, Any], key: str, allowed: tuple[str, ...]) -> int | None:
    """The index of an enumerated string option (empty means the first), None when absent."""
    value = text_option(options, key)
    if value is None:
        return None
    if value == "":
        return 0
    if value not in allowed:
        raise InvalidProjectOption(f"invalid {key} {value!r}: must be one of {', '.join(allowed)}")
    return allowed.index(value)


# -- operations ----------------------------------------------------------------------------------------


def get_project(scope: Scope, project_id: int) -> Project:
    """The board with this id in this scope: another scope's board reads as not found (404)."""
    row = store.project_by_id(project_id)
    if row is None or row["repo_id"] != scope.repo_id or row["owner_id"] != scope.owner_id:
        raise ProjectNotFound(f"project does not exist [id: {project_id}]")
    return Project.from_row(row)


def require_open(project: Project) -> None:
    """A closed board is read-only for its columns and cards (403, as Gitea)."""
    if project.is_closed:
        raise ProjectClosed()


def list_projects(scope: Scope, state: str, limit: int, offset: int) -> tuple[list[Project], int]:
    """``state`` open (default; also any unknown value, as Gitea's issue-state filter), closed or all."""
    wanted = state if state in ("open", "closed", "all") else "open"
    rows, total = store.projects_page(scope.owner_id, scope.repo_id, wanted, limit, offset)
    return [Project.from_row(row) for row in rows], total


def create_project(scope: Scope, options: Mapping[str, Any], principal: Principal) -> Project:
    """A board with the template's columns (the first one the default), all in one transaction."""
    title = title_option(options, required=True)
    description = text_option(options, "description") or ""
    template = _choice(options, "template_type", TEMPLATE_TYPES) or 0
    card_type = _choice(options, "card_type", CARD_TYPES) or 0
    now = now_seconds()
    with forge().db.transaction():
        project_id = store.insert_project(
            {
                "owner_id": scope.owner_id,
                "repo_id": scope.repo_id,
                "type": KIND_NUMBERS[scope.kind],
                "title": title,
                "description": description,
                "creator_id": principal.user_id,
                "template_type": template,
                "card_type": card_type,
                "created": now,
                "updated": now,
            }
        )
        for sorting, column_title in enumerate(TEMPLATE_COLUMNS[TEMPLATE_TYPES[template]]):
            store.insert_column(
                project_id=project_id,
                title=column_title,
                color="",
                sorting=sorting,
                is_default=sorting == 0,
                creator_id=principal.user_id,
                now=now,
            )
    return get_project(scope, project_id)


def edit_project(scope: Scope, project: Project, options: Mapping[str, Any]) -> Project:
    """``EditProjectOption``: title, description, card type and state (open/closed; 422 otherwise)."""
    fields: dict[str, Any] = {}
    title = title_option(options, required=False)
    if title is not None:
        fields["title"] = title
    description = text_option(options, "description")
    if description is not None:
        fields["description"] = description
    card_type = _choice(options, "card_type", CARD_TYPES)
    if card_type is not None:
        fields["card_type"] = card_type
    state = options.get("state")
    if state is not None and state not in ("open", "closed"):
        raise InvalidProjectOption("state must be 'open' or 'closed'")
    now = now_seconds()
    if state is not None and (state == "closed") != project.is_closed:
        fields["is_closed"] = int(state == "closed")
        fields["closed"] = now if state == "closed" else 0
    with forge().db.transaction():
        store.update_project(project.id, fields, now)
    return get_project(scope, project.id)


def delete_project(project: Project) -> None:
    """The board goes with its columns and cards; the issues stay."""
    with forge().db.transaction():
        store.delete_project(project.id)


def on_repo_deleted(event: RepoDeletedEvent) -> None:
    """A deleted repository takes its boards and its issues' cards on other boards."""
    with forge().db.transaction():
        for project_id in store.project_ids_of_repo(event.repo_id):
            store.delete_project(project_id)
        store.delete_cards_of_repo(event.repo_id)


def on_issue_deleted(event: IssueDeletedEvent) -> None:
    """A deleted issue leaves the boards it was on."""
    store.delete_cards_of_issue(event.issue_id)


def on_account_deleted(event: AccountDeletedEvent) -> None:
    """A deleted user or organization takes its own boards."""
    for project_id in store.project_ids_of_owner(event.account_id):
        store.delete_project(project_id)

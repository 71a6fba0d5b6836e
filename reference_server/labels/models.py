"""Labels of repositories and of organizations: Gitea's rules for names, colours and archiving (the ``Label`` shape
is :mod:`.presenters`). An organization's labels may be put on the issues of its repositories, never on another
owner's (Gitea leaves such a label out, as it leaves out a label that does not exist)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..bodies import optional_flag, optional_text
from ..context import forge, now_seconds
from ..db import Row
from ..errors import Unprocessable
from ..events import AccountDeletedEvent, IssueDeletedEvent, RepoDeletedEvent
from ..templates import models as templates
from . import store
from .errors import InvalidLabelColor, LabelNotFound

if TYPE_CHECKING:
    from ..repos.models import Repo

__all__ = [
    "Label",
    "LabelOwner",
    "clear_issue_labels",
    "copy_labels",
    "create_label",
    "delete_label",
    "edit_label",
    "get_label",
    "initialize_labels",
    "labels_named",
    "labels_of_issue",
    "list_labels",
    "normalize_color",
    "on_account_deleted",
    "on_issue_deleted",
    "on_repo_deleted",
    "prepare_table",
    "remove_issue_label",
    "set_issue_labels",
]

MAX_LABEL_NAME = 255
MAX_LABEL_DESCRIPTION = 1024
_COLOR = re.compile(r"^#?(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})$")


@dataclass(frozen=True)
class LabelOwner:
    """Whose labels: a repository's (``repo_id``) or an organization's (``org_id``)."""

    repo_id: int = 0
    org_id: int = 0

    @classmethod
    def repository(cls, repo_id: int) -> LabelOwner:
        return cls(repo_id=repo_id)

    @classmethod
    def organization(cls, org_id: int) -> LabelOwner:
        return cls(org_id=org_id)

    def missing(self, label_id: int) -> LabelNotFound:
        """Gitea's ``ErrRepoLabelNotExist`` or ``ErrOrgLabelNotExist`` message."""
        if self.org_id:
            return LabelNotFound(f"label does not exist [label_id: {label_id}, org_id: {self.org_id}]")
        return LabelNotFound(f"label does not exist [repo_id: {self.repo_id}, label_id: {label_id}]")


@dataclass(frozen=True)
class Label:
    """A label of a repository or an organization; ``color`` keeps its ``#`` (the API shows it without)."""

    id: int
    repo_id: int
    org_id: int
    name: str
    exclusive: bool
    color: str
    description: str
    archived_unix: int

    @property
    def is_archived(self) -> bool:
        return self.archived_unix > 0

    @property
    def exclusive_scope(self) -> str:
        """Gitea's ``ExclusiveScope``: for an exclusive ``scope/name`` label the part before the last ``/``
        (an issue carries one label of a scope at a time); empty otherwise."""
        cut = self.name.rfind("/")
        if not self.exclusive or cut <= 0 or cut == len(self.name) - 1:
            return ""
        return self.name[:cut]


def _from_row(row: Row) -> Label:
    return Label(
        id=row["id"],
        repo_id=row["repo_id"],
        org_id=row["org_id"],
        name=row["name"],
        exclusive=bool(row["exclusive"]),
        color=row["color"],
        description=row["description"],
        archived_unix=row["archived_unix"],
    )


def normalize_color(value: object) -> str:
    """Gitea's colour rule: ``#rgb`` or ``#rrggbb``, the ``#`` optional; stored as lower-case ``#rrggbb``."""
    if not isinstance(value, str) or not _COLOR.match(value):
        raise InvalidLabelColor(f"bad color code: {value}")
    digits = value.lstrip("#").lower()
    if len(digits) == 3:
        digits = "".join(digit * 2 for digit in digits)
    return "#" + digits


def _name(options: Mapping[str, Any]) -> str:
    name = optional_text(options, "name", MAX_LABEL_NAME)
    if not name.strip():
        raise Unprocessable("[Name]: Required")
    return name


def _archived_unix(archived: bool, current: int = 0) -> int:
    if not archived:
        return 0
    return current or now_seconds()


def get_label(owner: LabelOwner, label_id: int) -> Label:
    """A label of this repository or organization; 404 when missing or another owner's."""
    row = store.label_of(owner.repo_id, owner.org_id, label_id)
    if row is None:
        raise owner.missing(label_id)
    return _from_row(row)


def list_labels(owner: LabelOwner, limit: int, offset: int) -> tuple[list[Label], int]:
    """One page of the repository's or organization's labels by name (Gitea's default order), and the total."""
    rows = store.labels_of(owner.repo_id, owner.org_id, limit, offset)
    return [_from_row(row) for row in rows], store.count_labels(owner.repo_id, owner.org_id)


def create_label(owner: LabelOwner, options: Mapping[str, Any]) -> Label:
    """A new label (``CreateLabelOption``); 422 on a missing name or colour or a bad colour."""
    name = _name(options)
    color = normalize_color(options.get("color"))
    description = optional_text(options, "description", MAX_LABEL_DESCRIPTION)
    exclusive = optional_flag(options, "exclusive")
    archived = optional_flag(options, "is_archived")
    label_id = store.insert_label(
        repo_id=owner.repo_id,
        org_id=owner.org_id,
        name=name,
        exclusive=exclusive,
        color=color,
        description=description,
        archived_unix=_archived_unix(archived),
        now=now_seconds(),
    )
    return get_label(owner, label_id)


def edit_label(owner: LabelOwner, label_id: int, options: Mapping[str, Any]) -> Label:
    """Change the fields given (``EditLabelOption``); as Gitea, an absent ``is_archived`` unarchives."""
    label = get_label(owner, label_id)
    name = _name(options) if "name" in options and options["name"] is not None else label.name
    color = normalize_color(options["color"]) if options.get("color") is not None else label.color
    description = (
        optional_text(options, "description", MAX_LABEL_DESCRIPTION)
        if options.get("description") is not None
        else label.description
    )
    exclusive = optional_flag(options, "exclusive", label.exclusive)
    archived = optional_flag(options, "is_archived")
    store.update_label(
        label.id,
        name=name,
        exclusive=exclusive,
        color=color,
        description=description,
        archived_unix=_archived_unix(archived, label.archived_unix),
        now=now_seconds(),
    )
    return get_label(owner, label.id)


def delete_label(owner: LabelOwner, label_id: int) -> None:
    """Delete a label of this repository or organization (and its places on issues); 404 when it is not one."""
    with forge().db.transaction():
        if store.delete_label(owner.repo_id, owner.org_id, label_id) == 0:
            raise owner.missing(label_id)


def initialize_labels(repo_id: int, template_name: str) -> None:
    """Create a label template's labels in a new repository (inside the caller's transaction)."""
    now = now_seconds()
    with forge().db.transaction():
        for label in templates.label_template(template_name):
            store.insert_label(
                repo_id=repo_id,
                name=label.name,
                exclusive=label.exclusive,
                color="#" + label.color,
                description=label.description,
                archived_unix=0,
                now=now,
            )


def on_issue_deleted(event: IssueDeletedEvent) -> None:
    """A deleted issue loses its labels."""
    store.clear_issue_labels(event.issue_id)


def on_repo_deleted(event: RepoDeletedEvent) -> None:
    """A deleted repository's labels go with it."""
    store.delete_labels_of(event.repo_id, 0)


def on_account_deleted(event: AccountDeletedEvent) -> None:
    """A deleted organization's labels go with it (off the issues of other owners' repositories too)."""
    if event.is_org:
        store.delete_labels_of(0, event.account_id)


def prepare_table() -> None:
    """Give an existing label table the organization column (at start, before any request)."""
    store.upgrade(forge().db)


def copy_labels(from_repo_id: int, to_repo_id: int) -> None:
    """Give a repository generated from a template the template's labels (inside the caller's transaction)."""
    now = now_seconds()
    for row in store.labels_of(from_repo_id, 0, store.count_labels(from_repo_id, 0), 0):
        store.insert_label(
            repo_id=to_repo_id,
            name=row["name"],
            exclusive=bool(row["exclusive"]),
            color=row["color"],
            description=row["description"],
            archived_unix=row["archived_unix"],
            now=now,
        )


# -- labels on issues ----------------------------------------------------------------------------


def labels_of_issue(issue_id: int) -> list[Label]:
    """An issue's (or pull request's) labels, by name."""
    return [_from_row(row) for row in store.labels_of_issue(issue_id)]


def labels_named(repo: Repo, items: object) -> list[Label]:
    """The labels an ``IssueLabelsOption`` names, by id or by name (Gitea takes both), of the repository or of its
    owner organization; items naming no such label (another organization's) are left out, as Gitea leaves them."""
    if not isinstance(items, list):
        raise Unprocessable("[Labels]: must be a list of label ids or names")
    found: dict[int, Label] = {}
    names = [item for item in items if isinstance(item, str)]
    for row in store.labels_usable_by_names(repo.id, repo.owner_id, names) if names else []:
        found[row["id"]] = _from_row(row)
    for item in items:
        if isinstance(item, int) and not isinstance(item, bool):
            by_id = store.label_usable_in(repo.id, repo.owner_id, item)
            if by_id is not None:
                found[by_id["id"]] = _from_row(by_id)
        elif not isinstance(item, str):
            raise Unprocessable("[Labels]: must be a list of label ids or names")
    return list(found.values())


def _one_per_scope(labels: list[Label]) -> list[Label]:
    """Gitea's ``RemoveDuplicateExclusiveLabels``: of several labels of one exclusive scope the last wins."""
    return [
        label
        for index, label in enumerate(labels)
        if not label.exclusive_scope
        or all(other.exclusive_scope != label.exclusive_scope for other in labels[index + 1 :])
    ]


def set_issue_labels(issue_id: int, labels: list[Label], *, replace: bool) -> list[Label]:
    """Add ``labels`` to the issue's (or make them its only ones); answers its labels then. An exclusive scoped
    label takes the issue's other labels of its scope off, as Gitea does."""
    with forge().db.transaction():
        if replace:
            store.clear_issue_labels(issue_id)
        for label in _one_per_scope(labels):
            store.add_issue_label(issue_id, label.id)
            if label.exclusive_scope:
                for other in labels_of_issue(issue_id):
                    if other.id != label.id and other.exclusive_scope == label.exclusive_scope:
                        store.remove_issue_label(issue_id, other.id)
    return labels_of_issue(issue_id)


def remove_issue_label(repo: Repo, issue_id: int, label_id: int) -> None:
    """Take one label off the issue; 422 when neither the repository nor its organization has such a label."""
    if store.label_usable_in(repo.id, repo.owner_id, label_id) is None:
        raise Unprocessable(f"label does not exist [label_id: {label_id}]")
    with forge().db.transaction():
        store.remove_issue_label(issue_id, label_id)


def clear_issue_labels(issue_id: int) -> None:
    with forge().db.transaction():
        store.clear_issue_labels(issue_id)

"""Columns of a board: creation (appended), editing (title, colour, sorting), reordering every column at
once, the default column, deletion (its issues move to the default column), and ``ProjectColumn``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..auth import Principal
from ..context import forge, now_seconds
from ..db import Row
from . import store
from .errors import ColumnNotFound, InvalidProjectOption
from .models import Project, text_option, title_option

__all__ = [
    "Column",
    "create_column",
    "delete_column",
    "edit_column",
    "get_column",
    "list_columns",
    "move_columns",
    "set_default",
]

MAX_COLUMNS = 20
"""Gitea's ``maxProjectColumns``."""
SORTING_RANGE = (-128, 127)
"""Gitea keeps a column's ``sorting`` in an ``int8``."""
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass(frozen=True)
class Column:
    """A column of a board; ``color`` is kept as given (``#RRGGBB`` or empty)."""

    id: int
    project_id: int
    title: str
    color: str
    sorting: int
    is_default: bool
    creator_id: int
    created: int
    updated: int

    @classmethod
    def from_row(cls, row: Row) -> Column:
        return cls(
            id=row["id"],
            project_id=row["project_id"],
            title=row["title"],
            color=row["color"],
            sorting=row["sorting"],
            is_default=bool(row["is_default"]),
            creator_id=row["creator_id"],
            created=row["created"],
            updated=row["updated"],
        )


def _color(options: Mapping[str, Any]) -> str | None:
    color = text_option(options, "color")
    if color is None or color == "":
        return color
    if not _COLOR.match(color):
        raise InvalidProjectOption(f"bad color code: {color}")
    return color


def _sorting(options: Mapping[str, Any]) -> int | None:
    value = options.get("sorting")
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidProjectOption("[Sorting]: must be an integer")
    low, high = SORTING_RANGE
    if not low <= value <= high:
        raise InvalidProjectOption(f"sorting must be between {low} and {high}")
    return value


def get_column(project: Project, column_id: int) -> Column:
    """The column of this board (a column of another board reads as not found, 404)."""
    row = store.column_in_project(project.id, column_id)
    if row is None:
        raise ColumnNotFound(f"project column does not exist [id: {column_id}]")
    return Column.from_row(row)


def list_columns(project: Project, limit: int, offset: int) -> tuple[list[Column], int]:
    """A page of the board's columns, left to right (``sorting``, then creation)."""
    rows, total = store.columns_page(project.id, limit, offset)
    return [Column.from_row(row) for row in rows], total


def create_column(project: Project, options: Mapping[str, Any], principal: Principal) -> Column:
    """A column appended after the others (``sorting`` = highest + 1); at most 20 per board."""
    title = title_option(options, required=True)
    color = _color(options) or ""
    with forge().db.transaction():
        count, top = store.column_stats(project.id)
        if count >= MAX_COLUMNS:
            raise InvalidProjectOption(f"a project has at most {MAX_COLUMNS} columns")
        column_id = store.insert_column(
            project_id=project.id,
            title=title or "",
            color=color,
            sorting=min(top + 1, SORTING_RANGE[1]),
            is_default=False,
            creator_id=principal.user_id,
            now=now_seconds(),
        )
    return get_column(project, column_id)


def edit_column(project: Project, column: Column, options: Mapping[str, Any]) -> Column:
    """``EditProjectColumnOption``: title (never empty), colour, ``sorting`` in -128..127."""
    fields: dict[str, Any] = {}
    title = title_option(options, required=False)
    if title is not None:
        fields["title"] = title
    color = _color(options)
    if color is not None:
        fields["color"] = color
    sorting = _sorting(options)
    if sorting is not None:
        fields["sorting"] = sorting
    with forge().db.transaction():
        store.update_column(column.id, fields, now_seconds())
    return get_column(project, column.id)


def _column_ids(options: Mapping[str, Any]) -> list[int]:
    value = options.get("column_ids")
    if value is None or value == []:
        raise InvalidProjectOption("[ColumnIDs]: Required")
    if not isinstance(value, list) or not all(isinstance(item, int) and not isinstance(item, bool) for item in value):
        raise InvalidProjectOption("[ColumnIDs]: must be a list of column ids")
    return value


def move_columns(project: Project, options: Mapping[str, Any]) -> None:
    """``MoveProjectColumnsOption``: every column id of the board exactly once, in the new order (422 else)."""
    wanted = _column_ids(options)
    with forge().db.transaction():
        known = {row["id"] for row in store.columns_of_project(project.id)}
        if len(wanted) != len(known) or set(wanted) != known:
            raise InvalidProjectOption("column_ids must list every column of the project exactly once")
        store.set_column_order(wanted, now_seconds())


def set_default(project: Project, column: Column) -> None:
    """Make the column the board's only default column."""
    with forge().db.transaction():
        store.set_default_column(project.id, column.id, now_seconds())


def delete_column(project: Project, column: Column) -> None:
    """Delete a column; its issues go to the end of the default column, which itself cannot go (422)."""
    if column.is_default:
        raise InvalidProjectOption("the default column cannot be deleted: make another column the default first")
    with forge().db.transaction():
        default = store.default_column(project.id)
        if default is None:
            raise ColumnNotFound("the project has no default column")
        sorting = store.next_card_sorting(default["id"])
        for offset, card in enumerate(store.cards_of_column(column.id)):
            store.place_card(card["id"], default["id"], sorting + offset)
        store.delete_column(column.id)

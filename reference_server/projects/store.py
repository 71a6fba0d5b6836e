"""Tables and SQL of project boards: ``project`` (a board of a user, organization or repository),
``project_column`` (its columns, ordered by ``sorting``, one of them the default) and ``project_issue``
(an issue's card: at most one per board, always on one column of that board).

``project_issue.repo_id`` repeats the issue's repository so a deleted repository's cards go without
reading the issue table (which the issues family empties first). Times are integer Unix seconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS project (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id INTEGER NOT NULL DEFAULT 0,
    repo_id INTEGER NOT NULL DEFAULT 0,
    type INTEGER NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    creator_id INTEGER NOT NULL,
    is_closed INTEGER NOT NULL DEFAULT 0,
    template_type INTEGER NOT NULL DEFAULT 0,
    card_type INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    closed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS project_by_owner ON project (owner_id, repo_id, is_closed, id);
CREATE INDEX IF NOT EXISTS project_by_repo ON project (repo_id, is_closed, id);
CREATE TABLE IF NOT EXISTS project_column (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id INTEGER NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    color TEXT NOT NULL DEFAULT '',
    sorting INTEGER NOT NULL DEFAULT 0,
    is_default INTEGER NOT NULL DEFAULT 0,
    creator_id INTEGER NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS project_column_by_project ON project_column (project_id, sorting, id);
CREATE TABLE IF NOT EXISTS project_issue (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id INTEGER NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    column_id INTEGER NOT NULL REFERENCES project_column (id),
    issue_id INTEGER NOT NULL,
    repo_id INTEGER NOT NULL,
    sorting INTEGER NOT NULL DEFAULT 0,
    UNIQUE (project_id, issue_id)
);
CREATE INDEX IF NOT EXISTS project_issue_by_column ON project_issue (column_id, sorting, id);
CREATE INDEX IF NOT EXISTS project_issue_by_repo ON project_issue (repo_id);
"""


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


# -- boards ------------------------------------------------------------------------------------------


def insert_project(values: dict[str, Any]) -> int:
    columns = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    sql = f"INSERT INTO project ({columns}) VALUES ({marks})"  # noqa: S608 - column names from the model
    cursor = forge().db.execute(sql, tuple(values.values()))
    return int(cursor.lastrowid or 0)


def project_by_id(project_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM project WHERE id = ?", (project_id,))


def _scope_filter(owner_id: int, repo_id: int, state: str) -> tuple[str, tuple[object, ...]]:
    where = "owner_id = ? AND repo_id = ?"
    params: tuple[object, ...] = (owner_id, repo_id)
    if state in ("open", "closed"):
        where += " AND is_closed = ?"
        params += (int(state == "closed"),)
    return where, params


def projects_page(owner_id: int, repo_id: int, state: str, limit: int, offset: int) -> tuple[list[Row], int]:
    """One page of a scope's boards, newest first (so paging is stable), and the total."""
    where, params = _scope_filter(owner_id, repo_id, state)
    rows = forge().db.all(
        f"SELECT * FROM project WHERE {where} ORDER BY id DESC LIMIT ? OFFSET ?",  # noqa: S608 - fixed filter
        (*params, limit, offset),
    )
    total = forge().db.scalar(f"SELECT COUNT(*) FROM project WHERE {where}", params)  # noqa: S608 - fixed filter
    return rows, _int(total)


def update_project(project_id: int, fields: dict[str, Any], now: int) -> None:
    assignments = ", ".join(f"{name} = ?" for name in fields)
    prefix = f"{assignments}, " if assignments else ""
    forge().db.execute(
        f"UPDATE project SET {prefix}updated = ? WHERE id = ?",  # noqa: S608 - column names from the model
        (*fields.values(), now, project_id),
    )


def delete_project(project_id: int) -> None:
    """A board with its cards and columns (cards first: they reference the columns)."""
    db = forge().db
    db.execute("DELETE FROM project_issue WHERE project_id = ?", (project_id,))
    db.execute("DELETE FROM project_column WHERE project_id = ?", (project_id,))
    db.execute("DELETE FROM project WHERE id = ?", (project_id,))


def project_ids_of_repo(repo_id: int) -> list[int]:
    return [row["id"] for row in forge().db.all("SELECT id FROM project WHERE repo_id = ?", (repo_id,))]


def project_ids_of_owner(owner_id: int) -> list[int]:
    return [
        row["id"] for row in forge().db.all("SELECT id FROM project WHERE owner_id = ? AND repo_id = 0", (owner_id,))
    ]


def delete_cards_of_issue(issue_id: int) -> None:
    forge().db.execute("DELETE FROM project_issue WHERE issue_id = ?", (issue_id,))


def delete_cards_of_repo(repo_id: int) -> None:
    forge().db.execute("DELETE FROM project_issue WHERE repo_id = ?", (repo_id,))


# -- columns -----------------------------------------------------------------------------------------


def insert_column(
    *, project_id: int, title: str, color: str, sorting: int, is_default: bool, creator_id: int, now: int
) -> int:
    cursor = forge().db.execute(
        "INSERT INTO project_column (project_id, title, color, sorting, is_default, creator_id, created, updated)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (project_id, title, color, sorting, int(is_default), creator_id, now, now),
    )
    return int(cursor.lastrowid or 0)


def column_in_project(project_id: int, column_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM project_column WHERE project_id = ? AND id = ?", (project_id, column_id))


def columns_of_project(project_id: int) -> list[Row]:
    return forge().db.all("SELECT * FROM project_column WHERE project_id = ? ORDER BY sorting, id", (project_id,))


def columns_page(project_id: int, limit: int, offset: int) -> tuple[list[Row], int]:
    rows = forge().db.all(
        "SELECT * FROM project_column WHERE project_id = ? ORDER BY sorting, id LIMIT ? OFFSET ?",
        (project_id, limit, offset),
    )
    total = forge().db.scalar("SELECT COUNT(*) FROM project_column WHERE project_id = ?", (project_id,))
    return rows, _int(total)


def column_stats(project_id: int) -> tuple[int, int]:
    """The number of columns of the board and their highest ``sorting`` (-1 without columns)."""
    row = forge().db.one(
        "SELECT COUNT(*) AS n, COALESCE(MAX(sorting), -1) AS top FROM project_column WHERE project_id = ?",
        (project_id,),
    )
    return (row["n"], row["top"]) if row is not None else (0, -1)


def default_column(project_id: int) -> Row | None:
    return forge().db.one(
        "SELECT * FROM project_column WHERE project_id = ? AND is_default = 1 ORDER BY id LIMIT 1", (project_id,)
    )


def update_column(column_id: int, fields: dict[str, Any], now: int) -> None:
    assignments = ", ".join(f"{name} = ?" for name in fields)
    prefix = f"{assignments}, " if assignments else ""
    forge().db.execute(
        f"UPDATE project_column SET {prefix}updated = ? WHERE id = ?",  # noqa: S608 - column names from the model
        (*fields.values(), now, column_id),
    )


def set_default_column(project_id: int, column_id: int, now: int) -> None:
    forge().db.execute(
        "UPDATE project_column SET is_default = (id = ?), updated = ? WHERE project_id = ?",
        (column_id, now, project_id),
    )


def set_column_order(ordered_ids: Sequence[int], now: int) -> None:
    for position, column_id in enumerate(ordered_ids):
        forge().db.execute(
            "UPDATE project_column SET sorting = ?, updated = ? WHERE id = ?", (position, now, column_id)
        )


def delete_column(column_id: int) -> None:
    forge().db.execute("DELETE FROM project_column WHERE id = ?", (column_id,))


# -- cards ---------------------------------------------------------------------------------------------


def projects_of_issue(issue_id: int) -> list[Row]:
    """The boards holding a card of the issue, by id."""
    return forge().db.all(
        "SELECT p.* FROM project p JOIN project_issue pi ON pi.project_id = p.id WHERE pi.issue_id = ? ORDER BY p.id",
        (issue_id,),
    )


def card_of(project_id: int, issue_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM project_issue WHERE project_id = ? AND issue_id = ?", (project_id, issue_id))


def next_card_sorting(column_id: int) -> int:
    value = forge().db.scalar(
        "SELECT COALESCE(MAX(sorting), -1) + 1 FROM project_issue WHERE column_id = ?", (column_id,)
    )
    return _int(value)


def insert_card(*, project_id: int, column_id: int, issue_id: int, repo_id: int, sorting: int) -> None:
    forge().db.execute(
        "INSERT INTO project_issue (project_id, column_id, issue_id, repo_id, sorting) VALUES (?, ?, ?, ?, ?)",
        (project_id, column_id, issue_id, repo_id, sorting),
    )


def place_card(card_id: int, column_id: int, sorting: int) -> None:
    forge().db.execute(
        "UPDATE project_issue SET column_id = ?, sorting = ? WHERE id = ?", (column_id, sorting, card_id)
    )


def delete_card(card_id: int) -> None:
    forge().db.execute("DELETE FROM project_issue WHERE id = ?", (card_id,))


def cards_of_column(column_id: int) -> list[Row]:
    """A column's cards in board order: ``sorting`` ascending, equal values newest first (as Gitea)."""
    return forge().db.all("SELECT * FROM project_issue WHERE column_id = ? ORDER BY sorting, id DESC", (column_id,))


def cards_of_project(project_id: int) -> list[Row]:
    return forge().db.all("SELECT * FROM project_issue WHERE project_id = ?", (project_id,))

"""Actions storage: the schema of the family and the SQL of workflows, runs and jobs.

The SQL of runners, registration tokens and tasks is in :mod:`runner_store` (same family, split for size).
Times are integer Unix seconds; JSON columns hold small lists and objects.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS action_workflow_state (
    repo_id INTEGER NOT NULL,
    workflow_id TEXT NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0,
    updated INTEGER NOT NULL,
    PRIMARY KEY (repo_id, workflow_id)
);
CREATE TABLE IF NOT EXISTS action_run_index (
    repo_id INTEGER PRIMARY KEY,
    max_index INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS action_run (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id INTEGER NOT NULL,
    owner_id INTEGER NOT NULL,
    run_number INTEGER NOT NULL,
    workflow_id TEXT NOT NULL,
    workflow_path TEXT NOT NULL,
    name TEXT NOT NULL,
    display_title TEXT NOT NULL,
    event TEXT NOT NULL,
    ref TEXT NOT NULL,
    head_sha TEXT NOT NULL,
    trigger_user_id INTEGER NOT NULL,
    event_payload TEXT NOT NULL,
    inputs TEXT,
    status INTEGER NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    started INTEGER NOT NULL DEFAULT 0,
    stopped INTEGER NOT NULL DEFAULT 0,
    UNIQUE (repo_id, run_number)
);
CREATE INDEX IF NOT EXISTS action_run_repo ON action_run (repo_id, id);
CREATE TABLE IF NOT EXISTS action_run_job (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id INTEGER NOT NULL REFERENCES action_run (id) ON DELETE CASCADE,
    repo_id INTEGER NOT NULL,
    owner_id INTEGER NOT NULL,
    job_key TEXT NOT NULL,
    name TEXT NOT NULL,
    labels TEXT NOT NULL,
    needs TEXT NOT NULL,
    condition TEXT NOT NULL,
    steps TEXT NOT NULL,
    workflow_payload BLOB NOT NULL,
    status INTEGER NOT NULL,
    task_id INTEGER NOT NULL DEFAULT 0,
    attempt INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    started INTEGER NOT NULL DEFAULT 0,
    stopped INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS action_run_job_run ON action_run_job (run_id, id);
CREATE INDEX IF NOT EXISTS action_run_job_queue ON action_run_job (status, task_id, id);
CREATE TABLE IF NOT EXISTS action_runner (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    uuid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    owner_id INTEGER NOT NULL,
    repo_id INTEGER NOT NULL,
    token_hash TEXT NOT NULL,
    version TEXT NOT NULL DEFAULT '',
    labels TEXT NOT NULL,
    ephemeral INTEGER NOT NULL DEFAULT 0,
    disabled INTEGER NOT NULL DEFAULT 0,
    last_online INTEGER NOT NULL DEFAULT 0,
    last_active INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    deleted INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS action_runner_scope ON action_runner (owner_id, repo_id);
CREATE TABLE IF NOT EXISTS action_runner_token (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    token_hash TEXT NOT NULL UNIQUE,
    sealed_token TEXT NOT NULL DEFAULT '',
    owner_id INTEGER NOT NULL,
    repo_id INTEGER NOT NULL,
    is_active INTEGER NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS action_runner_token_scope ON action_runner_token (owner_id, repo_id, id);
CREATE TABLE IF NOT EXISTS action_tasks_version (
    owner_id INTEGER NOT NULL,
    repo_id INTEGER NOT NULL,
    version INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    PRIMARY KEY (owner_id, repo_id)
);
CREATE TABLE IF NOT EXISTS action_task (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id INTEGER NOT NULL REFERENCES action_run_job (id) ON DELETE CASCADE,
    run_id INTEGER NOT NULL,
    repo_id INTEGER NOT NULL,
    owner_id INTEGER NOT NULL,
    runner_id INTEGER NOT NULL,
    attempt INTEGER NOT NULL,
    status INTEGER NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    token_last_eight TEXT NOT NULL,
    log_length INTEGER NOT NULL DEFAULT 0,
    log_closed INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    started INTEGER NOT NULL DEFAULT 0,
    stopped INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS action_task_repo ON action_task (repo_id, id);
CREATE INDEX IF NOT EXISTS action_task_runner ON action_task (runner_id, status);
CREATE TABLE IF NOT EXISTS action_task_step (
    task_id INTEGER NOT NULL REFERENCES action_task (id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    name TEXT NOT NULL,
    status INTEGER NOT NULL,
    log_index INTEGER NOT NULL DEFAULT 0,
    log_length INTEGER NOT NULL DEFAULT 0,
    started INTEGER NOT NULL DEFAULT 0,
    stopped INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (task_id, idx)
);
CREATE TABLE IF NOT EXISTS action_task_output (
    task_id INTEGER NOT NULL REFERENCES action_task (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (task_id, key)
);
CREATE TABLE IF NOT EXISTS action_task_log (
    task_id INTEGER NOT NULL REFERENCES action_task (id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    content TEXT NOT NULL,
    PRIMARY KEY (task_id, line)
);
"""


def count(sql: str, params: Iterable[object] = ()) -> int:
    """The integer a one-value query answers (0 when it answers nothing)."""
    row = forge().db.one(sql, params)
    return 0 if row is None or row[0] is None else int(row[0])


# --- workflow state -------------------------------------------------------------------------------


def disabled_workflows(repo_id: int) -> set[str]:
    rows = forge().db.all(
        "SELECT workflow_id FROM action_workflow_state WHERE repo_id = ? AND disabled = 1", (repo_id,)
    )
    return {str(row["workflow_id"]) for row in rows}


def set_workflow_disabled(repo_id: int, workflow_id: str, disabled: bool, now: int) -> None:
    forge().db.execute(
        "INSERT INTO action_workflow_state (repo_id, workflow_id, disabled, updated) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (repo_id, workflow_id) DO UPDATE SET disabled = excluded.disabled, updated = excluded.updated",
        (repo_id, workflow_id, int(disabled), now),
    )


# --- runs -----------------------------------------------------------------------------------------


def next_run_number(repo_id: int) -> int:
    """The repository's next run number; numbers of deleted runs are never given out again."""
    db = forge().db
    db.execute(
        "INSERT INTO action_run_index (repo_id, max_index) VALUES (?, 1) "
        "ON CONFLICT (repo_id) DO UPDATE SET max_index = max_index + 1",
        (repo_id,),
    )
    return count("SELECT max_index FROM action_run_index WHERE repo_id = ?", (repo_id,)) or 1


def insert_run(fields: dict[str, Any]) -> int:
    values = dict(fields)
    values["event_payload"] = json.dumps(values["event_payload"])
    values["inputs"] = None if values.get("inputs") is None else json.dumps(values["inputs"])
    columns = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    cursor = forge().db.execute(f"INSERT INTO action_run ({columns}) VALUES ({marks})", values.values())  # noqa: S608
    return int(cursor.lastrowid or 0)


def run_row(run_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM action_run WHERE id = ?", (run_id,))


def update_run_state(run_id: int, status: int, started: int, stopped: int, now: int) -> None:
    forge().db.execute(
        "UPDATE action_run SET status = ?, started = ?, stopped = ?, updated = ? WHERE id = ?",
        (status, started, stopped, now, run_id),
    )


def delete_run(run_id: int) -> None:
    """Delete a run; its jobs, tasks, steps, outputs and logs go with it (ON DELETE CASCADE)."""
    forge().db.execute("DELETE FROM action_run WHERE id = ?", (run_id,))


def run_ids_of_repo(repo_id: int) -> list[int]:
    return [int(r["id"]) for r in forge().db.all("SELECT id FROM action_run WHERE repo_id = ?", (repo_id,))]


def delete_repo_state(repo_id: int) -> None:
    """Forget everything of a deleted repository except runners (deleted by :mod:`runner_store`)."""
    db = forge().db
    db.execute("DELETE FROM action_run WHERE repo_id = ?", (repo_id,))
    db.execute("DELETE FROM action_run_index WHERE repo_id = ?", (repo_id,))
    db.execute("DELETE FROM action_workflow_state WHERE repo_id = ?", (repo_id,))
    db.execute("DELETE FROM action_tasks_version WHERE repo_id = ?", (repo_id,))


def _where(filters: Sequence[tuple[str, Sequence[object]]]) -> tuple[str, list[object]]:
    clauses = [clause for clause, _ in filters]
    params = [value for _, values in filters for value in values]
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


def _marks(values: Sequence[object]) -> str:
    return ", ".join("?" for _ in values)


def _scope_filters(repo_id: int | None, owner_id: int | None) -> list[tuple[str, Sequence[object]]]:
    """Rows of one repository, of the repositories of one owner, or (both None) of the whole instance."""
    filters: list[tuple[str, Sequence[object]]] = []
    if repo_id is not None:
        filters.append(("repo_id = ?", (repo_id,)))
    if owner_id is not None:
        filters.append(("owner_id = ?", (owner_id,)))
    return filters


def list_runs(
    *,
    repo_id: int | None = None,
    owner_id: int | None = None,
    statuses: Sequence[int] = (),
    event: str | None = None,
    ref: str | None = None,
    actor_id: int | None = None,
    head_sha: str | None = None,
    workflow_id: str | None = None,
    limit: int,
    offset: int,
) -> tuple[list[Row], int]:
    """A page of runs in a scope, newest first, and the total count matching the filters."""
    filters = _scope_filters(repo_id, owner_id)
    if statuses:
        filters.append((f"status IN ({_marks(statuses)})", tuple(statuses)))
    if event:
        filters.append(("event = ?", (event,)))
    if ref:
        filters.append(("ref = ?", (ref,)))
    if actor_id is not None:
        filters.append(("trigger_user_id = ?", (actor_id,)))
    if head_sha:
        filters.append(("head_sha = ?", (head_sha,)))
    if workflow_id is not None:
        filters.append(("workflow_id = ?", (workflow_id,)))
    where, params = _where(filters)
    db = forge().db
    total = count(f"SELECT COUNT(*) FROM action_run{where}", params)  # noqa: S608
    rows = db.all(f"SELECT * FROM action_run{where} ORDER BY id DESC LIMIT ? OFFSET ?", [*params, limit, offset])  # noqa: S608
    return rows, total


# --- jobs -----------------------------------------------------------------------------------------


def insert_job(fields: dict[str, Any]) -> int:
    values = dict(fields)
    for key in ("labels", "needs", "steps"):
        values[key] = json.dumps(list(values[key]))
    columns = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    cursor = forge().db.execute(f"INSERT INTO action_run_job ({columns}) VALUES ({marks})", values.values())  # noqa: S608
    return int(cursor.lastrowid or 0)


def job_row(job_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM action_run_job WHERE id = ?", (job_id,))


def job_rows_of_run(run_id: int) -> list[Row]:
    return forge().db.all("SELECT * FROM action_run_job WHERE run_id = ? ORDER BY id", (run_id,))


def job_statuses_of_run(run_id: int) -> list[int]:
    """Only the statuses of a run's jobs: what its aggregate status needs, without parsing whole jobs."""
    return [
        int(row["status"]) for row in forge().db.all("SELECT status FROM action_run_job WHERE run_id = ?", (run_id,))
    ]


def update_job_state(job_id: int, status: int, started: int, stopped: int, now: int) -> None:
    forge().db.execute(
        "UPDATE action_run_job SET status = ?, started = ?, stopped = ?, updated = ? WHERE id = ?",
        (status, started, stopped, now, job_id),
    )


def assign_job(job_id: int, task_id: int, now: int) -> bool:
    """Hand a waiting job to a task; False when another runner took it first."""
    cursor = forge().db.execute(
        "UPDATE action_run_job SET task_id = ?, status = 6, attempt = attempt + 1, updated = ?, "
        "started = CASE WHEN started = 0 THEN ? ELSE started END WHERE id = ? AND task_id = 0 AND status = 5",
        (task_id, now, now, job_id),
    )
    return cursor.rowcount == 1


def waiting_job_rows(scope_filter: str, scope_params: Iterable[object]) -> list[Row]:
    """Waiting, unassigned jobs in a runner's scope, oldest first."""
    where = f" AND {scope_filter}" if scope_filter else ""
    return forge().db.all(
        f"SELECT * FROM action_run_job WHERE status = 5 AND task_id = 0{where} ORDER BY id",  # noqa: S608
        tuple(scope_params),
    )


def list_jobs(
    *,
    repo_id: int | None = None,
    owner_id: int | None = None,
    run_id: int | None = None,
    statuses: Sequence[int] = (),
    newest_first: bool = False,
    limit: int,
    offset: int,
) -> tuple[list[Row], int]:
    """A page of jobs in a scope (or of one run), oldest first unless asked otherwise, and their total count."""
    filters = _scope_filters(repo_id, owner_id)
    if run_id is not None:
        filters.append(("run_id = ?", (run_id,)))
    if statuses:
        filters.append((f"status IN ({_marks(statuses)})", tuple(statuses)))
    where, params = _where(filters)
    db = forge().db
    total = count(f"SELECT COUNT(*) FROM action_run_job{where}", params)  # noqa: S608
    order = "DESC" if newest_first else "ASC"
    rows = db.all(
        f"SELECT * FROM action_run_job{where} ORDER BY id {order} LIMIT ? OFFSET ?",  # noqa: S608
        [*params, limit, offset],
    )
    return rows, total

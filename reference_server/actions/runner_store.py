"""Actions storage, second half: runners, registration tokens, tasks versions, tasks, steps, outputs, logs."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from ..context import forge
from ..db import Row
from .store import count

__all__: list[str] = []


# --- registration tokens --------------------------------------------------------------------------


def latest_registration_token(owner_id: int, repo_id: int) -> Row | None:
    return forge().db.one(
        "SELECT * FROM action_runner_token WHERE owner_id = ? AND repo_id = ? ORDER BY id DESC LIMIT 1",
        (owner_id, repo_id),
    )


def registration_token_row(token_hash: str) -> Row | None:
    return forge().db.one("SELECT * FROM action_runner_token WHERE token_hash = ?", (token_hash,))


def deactivate_registration_tokens(owner_id: int, repo_id: int, now: int) -> int:
    cursor = forge().db.execute(
        "UPDATE action_runner_token SET is_active = 0, updated = ? "
        "WHERE owner_id = ? AND repo_id = ? AND is_active = 1",
        (now, owner_id, repo_id),
    )
    return cursor.rowcount


def insert_registration_token(token_hash: str, sealed_token: str, owner_id: int, repo_id: int, now: int) -> None:
    forge().db.execute(
        "INSERT INTO action_runner_token (token_hash, sealed_token, owner_id, repo_id, is_active, created, updated) "
        "VALUES (?, ?, ?, ?, 1, ?, ?)",
        (token_hash, sealed_token, owner_id, repo_id, now, now),
    )


def registration_token_columns() -> set[str]:
    return {str(row["name"]) for row in forge().db.all("PRAGMA table_info(action_runner_token)")}


def rename_plaintext_token_column() -> None:
    """Databases made before tokens were sealed kept the plaintext in ``token``."""
    forge().db.execute("ALTER TABLE action_runner_token RENAME COLUMN token TO token_hash")
    forge().db.execute("ALTER TABLE action_runner_token ADD COLUMN sealed_token TEXT NOT NULL DEFAULT ''")


def unsealed_registration_tokens() -> list[Row]:
    return forge().db.all("SELECT id, token_hash FROM action_runner_token WHERE sealed_token = ''")


def seal_registration_token(token_id: int, token_hash: str, sealed_token: str) -> None:
    forge().db.execute(
        "UPDATE action_runner_token SET token_hash = ?, sealed_token = ? WHERE id = ?",
        (token_hash, sealed_token, token_id),
    )


# --- runners --------------------------------------------------------------------------------------


def insert_runner(
    *,
    uuid: str,
    name: str,
    owner_id: int,
    repo_id: int,
    token_hash: str,
    version: str,
    labels: Sequence[str],
    ephemeral: bool,
    now: int,
) -> int:
    cursor = forge().db.execute(
        "INSERT INTO action_runner (uuid, name, owner_id, repo_id, token_hash, version, labels, ephemeral, "
        "last_online, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (uuid, name, owner_id, repo_id, token_hash, version, json.dumps(list(labels)), int(ephemeral), now, now, now),
    )
    return int(cursor.lastrowid or 0)


def runner_by_uuid(uuid: str) -> Row | None:
    """A runner by its UUID, deleted ones included (the caller decides about the grace period)."""
    return forge().db.one("SELECT * FROM action_runner WHERE uuid = ?", (uuid,))


def runner_by_id(runner_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM action_runner WHERE id = ?", (runner_id,))


def declare_runner(runner_id: int, version: str, labels: Sequence[str], now: int) -> None:
    forge().db.execute(
        "UPDATE action_runner SET version = ?, labels = ?, updated = ? WHERE id = ?",
        (version, json.dumps(list(labels)), now, runner_id),
    )


def touch_runner(runner_id: int, now: int, *, active: bool) -> None:
    """Record that the runner called in (``last_online``), and worked on a task (``last_active``)."""
    if active:
        forge().db.execute(
            "UPDATE action_runner SET last_online = ?, last_active = ? WHERE id = ?", (now, now, runner_id)
        )
    else:
        forge().db.execute("UPDATE action_runner SET last_online = ? WHERE id = ?", (now, runner_id))


def mark_runner_deleted(runner_id: int, now: int) -> None:
    forge().db.execute("UPDATE action_runner SET deleted = ?, updated = ? WHERE id = ?", (now, now, runner_id))


def set_runner_disabled(runner_id: int, disabled: bool, now: int) -> None:
    forge().db.execute(
        "UPDATE action_runner SET disabled = ?, updated = ? WHERE id = ?", (int(disabled), now, runner_id)
    )


def delete_runners_of_repo(repo_id: int, now: int) -> None:
    forge().db.execute(
        "UPDATE action_runner SET deleted = ?, updated = ? WHERE repo_id = ? AND deleted = 0", (now, now, repo_id)
    )
    forge().db.execute("DELETE FROM action_runner_token WHERE repo_id = ?", (repo_id,))


def delete_runners_of_owner(owner_id: int) -> None:
    """Drop a deleted user's or organization's runners, registration tokens and task-version counter."""
    forge().db.execute("DELETE FROM action_runner WHERE owner_id = ? AND repo_id = 0", (owner_id,))
    forge().db.execute("DELETE FROM action_runner_token WHERE owner_id = ? AND repo_id = 0", (owner_id,))
    forge().db.execute("DELETE FROM action_tasks_version WHERE owner_id = ? AND repo_id = 0", (owner_id,))


def runner_has_task(runner_id: int) -> Row | None:
    """The runner's most recent task, if it ever got one (ephemeral runners get exactly one)."""
    return forge().db.one("SELECT * FROM action_task WHERE runner_id = ? ORDER BY id DESC LIMIT 1", (runner_id,))


# --- tasks versions -------------------------------------------------------------------------------


def tasks_version(owner_id: int, repo_id: int) -> int:
    return count("SELECT version FROM action_tasks_version WHERE owner_id = ? AND repo_id = ?", (owner_id, repo_id))


def bump_tasks_version(owner_id: int, repo_id: int, now: int) -> None:
    forge().db.execute(
        "INSERT INTO action_tasks_version (owner_id, repo_id, version, updated) VALUES (?, ?, 1, ?) "
        "ON CONFLICT (owner_id, repo_id) DO UPDATE SET version = version + 1, updated = excluded.updated",
        (owner_id, repo_id, now),
    )


# --- tasks ----------------------------------------------------------------------------------------


def insert_task(
    *,
    job_id: int,
    run_id: int,
    repo_id: int,
    owner_id: int,
    runner_id: int,
    attempt: int,
    status: int,
    token_hash: str,
    token_last_eight: str,
    now: int,
) -> int:
    cursor = forge().db.execute(
        "INSERT INTO action_task (job_id, run_id, repo_id, owner_id, runner_id, attempt, status, token_hash, "
        "token_last_eight, created, updated, started) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (job_id, run_id, repo_id, owner_id, runner_id, attempt, status, token_hash, token_last_eight, now, now, now),
    )
    return int(cursor.lastrowid or 0)


def task_row(task_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM action_task WHERE id = ?", (task_id,))


def task_row_by_token_hash(token_hash: str) -> Row | None:
    return forge().db.one("SELECT * FROM action_task WHERE token_hash = ?", (token_hash,))


def task_rows_of_run(run_id: int) -> list[Row]:
    return forge().db.all("SELECT * FROM action_task WHERE run_id = ? ORDER BY id", (run_id,))


def finish_task(task_id: int, status: int, stopped: int, now: int) -> None:
    forge().db.execute(
        "UPDATE action_task SET status = ?, stopped = ?, updated = ? WHERE id = ?", (status, stopped, now, task_id)
    )


def touch_task(task_id: int, now: int) -> None:
    forge().db.execute("UPDATE action_task SET updated = ? WHERE id = ?", (now, task_id))


def list_tasks(repo_id: int, *, limit: int, offset: int) -> tuple[list[Row], int]:
    """A page of a repository's tasks, newest first, with their total count."""
    db = forge().db
    total = count("SELECT COUNT(*) FROM action_task WHERE repo_id = ?", (repo_id,))
    rows = db.all(
        "SELECT * FROM action_task WHERE repo_id = ? ORDER BY id DESC LIMIT ? OFFSET ?", (repo_id, limit, offset)
    )
    return rows, total


# --- steps ----------------------------------------------------------------------------------------


def insert_steps(task_id: int, names: Iterable[str], status: int) -> None:
    forge().db.conn.executemany(
        "INSERT INTO action_task_step (task_id, idx, name, status) VALUES (?, ?, ?, ?)",
        [(task_id, index, name, status) for index, name in enumerate(names)],
    )


def step_rows(task_id: int) -> list[Row]:
    return forge().db.all("SELECT * FROM action_task_step WHERE task_id = ? ORDER BY idx", (task_id,))


def update_step(
    task_id: int, index: int, *, status: int, log_index: int, log_length: int, started: int, stopped: int
) -> None:
    forge().db.execute(
        "UPDATE action_task_step SET status = ?, log_index = ?, log_length = ?, started = ?, stopped = ? "
        "WHERE task_id = ? AND idx = ?",
        (status, log_index, log_length, started, stopped, task_id, index),
    )


def cancel_unfinished_steps(task_id: int, status: int) -> None:
    forge().db.execute(
        "UPDATE action_task_step SET status = ? WHERE task_id = ? AND status NOT IN (1, 2, 3, 4)", (status, task_id)
    )


# --- outputs --------------------------------------------------------------------------------------


def insert_output_if_absent(task_id: int, key: str, value: str) -> None:
    forge().db.execute(
        "INSERT INTO action_task_output (task_id, key, value) VALUES (?, ?, ?) ON CONFLICT (task_id, key) DO NOTHING",
        (task_id, key, value),
    )


def outputs(task_id: int) -> dict[str, str]:
    rows = forge().db.all("SELECT key, value FROM action_task_output WHERE task_id = ? ORDER BY key", (task_id,))
    return {str(row["key"]): str(row["value"]) for row in rows}


# --- logs -----------------------------------------------------------------------------------------


def append_log_lines(task_id: int, first_line: int, lines: Sequence[str], now: int) -> None:
    db = forge().db
    db.conn.executemany(
        "INSERT INTO action_task_log (task_id, line, content) VALUES (?, ?, ?)",
        [(task_id, first_line + offset, line) for offset, line in enumerate(lines)],
    )
    db.execute(
        "UPDATE action_task SET log_length = ?, updated = ? WHERE id = ?", (first_line + len(lines), now, task_id)
    )


def close_log(task_id: int) -> None:
    forge().db.execute("UPDATE action_task SET log_closed = 1 WHERE id = ?", (task_id,))


def log_lines(task_id: int) -> list[str]:
    rows = forge().db.all("SELECT content FROM action_task_log WHERE task_id = ? ORDER BY line", (task_id,))
    return [str(row["content"]) for row in rows]


def list_runners(
    *, owner_id: int | None, repo_id: int | None, disabled: bool | None, limit: int, offset: int
) -> tuple[list[Row], int]:
    """A page of the live runners of a scope (owner runners are those with no repository), oldest first."""
    clauses, params = ["deleted = 0"], []
    if repo_id is not None:
        clauses.append("repo_id = ?")
        params.append(repo_id)
    if owner_id is not None:
        clauses.append("owner_id = ? AND repo_id = 0")
        params.append(owner_id)
    if disabled is not None:
        clauses.append("disabled = ?")
        params.append(int(disabled))
    where = " AND ".join(clauses)
    total = count(f"SELECT COUNT(*) FROM action_runner WHERE {where}", params)  # noqa: S608
    rows = forge().db.all(
        f"SELECT * FROM action_runner WHERE {where} ORDER BY id LIMIT ? OFFSET ?",  # noqa: S608
        [*params, limit, offset],
    )
    return rows, total

"""Attempts of workflow runs: the numbering a rerun moves on, who triggered each attempt, and what an
earlier attempt looked like when a rerun replaced it.

A run's job rows always hold its latest attempt (a rerun re-queues them in place); attempt 1 has no
row until a rerun snapshots it. Gitea 1.27 keeps an ``action_run_attempt`` row per attempt and clones
the jobs; the numbering, trigger users and answers are the same.
"""

from __future__ import annotations

import json
from typing import Any

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA", "attempt_row", "current_attempt", "record_rerun", "requeue_job", "trigger_user_of"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS action_run_attempt (
    run_id INTEGER NOT NULL REFERENCES action_run (id) ON DELETE CASCADE,
    attempt INTEGER NOT NULL,
    trigger_user_id INTEGER NOT NULL,
    created INTEGER NOT NULL,
    snapshot TEXT,
    PRIMARY KEY (run_id, attempt)
);
"""

_INSERT = "INSERT INTO action_run_attempt (run_id, attempt, trigger_user_id, created, snapshot) VALUES (?, ?, ?, ?, ?)"


def current_attempt(run_id: int) -> int:
    """The run's latest attempt number (1 until a rerun)."""
    row = forge().db.one("SELECT MAX(attempt) AS n FROM action_run_attempt WHERE run_id = ?", (run_id,))
    return int(row["n"]) if row is not None and row["n"] is not None else 1


def attempt_row(run_id: int, attempt: int) -> Row | None:
    return forge().db.one("SELECT * FROM action_run_attempt WHERE run_id = ? AND attempt = ?", (run_id, attempt))


def trigger_user_of(run_id: int, default: int) -> int:
    """Who triggered the latest attempt (the run's trigger user for attempt 1)."""
    row = forge().db.one(
        "SELECT trigger_user_id FROM action_run_attempt WHERE run_id = ? ORDER BY attempt DESC LIMIT 1", (run_id,)
    )
    return int(row["trigger_user_id"]) if row is not None else default


def record_rerun(run_id: int, first_trigger_user_id: int, snapshot: dict[str, Any], doer_id: int, now: int) -> int:
    """Keep the latest attempt's answers and open the next attempt for ``doer_id``; its number.
    Call inside a transaction."""
    db = forge().db
    latest = current_attempt(run_id)
    encoded = json.dumps(snapshot, separators=(",", ":"))
    if attempt_row(run_id, latest) is None:
        db.execute(
            _INSERT,
            (run_id, latest, first_trigger_user_id, now, encoded),
        )
    else:
        db.execute(
            "UPDATE action_run_attempt SET snapshot = ? WHERE run_id = ? AND attempt = ?", (encoded, run_id, latest)
        )
    db.execute(
        _INSERT,
        (run_id, latest + 1, doer_id, now, None),
    )
    return latest + 1


def requeue_job(job_id: int, status: int, now: int) -> None:
    """Hand a finished job back to the queue (waiting, or blocked behind a need that reruns too)."""
    forge().db.execute(
        "UPDATE action_run_job SET status = ?, task_id = 0, started = 0, stopped = 0, updated = ? WHERE id = ?",
        (status, now, job_id),
    )

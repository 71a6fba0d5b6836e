"""When each cron task last ran and how often it has."""

from __future__ import annotations

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA", "record_run", "runs"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS cron_runs (
    name TEXT PRIMARY KEY,
    exec_times INTEGER NOT NULL,
    prev REAL NOT NULL
);
"""


def runs() -> dict[str, Row]:
    return {row["name"]: row for row in forge().db.all("SELECT * FROM cron_runs")}


def record_run(name: str, now: float) -> None:
    forge().db.execute(
        "INSERT INTO cron_runs (name, exec_times, prev) VALUES (?, 1, ?)"
        " ON CONFLICT(name) DO UPDATE SET exec_times = exec_times + 1, prev = excluded.prev",
        (name, now),
    )

"""Cron tasks (``/admin/cron``): listed with Gitea's model, run on demand, and doing their work when run."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import Flask
from flask.testing import FlaskClient
from test_server_artifacts_support import Job, actions, app_context, job

from reference_server.artifacts import store
from reference_server.cron.tasks import next_run

__all__ = ["actions", "app_context", "job"]  # fixtures the tests below use

ADMIN = {"Authorization": "token 0123456789abcdef0123456789abcdef01234567"}
GO_ZERO_TIME = "0001-01-01T00:00:00Z"


def _tasks(client: FlaskClient) -> dict[str, dict[str, object]]:
    answer = client.get("/api/v1/admin/cron", headers=ADMIN)
    assert answer.status_code == 200 and answer.headers["X-Total-Count"] == "3"
    return {task["name"]: task for task in answer.get_json()}


def test_tasks_are_listed_by_name_until_run(client: FlaskClient) -> None:
    tasks = _tasks(client)
    assert list(tasks) == ["cleanup_actions", "git_gc_repos", "update_mirrors"]
    schedules = {name: task["schedule"] for name, task in tasks.items()}
    assert schedules == {"cleanup_actions": "@midnight", "git_gc_repos": "@every 72h", "update_mirrors": "@every 10m"}
    assert all(task["exec_times"] == 0 and task["prev"] == GO_ZERO_TIME for task in tasks.values())


def test_an_unknown_task_is_404(client: FlaskClient) -> None:
    answer = client.post("/api/v1/admin/cron/no_such_task", headers=ADMIN)
    assert answer.status_code == 404


def test_cleanup_actions_removes_the_files_of_expired_artifacts_only(job: Job, app: Flask) -> None:
    expiring = job.upload("old", b"expiring", expires_at="2030-01-01T00:00:00Z")
    kept = job.upload("new", b"kept", expires_at="2099-01-01T00:00:00Z")
    blobs = app.extensions["forge"].blobs
    old_files, new_files = blobs.path(f"artifacts/files/{expiring}"), blobs.path(f"artifacts/files/{kept}")
    assert old_files.exists() and new_files.exists()
    app.extensions["forge"].config.clock.offset_seconds = 6 * 365 * 24 * 3600  # 2032: the first has expired
    answer = job.client.post("/api/v1/admin/cron/cleanup_actions", headers=ADMIN)
    assert answer.status_code == 204
    row = store.find_by_id(expiring)
    assert row is not None and row.blob_key == "" and not old_files.exists(), "the expired artifact keeps its files"
    assert new_files.exists(), "an artifact that has not expired lost its files"
    task = _tasks(job.client)["cleanup_actions"]
    assert task["exec_times"] == 1 and task["prev"] != GO_ZERO_TIME


def test_git_gc_runs_in_every_repository(client: FlaskClient) -> None:
    assert client.post("/api/v1/user/repos", headers=ADMIN, json={"name": "r", "auto_init": True}).status_code == 201
    assert client.post("/api/v1/admin/cron/git_gc_repos", headers=ADMIN).status_code == 204
    assert _tasks(client)["git_gc_repos"]["exec_times"] == 1


def test_every_schedules_take_go_durations() -> None:
    """``@every 10m`` comes ten minutes after the last run (or now), skipping the slots already past."""
    now = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
    assert next_run("@every 10m", None, now) == now + timedelta(minutes=10)
    assert next_run("@every 10m", now - timedelta(minutes=25), now) == now + timedelta(minutes=5)
    assert next_run("@every 72h", now - timedelta(hours=1), now) == now + timedelta(hours=71)

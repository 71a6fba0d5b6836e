"""Steps of instance administration: the cron tasks and unadopted repositories."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.admin import AdminApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from steps.parsing import phrase

RECENT = timedelta(minutes=10)
"""How far a task's last run may lie before the check and still be "just now" (clocks of two machines)."""


@dataclass
class CronNotes:
    """How often each task had run when the scenario looked."""

    runs: dict[str, int] = field(default_factory=dict)


@pytest.fixture
def cron_notes() -> CronNotes:
    return CronNotes()


def _task(ctx: ScenarioContext, name: str) -> dict[str, Any]:
    tasks = json_of(ctx.admin.area(AdminApi).cron_tasks())
    found = [task for task in tasks if task["name"] == name]
    assert found, f"no cron task {name} among {[task['name'] for task in tasks]}"
    task: dict[str, Any] = found[0]
    return task


@given(phrase('the admin notes how often the cron task "{name}" has run'))
def note_runs(ctx: ScenarioContext, cron_notes: CronNotes, name: str) -> None:
    cron_notes.runs[name] = int(_task(ctx, name)["exec_times"])


@when(phrase("the admin lists the cron tasks"))
def list_tasks(ctx: ScenarioContext) -> None:
    ctx.response = ctx.admin.area(AdminApi).cron_tasks()


@when(phrase('the admin runs the cron task "{name}"'))
def run_task(ctx: ScenarioContext, name: str) -> None:
    ctx.response = ctx.admin.area(AdminApi).run_cron_task(name)


@then(phrase('the cron task "{name}" is listed with a schedule'))
def task_listed(ctx: ScenarioContext, name: str) -> None:
    assert ctx.response is not None
    found = [task for task in json_of(ctx.response) if task["name"] == name]
    assert found and found[0]["schedule"], f"{name} is not listed with a schedule: {found}"


@then(phrase('the cron task "{name}" has run once more, just now'))
def ran_once_more(ctx: ScenarioContext, cron_notes: CronNotes, name: str) -> None:
    task = _task(ctx, name)
    assert task["exec_times"] == cron_notes.runs[name] + 1, f"{name} ran {task['exec_times']} times"
    prev = datetime.fromisoformat(task["prev"].replace("Z", "+00:00"))
    assert abs(datetime.now(UTC) - prev) < RECENT, f"{name} last ran at {task['prev']}"


@when(phrase('the admin adopts the unadopted repository "{short}"'))
def adopt(ctx: ScenarioContext, short: str) -> None:
    """``POST /admin/unadopted/{owner}/{repo}``; a name the scenario never created maps to a fresh one."""
    owner, _, name = short.partition("/")
    real = ctx.repo(short).name if short in ctx.repos else ctx.real_name(name)
    ctx.response = ctx.admin.area(AdminApi).adopt(ctx.owner_name(owner), real)


@then(phrase('the repository "{short}" is still there'))
def repository_still_there(ctx: ScenarioContext, short: str) -> None:
    ref = ctx.repo(short)
    status = ctx.admin.repos.get(ref.owner, ref.name).status_code
    assert status == 200, f"{ref.full_name} answers {status}"

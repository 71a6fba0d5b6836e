"""REST routes of the cron tasks (site administrators)."""

from __future__ import annotations

from flask import Response

from ..access import ADMIN
from ..context import forge
from ..endpoints import API, EMPTY, Endpoint
from ..errors import NotFound
from ..rest import empty, page_params, paged_response
from . import store
from .presenters import cron_to_api
from .tasks import TASKS

__all__ = ["ENDPOINTS"]


def admin_cron_list() -> Response:
    """Every task, by name, paged."""
    page = page_params()
    runs = store.runs()
    tasks = sorted(TASKS.values(), key=lambda task: task.name)
    chunk = tasks[page.offset : page.offset + page.limit]
    return paged_response([cron_to_api(task, runs.get(task.name)) for task in chunk], page, len(tasks))


def admin_cron_run(task: str) -> Response:
    """Run a task now and record the run; its work is done when this answers."""
    found = TASKS.get(task)
    if found is None:
        raise NotFound("The target couldn't be found.")
    found.run()
    with forge().db.transaction():
        store.record_run(found.name, forge().now())
    return empty()


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("GET", API + "/admin/cron", "adminCronList", admin_cron_list, "admin", ADMIN, returns="[cron]"),
    Endpoint(
        "POST",
        API + "/admin/cron/<task>",
        "adminCronRun",
        admin_cron_run,
        "admin",
        ADMIN,
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
)

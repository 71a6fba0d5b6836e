"""REST routes of the actions family at repository scope; mounts the scoped routes (runners, tokens, wider
lists) and the runner protocol, and subscribes to pushes and repository deletions."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from flask import Flask, Response, request

from ..access import RUNNER, token
from ..auth import current_principal
from ..context import forge
from ..endpoints import ANY_METHOD, API, EMPTY, WIRE, Endpoint
from ..errors import ApiError, Unprocessable
from ..events import AccountDeletedEvent, PushEvent, RepoCreatedEvent, RepoDeletedEvent, RunStatusEvent
from ..permissions import current_repo
from ..rest import empty, json_body, json_response, page_params, paged_response, query_bool
from . import queries, runner_protocol
from .config_routes import CONFIG_ENDPOINTS
from .config_routes import on_repo_deleted as config_repo_deleted
from .convert import job_to_api, run_details, run_to_api, task_to_api
from .models import TaskQueueSignal
from .reruns import RERUN_ENDPOINTS
from .runners import on_account_deleted, seal_stored_registration_tokens
from .scopes import SCOPED_ENDPOINTS
from .triggers import dispatch_workflow, on_push, on_repo_created, on_repo_deleted
from .workflow_run import on_run_status

if TYPE_CHECKING:
    pass

__all__ = ["ENDPOINTS", "register"]

log = logging.getLogger(__name__)

# --- workflows ------------------------------------------------------------------------------------


def list_workflows(owner: str, repo: str) -> Response:
    found = current_repo()
    items = queries.default_branch_workflows(found)
    return json_response({"workflows": items, "total_count": len(items)})


def get_workflow(owner: str, repo: str, workflow_id: str) -> Response:
    found = current_repo()
    return json_response(queries.default_branch_workflow(found, workflow_id))


def disable_workflow(owner: str, repo: str, workflow_id: str) -> Response:
    queries.set_workflow_state(current_repo(), workflow_id, disabled=True)
    return empty()


def enable_workflow(owner: str, repo: str, workflow_id: str) -> Response:
    queries.set_workflow_state(current_repo(), workflow_id, disabled=False)
    return empty()


def _input_value(name: str, value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | int | float):
        return str(value)
    raise Unprocessable(f"[Inputs]: the value of {name!r} must be a string")


def _dispatch_options() -> tuple[str, dict[str, str]]:
    """``ref`` and ``inputs`` from a JSON body or a form (``ref=main&inputs[name]=value``)."""
    content_type = (request.mimetype or "").lower()
    if content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
        ref = (request.form.get("ref") or "").strip()
        inputs = {
            key[len("inputs[") : -1]: value
            for key, value in request.form.items()
            if key.startswith("inputs[") and key.endswith("]")
        }
    else:
        body = json_body()
        raw_ref = body.get("ref")
        if raw_ref is not None and not isinstance(raw_ref, str):
            raise Unprocessable("[Ref]: must be a string")
        ref = (raw_ref or "").strip()
        raw_inputs = body.get("inputs") or {}
        if not isinstance(raw_inputs, dict):
            raise Unprocessable("[Inputs]: must be an object of strings")
        inputs = {str(key): _input_value(str(key), value) for key, value in raw_inputs.items()}
    if not ref:
        raise Unprocessable("[Ref]: Required")
    return ref, inputs


def dispatch(owner: str, repo: str, workflow_id: str) -> Response:
    found = current_repo()
    want_details = query_bool("return_run_details")
    ref, inputs = _dispatch_options()
    run = dispatch_workflow(found, workflow_id, ref, inputs, current_principal().user_id)
    if want_details:
        return json_response(run_details(run, found))
    return empty()


# --- runs, jobs, tasks ----------------------------------------------------------------------------


def list_runs(owner: str, repo: str) -> Response:
    found = current_repo()
    page = page_params()
    runs, total = queries.runs_page(request.args, page.limit, page.offset, repo_id=found.id)
    return paged_response({"workflow_runs": [run_to_api(r, found) for r in runs], "total_count": total}, page, total)


def get_run(owner: str, repo: str, run_id: str) -> Response:
    found = current_repo()
    return json_response(run_to_api(queries.run_of_repo(found, run_id), found))


def delete_run(owner: str, repo: str, run_id: str) -> Response:
    found = current_repo()
    queries.delete_run(queries.run_of_repo(found, run_id))
    return empty()


def cancel_run(owner: str, repo: str, run_id: str) -> Response:
    """Reference-server route (Gitea adds it after 1.27): cancel a run's unfinished jobs and tasks."""
    found = current_repo()
    queries.cancel_run(queries.run_of_repo(found, run_id))
    return empty()


def list_run_jobs(owner: str, repo: str, run_id: str) -> Response:
    found = current_repo()
    run = queries.run_of_repo(found, run_id)
    page = page_params()
    jobs, total = queries.jobs_page(request.args, page.limit, page.offset, repo_id=found.id, run_id=run.id)
    payload = {"jobs": [job_to_api(job, run, found) for job in jobs], "total_count": total}
    return paged_response(payload, page, total)


def list_jobs(owner: str, repo: str) -> Response:
    found = current_repo()
    page = page_params()
    jobs, total = queries.jobs_page(request.args, page.limit, page.offset, repo_id=found.id)
    payload = {"jobs": [job_to_api(job, queries.run_of_job(job), found) for job in jobs], "total_count": total}
    return paged_response(payload, page, total)


def get_job(owner: str, repo: str, job_id: str) -> Response:
    found = current_repo()
    job = queries.job_of_repo(found, job_id)
    return json_response(job_to_api(job, queries.run_of_job(job), found))


def get_job_logs(owner: str, repo: str, job_id: str) -> Response:
    found = current_repo()
    lines = queries.job_log_lines(queries.job_of_repo(found, job_id))
    body = "".join(line + "\n" for line in lines)
    response = Response(body, status=200, content_type="text/plain; charset=utf-8")
    response.headers["Content-Disposition"] = f'attachment; filename="job-{job_id}.log"'
    return response


def list_tasks(owner: str, repo: str) -> Response:
    found = current_repo()
    page = page_params()
    tasks, total = queries.tasks_page(found, page.limit, page.offset)
    entries = [entry for entry in (task_to_api(task) for task in tasks) if entry is not None]
    return paged_response({"workflow_runs": entries, "total_count": total}, page, total)


def _guarded(listener: Callable[[Any], None]) -> Callable[[Any], None]:
    """Run an event listener without letting its failure break the request that published the event."""

    def run(event: Any) -> None:
        try:
            listener(event)
        except ApiError:
            log.warning("actions: %s ignored %r", listener.__name__, event, exc_info=True)
        except Exception:
            log.exception("actions: %s failed on %r", listener.__name__, event)

    return run


def register(app: Flask) -> None:
    """Seal stored registration tokens, start the task queue signal, subscribe to pushes and deletions."""
    seal_stored_registration_tokens()
    app.extensions["actions_task_queue"] = TaskQueueSignal()
    events = forge().events
    events.subscribe(RepoDeletedEvent, config_repo_deleted)
    events.subscribe(PushEvent, _guarded(on_push))
    events.subscribe(RepoCreatedEvent, _guarded(on_repo_created))
    events.subscribe(RepoDeletedEvent, _guarded(on_repo_deleted))
    events.subscribe(RunStatusEvent, _guarded(on_run_status))
    events.subscribe(AccountDeletedEvent, on_account_deleted)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/actions/workflows",
        "actions_list_workflows_get",
        list_workflows,
        "repository",
        token("repository", repo="read"),
        returns="action_workflow_list",
        errors=(400, 403, 404, 422),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/actions/workflows/<workflow_id>",
        "actions_get_workflow_get",
        get_workflow,
        "repository",
        token("repository", repo="read"),
        returns="action_workflow",
        errors=(400, 403, 404, 422),
    ),
    Endpoint(
        "PUT",
        API + "/repos/<owner>/<repo>/actions/workflows/<workflow_id>/disable",
        "actions_disable_workflow_put",
        disable_workflow,
        "repository",
        token("repository", repo="write"),
        status=204,
        returns=EMPTY,
        errors=(400, 403, 404, 422),
    ),
    Endpoint(
        "PUT",
        API + "/repos/<owner>/<repo>/actions/workflows/<workflow_id>/enable",
        "actions_enable_workflow_put",
        enable_workflow,
        "repository",
        token("repository", repo="write"),
        status=204,
        returns=EMPTY,
        errors=(400, 403, 404, 409, 422),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/actions/workflows/<workflow_id>/dispatches",
        "actions_dispatch_post",
        dispatch,
        "repository",
        token("repository", repo="write"),
        body="CreateActionWorkflowDispatch",
        returns="action_run_details",
        errors=(400, 403, 404, 422),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/actions/runs",
        "actions_list_runs_get",
        list_runs,
        "repository",
        token("repository", repo="read"),
        returns="action_workflow_run_list",
        errors=(400, 404),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/actions/runs/<run_id>",
        "actions_get_run_get",
        get_run,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="action_workflow_run",
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/actions/runs/<run_id>",
        "actions_delete_run_delete",
        delete_run,
        "repository",
        token("repository", repo="write"),
        status=204,
        returns=EMPTY,
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/actions/runs/<run_id>/jobs",
        "actions_list_run_jobs_get",
        list_run_jobs,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="action_workflow_job_list",
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/actions/runs/<run_id>/cancel",
        "actions_cancel_run_post",
        cancel_run,
        "repository",
        token("repository", repo="write"),
        status=204,
        returns=EMPTY,
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/actions/jobs",
        "actions_list_jobs_get",
        list_jobs,
        "repository",
        token("repository", repo="read"),
        returns="action_workflow_job_list",
        errors=(400, 404, 422),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/actions/jobs/<job_id>",
        "actions_get_job_get",
        get_job,
        "repository",
        token("repository", repo="read"),
        returns="action_workflow_job",
        errors=(400, 404),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/actions/jobs/<job_id>/logs",
        "actions_get_job_logs_get",
        get_job_logs,
        "repository",
        token("repository", repo="read"),
        returns=EMPTY,
        errors=(400, 404),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/actions/tasks",
        "actions_list_tasks_get",
        list_tasks,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="action_task_list",
        errors=(400, 403, 404, 409, 422),
    ),
    Endpoint(
        ANY_METHOD,
        "/api/actions/<path:procedure>",
        "actions_runner_protocol",
        runner_protocol.dispatch,
        "runner",
        RUNNER,
        returns=WIRE,
    ),
    *RERUN_ENDPOINTS,
    *SCOPED_ENDPOINTS,
    *CONFIG_ENDPOINTS,
)

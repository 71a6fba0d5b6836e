"""REST routes of repository webhooks and the listeners that turn CI status changes into deliveries."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, request

from ..access import token
from ..actions.models import get_job, get_run
from ..auth import current_principal
from ..context import forge
from ..endpoints import API, EMPTY, Endpoint
from ..events import AccountDeletedEvent, JobStatusEvent, RepoDeletedEvent, RunStatusEvent
from ..gitcli import valid_branch_name
from ..permissions import current_repo
from ..repos.errors import BranchNotFound
from ..repos.models import get_repo_by_id
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import models, owner_routes, store, system_routes
from .delivery import delivery_for, install_delivery, schedule
from .models import HookOwner
from .payloads import job_payload, push_test_payload, run_payload
from .presenters import hook_to_api

__all__ = ["ENDPOINTS", "register"]

log = logging.getLogger(__name__)

HOOKS = "/api/v1/repos/<owner>/<repo>/hooks"


def hook_list(owner: str, repo: str) -> Response:
    """The repository's hooks, paged, oldest first."""
    found = current_repo()
    page = page_params()
    hooks, total = models.hooks_of(HookOwner.repository(found.id), page.limit, page.offset)
    return paged_response([hook_to_api(hook) for hook in hooks], page, total)


def hook_create(owner: str, repo: str) -> Response:
    """Create a hook from a ``CreateHookOption``."""
    found = current_repo()
    hook = models.create_hook(HookOwner.repository(found.id), json_body())
    return json_response(hook_to_api(hook), status=201)


def hook_get(owner: str, repo: str, hook_id: str) -> Response:
    found = current_repo()
    return json_response(hook_to_api(models.get_hook(HookOwner.repository(found.id), hook_id)))


def hook_edit(owner: str, repo: str, hook_id: str) -> Response:
    """Change a hook from an ``EditHookOption`` (absent fields keep their values)."""
    found = current_repo()
    return json_response(hook_to_api(models.edit_hook(HookOwner.repository(found.id), hook_id, json_body())))


def hook_delete(owner: str, repo: str, hook_id: str) -> Response:
    found = current_repo()
    models.delete_hook(HookOwner.repository(found.id), hook_id)
    return empty()


def hook_test(owner: str, repo: str, hook_id: str) -> Response:
    """Send the hook a ``push`` delivery of the branch head (``?ref=``, default branch by default), whatever
    its events and even when inactive, as Gitea's test does."""
    found = current_repo()
    hook = models.get_hook(HookOwner.repository(found.id), hook_id)
    branch = (request.args.get("ref") or found.default_branch).removeprefix("refs/heads/")
    known = valid_branch_name(branch) and found.git.rev_parse(f"refs/heads/{branch}") is not None
    if not known and branch != found.default_branch:  # an empty repository's default branch has no head yet
        raise BranchNotFound(f"branch {branch!r} not found")
    payload = push_test_payload(found, branch, current_principal().user_id)
    schedule([delivery_for(hook, "push", payload)])
    return empty()


def on_run_status(event: RunStatusEvent) -> None:
    """Queue a ``workflow_run`` delivery for every hook that hears the run's repository and takes it."""
    repo = get_repo_by_id(event.repo_id)
    hooks = models.subscribed_hooks(repo.id, repo.owner_id, "workflow_run")
    run = get_run(event.run_id) if hooks else None
    if run is None:
        return
    payload = run_payload(run, repo)
    schedule([delivery_for(hook, "workflow_run", payload) for hook in hooks])


def on_job_status(event: JobStatusEvent) -> None:
    """Queue a ``workflow_job`` delivery for every hook that hears the job's repository and takes it."""
    repo = get_repo_by_id(event.repo_id)
    hooks = models.subscribed_hooks(repo.id, repo.owner_id, "workflow_job")
    job = get_job(event.job_id) if hooks else None
    run = get_run(event.run_id) if job is not None else None
    if job is None or run is None:
        return
    payload = job_payload(job, run, repo)
    schedule([delivery_for(hook, "workflow_job", payload) for hook in hooks])


def on_repo_deleted(event: RepoDeletedEvent) -> None:
    with forge().db.transaction():
        store.delete_hooks_of_repo(event.repo_id)


def on_account_deleted(event: AccountDeletedEvent) -> None:
    """A deleted organization's or user's hooks go with it."""
    with forge().db.transaction():
        models.delete_hooks_of_owner(event.account_id)


def _guarded(listener: Callable[[Any], None]) -> Callable[[Any], None]:
    """A failing webhook must never fail the CI change that announced it: log and go on."""

    def run(event: Any) -> None:
        try:
            listener(event)
        except Exception:
            log.exception("webhooks: %s failed on %r", listener.__name__, event)

    return run


def register(app: Flask) -> None:
    """Start the delivery worker and the listeners."""
    install_delivery(app)
    models.prepare_table()
    models.seal_stored_credentials()
    events = forge().events
    events.subscribe(RunStatusEvent, _guarded(on_run_status))
    events.subscribe(JobStatusEvent, _guarded(on_job_status))
    events.subscribe(RepoDeletedEvent, _guarded(on_repo_deleted))
    events.subscribe(AccountDeletedEvent, on_account_deleted)


ENDPOINTS: tuple[Endpoint, ...] = (
    *system_routes.ENDPOINTS,
    *owner_routes.ENDPOINTS,
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/hooks",
        "repoListHooks",
        hook_list,
        "repository",
        token("repository", repo="admin"),
        returns="[hook]",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/hooks",
        "repoCreateHook",
        hook_create,
        "repository",
        token("repository", repo="admin"),
        body="CreateHookOption",
        status=201,
        returns="hook",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/hooks/<hook_id>",
        "repoGetHook",
        hook_get,
        "repository",
        token("repository", repo="admin"),
        returns="hook",
    ),
    Endpoint(
        "PATCH",
        API + "/repos/<owner>/<repo>/hooks/<hook_id>",
        "repoEditHook",
        hook_edit,
        "repository",
        token("repository", repo="admin"),
        body="EditHookOption",
        returns="hook",
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/hooks/<hook_id>",
        "repoDeleteHook",
        hook_delete,
        "repository",
        token("repository", repo="admin"),
        status=204,
        returns=EMPTY,
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/hooks/<hook_id>/tests",
        "repoTestHook",
        hook_test,
        "repository",
        token("repository", repo="admin"),
        status=204,
        returns=EMPTY,
    ),
)

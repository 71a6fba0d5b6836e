"""Routes that exist at several scopes (repository, user, organization, instance): runners, registration
tokens, and the run and job lists of a user, an organization or the whole instance.

A scope is resolved once per request, scope category first (403 before any lookup, as Gitea), then the
caller's role: repository owner, the user themself, organization owner (member for run/job lists), or
site administrator.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from flask import Response, request

from ..access import ADMIN, ADMIN_WRITE, JOB_TOKEN_REFUSAL, Rule, token
from ..auth import current_principal
from ..context import forge, now_seconds
from ..endpoints import API, EMPTY, Endpoint
from ..errors import Forbidden, NotFound, Unprocessable
from ..permissions import current_org, current_repo
from ..repos.models import Repo, get_repo_by_id
from ..rest import empty, json_body, json_response, page_params, paged_response, query_bool
from . import queries, runner_store
from .convert import job_to_api, run_to_api, runner_to_api
from .models import Job, Run, Runner, get_run
from .runners import registration_token, replace_registration_token

__all__ = ["SCOPED_ENDPOINTS"]


@dataclass(frozen=True)
class Scope:
    """Where runners and tokens live (``owner_id``, ``repo_id``), and which runs a list shows."""

    owner_id: int
    repo_id: int

    @property
    def is_instance(self) -> bool:
        return self.owner_id == 0 and self.repo_id == 0

    def holds(self, runner: Runner) -> bool:
        """Whether the runner belongs here (the instance scope reaches every runner, as Gitea's admin)."""
        if runner.deleted:
            return False
        if self.repo_id:
            return runner.repo_id == self.repo_id
        if self.owner_id:
            return runner.owner_id == self.owner_id and runner.repo_id == 0
        return True


def repo_scope(owner: str, repo: str) -> Scope:
    """A repository's runners and tokens: its admins (the route's declared permission)."""
    return Scope(0, current_repo().id)


def user_scope() -> Scope:
    principal = current_principal()
    if principal.user_id <= 0:  # a pseudo-user (the Actions user of a job token) has no scope of its own
        raise Forbidden(JOB_TOKEN_REFUSAL)
    if "public-only" in principal.scopes:  # the user's runners, runs and jobs span its private repositories
        raise Forbidden("this endpoint is not available for public-only tokens")
    return Scope(principal.user_id, 0)


def org_scope(org: str) -> Scope:
    """An organization's runners, runs and jobs: the standing in it is the route's declared rule (owners
    manage runners, members list runs and jobs)."""
    return Scope(current_org().id, 0)


def admin_scope() -> Scope:
    return Scope(0, 0)


# --- registration tokens and runners (every scope) -----------------------------------------------


def _token(scope: Scope) -> Response:
    return json_response({"token": registration_token(scope.owner_id, scope.repo_id)})


def _replace_token(scope: Scope) -> Response:
    """Reference-server extension: invalidate the active token so the next request makes a new one."""
    replace_registration_token(scope.owner_id, scope.repo_id)
    return empty()


def _runners(scope: Scope) -> Response:
    page = page_params()
    rows, total = runner_store.list_runners(
        owner_id=None if scope.is_instance else (scope.owner_id or None),
        repo_id=scope.repo_id or None,
        disabled=query_bool("disabled"),
        limit=page.limit,
        offset=page.offset,
    )
    runners = [runner_to_api(Runner.from_row(row)) for row in rows]
    return json_response({"runners": runners, "total_count": total})


def _runner_in(scope: Scope, raw_id: str) -> Runner:
    runner_id = queries.parse_id(raw_id)
    row = None if runner_id is None else runner_store.runner_by_id(runner_id)
    runner = None if row is None else Runner.from_row(row)
    if runner is None or not scope.holds(runner):
        raise NotFound("Runner not found")
    return runner


def _get_runner(scope: Scope, runner_id: str) -> Response:
    return json_response(runner_to_api(_runner_in(scope, runner_id)))


def _delete_runner(scope: Scope, runner_id: str) -> Response:
    runner = _runner_in(scope, runner_id)
    with forge().db.transaction():
        runner_store.mark_runner_deleted(runner.id, now_seconds())
    return empty()


def _edit_runner(scope: Scope, runner_id: str) -> Response:
    """``PATCH {"disabled": bool}``: a disabled runner stays registered but is handed no new task."""
    runner = _runner_in(scope, runner_id)
    body = json_body()
    disabled = body.get("disabled")
    if disabled is None:
        raise Unprocessable("[Disabled]: Required")
    if not isinstance(disabled, bool):
        raise Unprocessable("[Disabled]: must be a boolean")
    with forge().db.transaction():
        runner_store.set_runner_disabled(runner.id, disabled, now_seconds())
    return json_response(runner_to_api(_runner_in(scope, runner_id)))


# --- run and job lists of a user, an organization or the instance ---------------------------------


class _Repos:
    """Repositories of the runs in one answer, each looked up once."""

    def __init__(self) -> None:
        self._known: dict[int, Repo] = {}

    def __call__(self, repo_id: int) -> Repo:
        if repo_id not in self._known:
            self._known[repo_id] = get_repo_by_id(repo_id)
        return self._known[repo_id]


def _owner_filter(scope: Scope) -> int | None:
    return None if scope.is_instance else scope.owner_id


def _runs(scope: Scope) -> Response:
    page = page_params()
    runs, total = queries.runs_page(request.args, page.limit, page.offset, owner_id=_owner_filter(scope))
    repos = _Repos()
    payload = {"workflow_runs": [run_to_api(run, repos(run.repo_id)) for run in runs], "total_count": total}
    return paged_response(payload, page, total)


def _job_entry(job: Job, repos: _Repos) -> dict[str, Any]:
    run: Run | None = get_run(job.run_id)
    if run is None:  # pragma: no cover - jobs are deleted with their run
        raise NotFound("workflow run not found")
    return job_to_api(job, run, repos(job.repo_id))


def _jobs(scope: Scope) -> Response:
    page = page_params()
    jobs, total = queries.jobs_page(request.args, page.limit, page.offset, owner_id=_owner_filter(scope))
    repos = _Repos()
    return paged_response({"jobs": [_job_entry(job, repos) for job in jobs], "total_count": total}, page, total)


# --- mounting ---------------------------------------------------------------------------------------

ScopeOf = Callable[..., Scope]


def _bind(action: Callable[..., Response], resolve: ScopeOf) -> Any:
    """A view that resolves its scope from the URL's owner/repo/org arguments, then runs ``action``."""
    scope_keys = ("owner", "repo", "org")

    def view(**kwargs: str) -> Response:
        scope_args = [kwargs.pop(key) for key in scope_keys if key in kwargs]
        scope = resolve(*scope_args)
        return action(scope, **kwargs)

    return view


_SCOPES: list[tuple[str, str, ScopeOf, Rule, Rule, str]] = [
    (
        "repo",
        "/repos/<owner>/<repo>/actions",
        repo_scope,
        token("repository", repo="admin"),
        token("repository", write_on_read=True, repo="admin"),
        "repository",
    ),
    ("user", "/user/actions", user_scope, token("user"), token("user", write_on_read=True), "user"),
    (
        "org",
        "/orgs/<org>/actions",
        org_scope,
        token("organization", org="owner"),
        token("organization", write_on_read=True, org="owner"),
        "organization",
    ),
    ("admin", "/admin/actions", admin_scope, ADMIN, ADMIN_WRITE, "admin"),
]
"""Each scope: its name, path prefix, resolver, access rule, rule of the GET that mints a token, API tag."""
_RUNNER_ROUTES: list[tuple[str, str, Callable[..., Response], dict[str, Any]]] = [
    ("POST", "/runners/registration-token", _token, {"returns": "action_registration_token"}),
    ("GET", "/runners/registration-token", _token, {"returns": "action_registration_token"}),
    ("DELETE", "/runners/registration-token", _replace_token, {"status": 204, "returns": EMPTY}),
    ("GET", "/runners", _runners, {"returns": "action_runner_list"}),
    ("GET", "/runners/<runner_id>", _get_runner, {"returns": "action_runner"}),
    ("DELETE", "/runners/<runner_id>", _delete_runner, {"status": 204, "returns": EMPTY}),
    (
        "PATCH",
        "/runners/<runner_id>",
        _edit_runner,
        {"body": "EditActionRunnerOption", "returns": "action_runner"},
    ),
]
_LISTS = {"runs": (_runs, "action_workflow_run_list"), "jobs": (_jobs, "action_workflow_job_list")}


def _runner_endpoints() -> list[Endpoint]:
    found = []
    for scope_name, prefix, resolve, rule, minting, tag in _SCOPES:
        for method, path, action, extra in _RUNNER_ROUTES:
            name = f"actions_{scope_name}_{action.__name__.strip('_')}_{method.lower()}"
            access = minting if path.endswith("registration-token") and method == "GET" else rule
            view = _bind(action, resolve)
            found.append(Endpoint(method, API + prefix + path, name, view, tag, access, **extra))
    return found


def _list_endpoints() -> list[Endpoint]:
    found = []
    for scope_name, prefix, resolve, rule, _, tag in _SCOPES:
        for name, (action, schema) in _LISTS.items():
            if scope_name == "repo":
                continue  # a repository's runs and jobs are the run routes' (actions.routes)
            view = _bind(action, resolve)
            listing = replace(rule, org="member") if rule.org else rule  # members list runs and jobs
            found.append(
                Endpoint(
                    "GET", f"{API}{prefix}/{name}", f"actions_{scope_name}_{name}", view, tag, listing, returns=schema
                )
            )
    return found


_LEGACY_ADMIN_TOKEN = _bind(_token, admin_scope)
SCOPED_ENDPOINTS: tuple[Endpoint, ...] = (
    *_runner_endpoints(),
    *(
        Endpoint(
            method,
            API + "/admin/runners/registration-token",
            "actions_admin_legacy_token",
            _LEGACY_ADMIN_TOKEN,
            "admin",
            ADMIN_WRITE,
            returns="action_registration_token",
        )
        for method in ("GET", "POST")
    ),
    *_list_endpoints(),
)
"""Runners and registration tokens at the four scopes, and the wider run and job lists."""

"""Routes that exist at several scopes (repository, user, organization, instance): runners, registration
tokens, and the run and job lists of a user, an organization or the whole instance.

A scope is resolved once per request, scope category first (403 before any lookup, as Gitea), then the
caller's role: repository owner, the user themself, organization owner (member for run/job lists), or
site administrator.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import Flask, Response, request

from ..access import JOB_TOKEN_REFUSAL
from ..auth import check_scope, current_principal, has_scope, require_admin
from ..context import forge, now_seconds
from ..errors import Forbidden, NotFound, Unprocessable
from ..rest import empty, json_body, json_response, page_params, paged_response, query_bool
from . import queries, runner_store
from .convert import job_to_api, run_to_api, runner_to_api
from .models import Job, Run, Runner, get_run
from .runners import registration_token, replace_registration_token

if TYPE_CHECKING:
    from ..repos.models import Repo

__all__ = ["register_scoped_routes"]

API = "/api/v1"


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


def _require_write(category: str) -> None:
    """Tokens and runner changes need ``write:<category>`` even on the legacy GET (a read token gets 403)."""
    principal = current_principal()
    if not has_scope(principal, category, write=True):
        have = ",".join(sorted(principal.scopes))
        raise Forbidden(
            f"token does not have at least one of required scope(s), required=[write:{category}], token scope={have}"
        )


def repo_scope(owner: str, repo: str, *, write: bool = False) -> Scope:
    from ..repos.models import require_repo

    check_scope("repository")
    if write:
        _require_write("repository")
    return Scope(0, require_repo(owner, repo, "admin").id)


def user_scope(*, write: bool = False) -> Scope:
    check_scope("user")
    if write:
        _require_write("user")
    principal = current_principal()
    if principal.user_id <= 0:  # a pseudo-user (the Actions user of a job token) has no scope of its own
        raise Forbidden(JOB_TOKEN_REFUSAL)
    if "public-only" in principal.scopes:  # the user's runners, runs and jobs span its private repositories
        raise Forbidden("this endpoint is not available for public-only tokens")
    return Scope(principal.user_id, 0)


def org_scope(org: str, *, write: bool = False, owner: bool = True) -> Scope:
    from ..orgs.models import get_org, is_org_member, is_org_owner

    check_scope("organization")
    if write:
        _require_write("organization")
    principal = current_principal()
    account = get_org(org, principal)
    if owner and not (principal.is_admin or is_org_owner(principal.user_id, account.id)):
        raise Forbidden("Must be an organization owner")
    if not owner and not (principal.is_admin or is_org_member(principal.user_id, account.id)):
        raise Forbidden("Must be an organization member")
    return Scope(account.id, 0)


def admin_scope(*, write: bool = False) -> Scope:
    require_admin()
    if write:
        _require_write("admin")
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
        from ..repos.models import get_repo_by_id

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


def _bind(action: Callable[..., Response], resolve: ScopeOf, *, write: bool, **resolve_options: Any) -> Any:
    """A view that resolves its scope from the URL's owner/repo/org arguments, then runs ``action``."""
    scope_keys = ("owner", "repo", "org")

    def view(**kwargs: str) -> Response:
        scope_args = [kwargs.pop(key) for key in scope_keys if key in kwargs]
        scope = resolve(*scope_args, write=write, **resolve_options)
        return action(scope, **kwargs)

    return view


def register_scoped_routes(app: Flask) -> None:
    """Mount runners and registration tokens at the four scopes, and the wider run and job lists."""
    prefixes: list[tuple[str, str, ScopeOf]] = [
        ("repo", "/repos/<owner>/<repo>/actions", repo_scope),
        ("user", "/user/actions", user_scope),
        ("org", "/orgs/<org>/actions", org_scope),
        ("admin", "/admin/actions", admin_scope),
    ]
    runner_routes: list[tuple[str, str, Callable[..., Response], bool]] = [
        ("POST", "/runners/registration-token", _token, True),
        ("GET", "/runners/registration-token", _token, True),
        ("DELETE", "/runners/registration-token", _replace_token, True),
        ("GET", "/runners", _runners, False),
        ("GET", "/runners/<runner_id>", _get_runner, False),
        ("DELETE", "/runners/<runner_id>", _delete_runner, True),
        ("PATCH", "/runners/<runner_id>", _edit_runner, True),
    ]
    for scope_name, prefix, resolve in prefixes:
        for method, path, action, write in runner_routes:
            endpoint = f"actions_{scope_name}_{action.__name__.strip('_')}_{method.lower()}"
            view = _bind(action, resolve, write=write)
            app.add_url_rule(API + prefix + path, endpoint=endpoint, view_func=view, methods=[method])
    legacy_admin = _bind(_token, admin_scope, write=True)
    app.add_url_rule(
        API + "/admin/runners/registration-token",
        endpoint="actions_admin_legacy_token",
        view_func=legacy_admin,
        methods=["GET", "POST"],
    )
    lists: list[tuple[str, str, ScopeOf, dict[str, Any]]] = [
        ("user", "/user/actions", user_scope, {}),
        ("org", "/orgs/<org>/actions", org_scope, {"owner": False}),
        ("admin", "/admin/actions", admin_scope, {}),
    ]
    for scope_name, prefix, resolve, options in lists:
        for path, action in (("/runs", _runs), ("/jobs", _jobs)):
            view = _bind(action, resolve, write=False, **options)
            endpoint = f"actions_{scope_name}_{action.__name__.strip('_')}"
            app.add_url_rule(API + prefix + path, endpoint=endpoint, view_func=view, methods=["GET"])

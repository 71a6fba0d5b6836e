"""The runner transitions of specification section 3, driven with the mock runner's protocol client.

The scenario's mock runner is registered to a repository (``a mock runner registered to "dev/app"
...``) or at one of the four scopes for a repository (``the mock runner of "acme/app" is registered
at organization "acme"``). It is switched off and on over REST at its scope (``PATCH {"disabled":
bool}``) by whoever manages that scope (the administrator for the instance, the user, the
organization's owner, the repository's owner) while it keeps calling the runner protocol; its REST
view (``status``, ``busy``, ``disabled``) is read at the same scope.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from forge_proto import runner_pb2
from pytest_bdd import given, then, when

from conformance.api.artifacts import RecordingSession
from conformance.client import HttpClient, json_of
from conformance.context import ScenarioContext
from conformance.identities import IdentityFactory
from conformance.target import Target
from mock_runner.daemon import Daemon, TaskOutcome
from mock_runner.protocol import RunnerClient
from mock_runner.runnerfile import RunnerFile
from steps.ci import actions_of, find_run, held_job, owner_api, the_repo, the_runner, world
from steps.common import org_owner
from steps.parsing import phrase
from steps.scopes import ScopeRef, prefix_of, registration_token_at

__all__ = ["mock_runner_id"]

POLLED = "runner_states:polled"
FETCHES_WHILE_WAITING = 3
FETCH_PAUSE_SECONDS = 0.1
DAEMON_RAN = "runner_states:daemon outcome"
RUNNER_ID = "runner_states:id"
RUNNER_SCOPE = "runner_states:scope"


def _scope(ctx: ScenarioContext) -> ScopeRef:
    """The mock runner's scope: as registered, else its repository's."""
    scope = world(ctx).values.get(RUNNER_SCOPE)
    return scope if isinstance(scope, ScopeRef) else ScopeRef("repository", the_repo(ctx).short)


def mock_runner_id(ctx: ScenarioContext) -> int:
    """The REST id of the scenario's mock runner: from Register's answer, else found by name in its repository."""
    state = world(ctx)
    cached = state.values.get(RUNNER_ID)
    if isinstance(cached, int):
        return cached
    repo = the_repo(ctx)
    response = actions_of(ctx, repo).list_runners(repo.owner, repo.name)
    assert response.status_code == 200, f"listing runners answered {response.status_code}: {response.text[:300]}"
    for item in json_of(response).get("runners") or []:
        if item.get("name") == state.runner_name:
            state.values[RUNNER_ID] = int(item["id"])
            return int(item["id"])
    raise AssertionError(f"the mock runner {state.runner_name!r} is not listed in {repo.full_name}")


def _runner_path(ctx: ScenarioContext) -> str:
    return f"{prefix_of(ctx, _scope(ctx))}/runners/{mock_runner_id(ctx)}"


def _manager_http(ctx: ScenarioContext) -> HttpClient:
    """Who manages the runner's scope: the admin, the user, the organization's owner, the repository's owner."""
    scope = _scope(ctx)
    if scope.kind == "instance":
        return ctx.admin.http
    if scope.kind == "user":
        return ctx.user(scope.short).http
    if scope.kind == "organization":
        return org_owner(ctx, scope.short).http
    return owner_api(ctx, ctx.repo(scope.short)).http


def _set_disabled(ctx: ScenarioContext, disabled: bool) -> None:
    ctx.response = _manager_http(ctx).patch(_runner_path(ctx), json={"disabled": disabled})


@given(phrase('the mock runner of "{short}" is registered at {scope:Scope}'))
def given_runner_at_scope(
    ctx: ScenarioContext,
    identities: IdentityFactory,
    target: Target,
    request: pytest.FixtureRequest,
    *,
    short: str,
    scope: ScopeRef,
) -> None:
    """Register the scenario's mock runner with the scope's registration token and a label of its own.

    The label is unique to the scenario, so a runner of a shared instance takes only this
    scenario's jobs; an instance runner is deleted when the scenario ends (no account owns it).
    """
    where = scope
    state = world(ctx)
    state.repo = identities.repo(short)
    state.runner_name = ctx.real_name("runner")
    state.runner_labels = [ctx.real_name("label")]
    session = RecordingSession(ctx.admin.http.recorder)
    token = registration_token_at(ctx, where)
    registered = RunnerClient(target.base_url, session=session).register(token, state.runner_name, state.runner_labels)
    ctx.admin.http.recorder.add_secret(registered.token)
    state.runner = RunnerClient(target.base_url, registered.uuid, registered.token, session=session)
    state.values[RUNNER_ID] = int(registered.id)
    state.values[RUNNER_SCOPE] = where
    if where.kind == "instance":
        admin_http = ctx.admin.http
        request.addfinalizer(lambda: admin_http.delete(f"admin/actions/runners/{int(registered.id)}"))


# ---------------------------------------------------------------- Given / When


@given(phrase("the mock runner has been disabled"))
def given_disabled(ctx: ScenarioContext) -> None:
    """Disable the runner over REST; the PATCH must succeed."""
    _set_disabled(ctx, True)
    response = ctx.last_response()
    assert response.status_code == 200, f"disabling the runner answered {response.status_code}: {response.text[:300]}"


@when(phrase("the repository's owner {action:Toggle} the mock runner"))
def when_toggle(ctx: ScenarioContext, action: str) -> None:
    _set_disabled(ctx, action == "disables")


@when(phrase("the manager of the runner's scope {action:Toggle} the mock runner"))
def when_manager_toggles(ctx: ScenarioContext, action: str) -> None:
    """PATCH at the runner's scope by the administrator, the user or the organization's owner."""
    _set_disabled(ctx, action == "disables")


@given(phrase('the run of "{file_name}" waits for a runner'))
def given_run_waits(ctx: ScenarioContext, file_name: str) -> None:
    """The run exists and is queued, so a poll made from now on sees its job."""
    run = find_run(ctx, the_repo(ctx), file_name)
    assert run.get("status") == "queued", f'the run of "{file_name}" is {run.get("status")!r}, not queued'


@when(phrase("the mock runner polls for a task once"))
def when_poll_once(ctx: ScenarioContext) -> None:
    """One FetchTask, as act_runner's poll: the runner calls the instance (and so is online)."""
    world(ctx).values[POLLED] = _fetch(the_runner(ctx), 1)


@when(phrase('the mock runner polls for a task while the run of "{file_name}" waits'))
def when_poll_while_waiting(ctx: ScenarioContext, file_name: str) -> None:
    """FetchTask a few times once the run (and so its job) exists; keep any task handed out.

    FetchTask assigns a waiting job in the call itself (Gitea's ``CreateTaskForRunner``, and the
    reference's ``pick_task``), and ``tasks_version`` 0 makes the server look at the queue on every
    call, so polls made after the run exists see the job; waiting seconds more would prove nothing more.
    """
    find_run(ctx, the_repo(ctx), file_name)
    world(ctx).values[POLLED] = _fetch(the_runner(ctx), FETCHES_WHILE_WAITING)


def _fetch(runner: RunnerClient, times: int) -> list[runner_pb2.Task]:
    """Up to ``times`` FetchTask calls with tasks_version 0, a short pause apart; stop at a handed-out task."""
    handed: list[runner_pb2.Task] = []
    for attempt in range(times):
        if attempt:
            time.sleep(FETCH_PAUSE_SECONDS)
        task, _ = runner.fetch_task(0, timeout=5.0)
        if task is not None:
            handed.append(task)
            break
    return handed


@when(phrase("the repository's owner reads the mock runner"))
def when_read_runner(ctx: ScenarioContext) -> None:
    ctx.response = _manager_http(ctx).get(_runner_path(ctx))


# ---------------------------------------------------------------- Then


@then(phrase("the mock runner was given no task"))
def then_no_task(ctx: ScenarioContext) -> None:
    polled = world(ctx).values.get(POLLED)
    assert isinstance(polled, list), "the mock runner did not poll: add `When the mock runner polls for a task ...`"
    assert not polled, f"the runner was handed task {polled[0].id} while it is disabled"


def _runner_view(ctx: ScenarioContext) -> dict[str, Any]:
    response = _manager_http(ctx).get(_runner_path(ctx))
    assert response.status_code == 200, f"reading the runner answered {response.status_code}: {response.text[:300]}"
    body = json_of(response)
    assert isinstance(body, dict), f"the runner is not a JSON object: {response.text[:300]}"
    return body


@then(phrase("the mock runner is registered, {status:Online}, {busy:Busy} and {disabled:Toggled}"))
def then_runner_state(ctx: ScenarioContext, status: str, busy: str, disabled: str) -> None:
    """The runner's REST view: ``status``, ``busy`` and ``disabled`` all as stated."""
    view = _runner_view(ctx)
    seen = (view.get("status"), view.get("busy"), view.get("disabled"))
    expected = (status, busy == "busy", disabled == "disabled")
    assert seen == expected, f"(status, busy, disabled) is {seen}, expected {expected}"


@then(phrase('the mock runner holds a job of the run of "{file_name}"'))
def then_holds_job_of(ctx: ScenarioContext, file_name: str) -> None:
    held = held_job(ctx)
    run = find_run(ctx, the_repo(ctx), file_name)
    assert held.run_id == run.get("id"), f"the runner holds a job of run {held.run_id}, not of run {run.get('id')}"


@when(phrase("the mock runner daemon runs once, waiting at most {seconds:d} seconds for a task"))
def when_daemon_once(ctx: ScenarioContext, tmp_path: Path, seconds: int) -> None:
    """The real daemon (declare, poll, execute in host mode, report) with the scenario runner's identity."""
    state = world(ctx)
    runner = the_runner(ctx)
    runner_file = tmp_path / ".runner"
    labels = list(state.runner_labels)
    identity = RunnerFile(
        mock_runner_id(ctx), runner.uuid, state.runner_name, runner.token, runner.instance_url, labels
    )
    identity.save(runner_file)
    daemon = Daemon(runner_file, workdir=tmp_path / "work", fetch_interval=0.5, fetch_timeout=2.0)
    state.values[DAEMON_RAN] = daemon.run_once(timeout=seconds)


def _daemon_outcome(ctx: ScenarioContext) -> TaskOutcome | None:
    values = world(ctx).values
    assert DAEMON_RAN in values, "the daemon did not run: add `When the mock runner daemon runs once ...`"
    outcome = values[DAEMON_RAN]
    assert outcome is None or isinstance(outcome, TaskOutcome)
    return outcome


@then(phrase("the daemon took no task"))
def then_daemon_idle(ctx: ScenarioContext) -> None:
    outcome = _daemon_outcome(ctx)
    assert outcome is None, f"the daemon ran task {outcome.task_id if outcome else 0} while its runner is disabled"


@then(phrase("the daemon ran a task to success"))
def then_daemon_success(ctx: ScenarioContext) -> None:
    outcome = _daemon_outcome(ctx)
    assert outcome is not None, "the daemon got no task"
    assert outcome.result == runner_pb2.RESULT_SUCCESS, f"the daemon reported result {outcome.result}"

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from forge_proto import runner_pb2
from pytest_bdd import given, then, when

from conformance.api.artifacts import RecordingSession
from conformance.client import HttpClient
from conformance.context import ScenarioContext
from conformance.identities import IdentityFactory
from conformance.target import Target
from mock_runner.daemon import Daemon, TaskOutcome
from mock_runner.protocol import RunnerClient
from mock_runner.runnerfile import RunnerFile
from steps.ci import CiWorld, find_run, owner_actions
from steps.common import expect_status
from steps.parsing import phrase
from steps.scopes import ScopeRef, prefix_of, registration_token_at, scope_manager

__all__ = ["mock_runner_id"]

FETCHES_WHILE_WAITING = 3
FETCH_PAUSE_SECONDS = 0.1


@dataclass
class RunnerStates:
    """The mock runner's REST id and scope (when registered at a scope), and what its polls and its daemon got."""

    runner_id: int | None = None
    scope: ScopeRef | None = None
    polled: list[runner_pb2.Task] | None = None
    daemon_ran: bool = False
    daemon_outcome: TaskOutcome | None = None


@pytest.fixture
def runner_states() -> RunnerStates:
    """The scenario's runner-state notes."""
    return RunnerStates()


def _scope(ci_world: CiWorld, runner_states: RunnerStates) -> ScopeRef:
    """The mock runner's scope: as registered, else its repository's."""
    return runner_states.scope or ScopeRef("repository", ci_world.repository().short)


def mock_runner_id(ci_world: CiWorld, runner_states: RunnerStates) -> int:
    """The REST id of the scenario's mock runner: from Register's answer, else found by name in its repository."""
    if runner_states.runner_id is not None:
        return runner_states.runner_id
    ctx, repo = ci_world.ctx, ci_world.repository()
    response = owner_actions(ctx, repo).list_runners(repo.owner, repo.name)
    for item in expect_status(response, 200, "list the runners").get("runners") or []:
        if item.get("name") == ci_world.runner_name:
            runner_states.runner_id = int(item["id"])
            return runner_states.runner_id
    raise AssertionError(f"the mock runner {ci_world.runner_name!r} is not listed in {repo.full_name}")


def _runner_path(ci_world: CiWorld, runner_states: RunnerStates) -> str:
    scope = _scope(ci_world, runner_states)
    return f"{prefix_of(ci_world.ctx, scope)}/runners/{mock_runner_id(ci_world, runner_states)}"


def _manager_http(ci_world: CiWorld, runner_states: RunnerStates) -> HttpClient:
    """Who manages the runner's scope: the admin, the user, the organization's owner, the repository's owner."""
    return scope_manager(ci_world.ctx, _scope(ci_world, runner_states)).http


def _set_disabled(ctx: ScenarioContext, ci_world: CiWorld, runner_states: RunnerStates, disabled: bool) -> None:
    path = _runner_path(ci_world, runner_states)
    ctx.response = _manager_http(ci_world, runner_states).patch(path, json={"disabled": disabled})


@given(phrase('the mock runner of "{short}" is registered at {scope:Scope}'))
def given_runner_at_scope(
    runner_states: RunnerStates,
    ci_world: CiWorld,
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
    ctx, where, state = ci_world.ctx, scope, ci_world
    state.repo = identities.repo(short)
    state.runner_name = ctx.real_name("runner")
    state.runner_labels = [ctx.real_name("label")]
    session = RecordingSession(ctx.admin.http.recorder)
    token = registration_token_at(ctx, where)
    registered = RunnerClient(target.base_url, session=session).register(token, state.runner_name, state.runner_labels)
    ctx.admin.http.recorder.add_secret(registered.token)
    state.runner = RunnerClient(target.base_url, registered.uuid, registered.token, session=session)
    runner_states.runner_id = int(registered.id)
    runner_states.scope = where
    if where.kind == "instance":
        admin_http = ctx.admin.http
        request.addfinalizer(lambda: admin_http.delete(f"admin/actions/runners/{int(registered.id)}"))


# ---------------------------------------------------------------- Given / When


@given(phrase("the mock runner has been disabled"))
def given_disabled(ctx: ScenarioContext, runner_states: RunnerStates, ci_world: CiWorld) -> None:
    """Disable the runner over REST; the PATCH must succeed."""
    _set_disabled(ctx, ci_world, runner_states, True)
    response = ctx.last_response()
    assert response.status_code == 200, f"disabling the runner answered {response.status_code}: {response.text[:300]}"


@when(phrase("the repository's owner {action:Toggle} the mock runner"))
def when_toggle(ctx: ScenarioContext, runner_states: RunnerStates, ci_world: CiWorld, action: str) -> None:
    _set_disabled(ctx, ci_world, runner_states, action == "disables")


@when(phrase("the manager of the runner's scope {action:Toggle} the mock runner"))
def when_manager_toggles(ctx: ScenarioContext, runner_states: RunnerStates, ci_world: CiWorld, action: str) -> None:
    """PATCH at the runner's scope by the administrator, the user or the organization's owner."""
    _set_disabled(ctx, ci_world, runner_states, action == "disables")


@given(phrase('the run of "{file_name}" waits for a runner'))
def given_run_waits(ctx: ScenarioContext, ci_world: CiWorld, file_name: str) -> None:
    """The run exists and is queued, so a poll made from now on sees its job."""
    run = find_run(ctx, ci_world.repository(), file_name)
    assert run.get("status") == "queued", f'the run of "{file_name}" is {run.get("status")!r}, not queued'


@when(phrase("the mock runner polls for a task once"))
def when_poll_once(runner_states: RunnerStates, ci_world: CiWorld) -> None:
    """One FetchTask, as act_runner's poll: the runner calls the instance (and so is online)."""
    runner_states.polled = _fetch(ci_world.mock_runner(), 1)


@when(phrase('the mock runner polls for a task while the run of "{file_name}" waits'))
def when_poll_while_waiting(
    ctx: ScenarioContext, runner_states: RunnerStates, ci_world: CiWorld, file_name: str
) -> None:
    """FetchTask a few times once the run (and so its job) exists; keep any task handed out.

    FetchTask assigns a waiting job in the call itself (Gitea's ``CreateTaskForRunner``, and the
    reference's ``pick_task``), and ``tasks_version`` 0 makes the server look at the queue on every
    call, so polls made after the run exists see the job; waiting seconds more would prove nothing more.
    """
    find_run(ctx, ci_world.repository(), file_name)
    runner_states.polled = _fetch(ci_world.mock_runner(), FETCHES_WHILE_WAITING)


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
def when_read_runner(ctx: ScenarioContext, runner_states: RunnerStates, ci_world: CiWorld) -> None:
    ctx.response = _manager_http(ci_world, runner_states).get(_runner_path(ci_world, runner_states))


# ---------------------------------------------------------------- Then


@then(phrase("the mock runner was given no task"))
def then_no_task(runner_states: RunnerStates) -> None:
    polled = runner_states.polled
    assert polled is not None, "the mock runner did not poll: add `When the mock runner polls for a task ...`"
    assert not polled, f"the runner was handed task {polled[0].id} while it is disabled"


def _runner_view(ci_world: CiWorld, runner_states: RunnerStates) -> dict[str, Any]:
    response = _manager_http(ci_world, runner_states).get(_runner_path(ci_world, runner_states))
    body = expect_status(response, 200, "read the runner")
    assert isinstance(body, dict), f"the runner is not a JSON object: {response.text[:300]}"
    return body


@then(phrase("the mock runner is registered, {status:Online}, {busy:Busy} and {disabled:Toggled}"))
def then_runner_state(runner_states: RunnerStates, ci_world: CiWorld, *, status: str, busy: str, disabled: str) -> None:
    """The runner's REST view: ``status``, ``busy`` and ``disabled`` all as stated."""
    view = _runner_view(ci_world, runner_states)
    seen = (view.get("status"), view.get("busy"), view.get("disabled"))
    expected = (status, busy == "busy", disabled == "disabled")
    assert seen == expected, f"(status, busy, disabled) is {seen}, expected {expected}"


@then(phrase('the mock runner holds a job of the run of "{file_name}"'))
def then_holds_job_of(ctx: ScenarioContext, ci_world: CiWorld, file_name: str) -> None:
    held = ci_world.held_job()
    run = find_run(ctx, ci_world.repository(), file_name)
    assert held.run_id == run.get("id"), f"the runner holds a job of run {held.run_id}, not of run {run.get('id')}"


@when(phrase("the mock runner daemon runs once, waiting at most {seconds:d} seconds for a task"))
def when_daemon_once(runner_states: RunnerStates, ci_world: CiWorld, tmp_path: Path, seconds: int) -> None:
    """The real daemon (declare, poll, execute in host mode, report) with the scenario runner's identity."""
    state = ci_world
    runner = ci_world.mock_runner()
    runner_file = tmp_path / ".runner"
    labels = list(state.runner_labels)
    identity = RunnerFile(
        mock_runner_id(ci_world, runner_states),
        runner.uuid,
        state.runner_name,
        runner.token,
        runner.instance_url,
        labels,
    )
    identity.save(runner_file)
    daemon = Daemon(runner_file, workdir=tmp_path / "work", fetch_interval=0.5, fetch_timeout=2.0)
    runner_states.daemon_outcome = daemon.run_once(timeout=seconds)
    runner_states.daemon_ran = True


def _daemon_outcome(runner_states: RunnerStates) -> TaskOutcome | None:
    assert runner_states.daemon_ran, "the daemon did not run: add `When the mock runner daemon runs once ...`"
    return runner_states.daemon_outcome


@then(phrase("the daemon took no task"))
def then_daemon_idle(runner_states: RunnerStates) -> None:
    outcome = _daemon_outcome(runner_states)
    assert outcome is None, f"the daemon ran task {outcome.task_id if outcome else 0} while its runner is disabled"


@then(phrase("the daemon ran a task to success"))
def then_daemon_success(runner_states: RunnerStates) -> None:
    outcome = _daemon_outcome(runner_states)
    assert outcome is not None, "the daemon got no task"
    assert outcome.result == runner_pb2.RESULT_SUCCESS, f"the daemon reported result {outcome.result}"

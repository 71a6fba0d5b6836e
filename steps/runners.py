"""Steps of runner registration tokens over REST and of the runner protocol (Ping, Register, Declare, FetchTask...).

A runner call's outcome (its reply or its error) is kept in the CI world so Then steps only assert;
what a When step sent that a Then compares with (the registered name, the tasks version sent) and the
registration tokens a Given step obtained are kept in :class:`RunnerCalls`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from forge_proto import runner_pb2
from google.protobuf.timestamp_pb2 import Timestamp
from pytest_bdd import given, then, when

from conformance.api.actions import ActionsApi
from conformance.api.artifacts import RecordingSession
from conformance.client import json_of
from conformance.context import ScenarioContext
from conformance.identities import IdentityFactory
from conformance.target import Target
from mock_runner.artifacts import backend_ids
from mock_runner.protocol import RUNNER_SERVICE, RunnerClient
from steps.actors import scoped_token_api
from steps.ci import RESULTS, CiWorld, RunnerOutcome, owner_actions, registration_token
from steps.parsing import phrase

__all__: list[str] = []


@dataclass
class RunnerCalls:
    """What runner-protocol When steps sent, for the Then steps to compare with."""

    registration_tokens: dict[str, str] = field(default_factory=dict)
    registered_name: str = ""
    sent_tasks_version: int | None = None


@pytest.fixture
def runner_calls() -> RunnerCalls:
    """The scenario's runner-protocol notes."""
    return RunnerCalls()


def _session(ctx: ScenarioContext) -> RecordingSession:
    return RecordingSession(ctx.admin.http.recorder)


def _labels(text: str) -> list[str]:
    return [label.strip() for label in text.split(",") if label.strip()]


def _outcome(ci_world: CiWorld) -> RunnerOutcome:
    found = ci_world.outcome
    assert found is not None, "no runner call was made yet: a When step must come first"
    return found


def _reply(ci_world: CiWorld) -> Any:
    outcome = _outcome(ci_world)
    assert outcome.error is None, f"the runner call failed: {outcome.error}"
    return outcome.reply


# ---------------------------------------------------------------- registration tokens over REST


@when(phrase("the repository's owner requests a registration token with {method:w}"))
def request_registration_token(ctx: ScenarioContext, ci_world: CiWorld, method: str) -> None:
    """POST (current) or GET (legacy) .../actions/runners/registration-token."""
    repo = ci_world.repository()
    ctx.response = owner_actions(ctx, repo).registration_token(repo.owner, repo.name, method=method)


@when(phrase("the repository's owner requests a registration token with {method:w} and a read-only token"))
def request_registration_token_read_only(
    ctx: ScenarioContext, ci_world: CiWorld, identities: IdentityFactory, method: str
) -> None:
    """The same with a token scoped read:repository only."""
    repo = ci_world.repository()
    api = scoped_token_api(ctx, identities, repo.short.split("/", 1)[0], ["read:repository"]).area(ActionsApi)
    ctx.response = api.registration_token(repo.owner, repo.name, method=method)


@then(phrase("the registration token is not empty"))
def then_registration_token(ctx: ScenarioContext) -> None:
    """The body's token is a non-empty string."""
    token = json_of(ctx.last_response()).get("token")
    assert isinstance(token, str) and token.strip(), f"token is {token!r}"


@given(phrase("the repository's registration token has been replaced by a new one"))
def given_token_replaced(ctx: ScenarioContext, ci_world: CiWorld, runner_calls: RunnerCalls) -> None:
    """The active token, invalidated with DELETE (a reference extension), then a new one with POST."""
    repo = ci_world.repository()
    first = registration_token(ctx, repo)
    replaced = owner_actions(ctx, repo).replace_registration_token(repo.owner, repo.name)
    assert replaced.status_code == 204, f"replacing the token answered {replaced.status_code}: {replaced.text[:200]}"
    second = registration_token(ctx, repo)
    assert first != second, "a second POST of a registration token gave the same token: it was not replaced"
    runner_calls.registration_tokens = {"replaced": first, "current": second}


@when(phrase("the repository's owner lists the repository's runners"))
def list_runners(ctx: ScenarioContext, ci_world: CiWorld) -> None:
    """GET .../actions/runners."""
    repo = ci_world.repository()
    ctx.response = owner_actions(ctx, repo).list_runners(repo.owner, repo.name)


@then(phrase('the REST runner list holds the mock runner with the labels "{labels}"'))
def then_runner_listed(ctx: ScenarioContext, ci_world: CiWorld, labels: str) -> None:
    """The registered runner is listed by name, with its labels."""
    body = json_of(ctx.last_response())
    name = ci_world.runner_name
    runner = next((item for item in body["runners"] if item.get("name") == name), None)
    assert runner is not None, f"runner {name!r} is not listed: {[item.get('name') for item in body['runners']]}"
    assert sorted(label.get("name") for label in runner["labels"]) == sorted(_labels(labels)), runner["labels"]


# ---------------------------------------------------------------- the runner protocol


@when(phrase('a runner pings the instance with "{data}"'))
def ping(ctx: ScenarioContext, ci_world: CiWorld, target: Target, data: str) -> None:
    """PingService/Ping without credentials."""
    ci_world.record(lambda: RunnerClient(target.base_url, session=_session(ctx)).ping(data))


@when(phrase('a runner pings the instance with "{data}" in Connect JSON'))
def ping_json(ctx: ScenarioContext, ci_world: CiWorld, target: Target, data: str) -> None:
    """PingService/Ping with application/json bodies."""
    ci_world.record(lambda: RunnerClient(target.base_url, codec="json", session=_session(ctx)).ping(data))


@when(phrase('a runner calls the procedure "{method}" of the runner service'))
def call_unknown_procedure(ctx: ScenarioContext, ci_world: CiWorld, target: Target, method: str) -> None:
    """A Connect call to ``runner.v1.RunnerService/<method>`` with an empty message, as a newer runner might."""
    client = RunnerClient(target.base_url, session=_session(ctx))
    request, reply = runner_pb2.DeclareRequest(), runner_pb2.DeclareResponse()
    ci_world.record(lambda: client.call(RUNNER_SERVICE, method, request, reply))


def _register(
    ci_world: CiWorld, runner_calls: RunnerCalls, target: Target, *, token: str, name: str, labels: str
) -> None:
    ctx = ci_world.ctx
    real = ctx.real_name(name)
    runner_calls.registered_name = real
    client = RunnerClient(target.base_url, session=_session(ctx))
    ci_world.record(lambda: client.register(token, real, _labels(labels)))


@when(phrase('a runner registers with the repository\'s registration token as "{name}" with the labels "{labels}"'))
def register_with_repo_token(
    ci_world: CiWorld, runner_calls: RunnerCalls, target: Target, name: str, labels: str
) -> None:
    """Register with a token just obtained over REST."""
    token = registration_token(ci_world.ctx, ci_world.repository())
    _register(ci_world, runner_calls, target, token=token, name=name, labels=labels)


@when(phrase('a runner registers with the registration token "{token}" as "{name}" with the labels "{labels}"'))
def register_with_token(
    ci_world: CiWorld, runner_calls: RunnerCalls, target: Target, *, token: str, name: str, labels: str
) -> None:
    """Register with a given (empty or unknown) token."""
    _register(ci_world, runner_calls, target, token=token, name=name, labels=labels)


@when(phrase('a runner registers with the {which:w} registration token as "{name}" with the labels "{labels}"'))
def register_with_replaced(
    ci_world: CiWorld, runner_calls: RunnerCalls, target: Target, *, which: str, name: str, labels: str
) -> None:
    """Register with the replaced or the current token of the scope."""
    tokens = runner_calls.registration_tokens
    assert which in tokens, "add `Given the repository's registration token has been replaced`"
    _register(ci_world, runner_calls, target, token=tokens[which], name=name, labels=labels)


@when(
    phrase(
        'a runner registers with the repository\'s current registration token as "{name}" with the labels "{labels}"'
    )
)
def register_with_current(ci_world: CiWorld, runner_calls: RunnerCalls, target: Target, name: str, labels: str) -> None:
    """Register with the token that replaced the old one."""
    register_with_replaced(ci_world, runner_calls, target, which="current", name=name, labels=labels)


@when(phrase('the mock runner declares the labels "{labels}" and the version "{version}"'))
def declare(ci_world: CiWorld, labels: str, version: str) -> None:
    """RunnerService/Declare."""
    runner = ci_world.mock_runner()
    ci_world.record(lambda: runner.declare(_labels(labels), version))


@when(phrase("the mock runner fetches a task with tasks version {version:d}"))
def fetch_with_version(ci_world: CiWorld, runner_calls: RunnerCalls, version: int) -> None:
    """FetchTask with an explicit tasks_version."""
    runner = ci_world.mock_runner()
    ci_world.record(lambda: runner.fetch_task(version, timeout=5.0))
    runner_calls.sent_tasks_version = version


@when(phrase("the mock runner fetches a task with the tasks version it was given"))
def fetch_with_given_version(ci_world: CiWorld, runner_calls: RunnerCalls) -> None:
    """FetchTask with the tasks_version of the previous answer."""
    previous = _reply(ci_world)
    fetch_with_version(ci_world, runner_calls, int(previous[1]))


@when(phrase("the mock runner fetches a task with a wrong runner token"))
def fetch_with_wrong_token(ci_world: CiWorld, target: Target) -> None:
    """FetchTask with the runner's uuid and a made-up x-runner-token."""
    runner = ci_world.mock_runner()
    forged = RunnerClient(target.base_url, runner.uuid, "f" * 40, session=_session(ci_world.ctx))
    ci_world.record(lambda: forged.fetch_task(0, timeout=5.0))


@when(phrase("the mock runner sends {count:d} log rows from index {index:d}"))
def send_log_rows(ci_world: CiWorld, count: int, index: int) -> None:
    """UpdateLog with ``count`` rows numbered from ``index``."""
    job = ci_world.held_job()
    now = Timestamp()
    now.GetCurrentTime()
    rows = [runner_pb2.LogRow(time=now, content=f"line {index + number}") for number in range(count)]
    ci_world.record(lambda: job.runner.update_log(job.task_id, index, rows, no_more=False))


@then(phrase('the runner call answers "{text}"'))
def then_runner_answers(ci_world: CiWorld, text: str) -> None:
    """The reply is exactly this text (Ping)."""
    assert _reply(ci_world) == text, f"the answer is {_reply(ci_world)!r}, expected {text!r}"


@then(phrase("the runner call succeeds"))
def then_runner_call_succeeds(ci_world: CiWorld) -> None:
    """The last runner call raised no error."""
    _reply(ci_world)


@then(phrase("the runner call is refused"))
def then_runner_call_refused(ci_world: CiWorld) -> None:
    """The call failed with an HTTP error status (not a dropped connection)."""
    error = _outcome(ci_world).error
    assert error is not None, f"the runner call succeeded: {_outcome(ci_world).reply}"
    assert error.status >= 400, f"the call failed without an HTTP error status: {error}"


@then(phrase('the runner call fails with status {status:d} and Connect code "{code}"'))
def then_runner_call_fails(ci_world: CiWorld, status: int, code: str) -> None:
    """The HTTP status and the Connect error code."""
    error = _outcome(ci_world).error
    assert error is not None, f"the runner call succeeded: {_outcome(ci_world).reply}"
    assert (error.status, error.code) == (status, code), f"got {error.status} {error.code!r}: {error.message}"


@then(phrase('the runner call fails with the Connect code "{code}"'))
def then_runner_call_fails_with_code(ci_world: CiWorld, code: str) -> None:
    """The Connect code as a connect-go client reads it (from the JSON error, or from a bare HTTP status)."""
    error = _outcome(ci_world).error
    assert error is not None, f"the runner call succeeded: {_outcome(ci_world).reply}"
    assert error.code == code, f"got {error.status} {error.code!r}, expected {code!r}: {error.message}"


@then(phrase('the registered runner has a uuid, a token and the name "{name}" with the labels "{labels}"'))
def then_registered(runner_calls: RunnerCalls, ci_world: CiWorld, name: str, labels: str) -> None:
    """The Register reply's identity."""
    runner: runner_pb2.Runner = _reply(ci_world)
    assert runner.uuid and runner.token, "the registered runner has no uuid or token"
    assert runner.name == runner_calls.registered_name, f"name is {runner.name!r}, expected {name!r} (prefixed)"
    assert sorted(runner.labels) == sorted(_labels(labels)), f"labels are {list(runner.labels)}"


@then(phrase('the declared runner has the labels "{labels}" and the version "{version}"'))
def then_declared(ci_world: CiWorld, labels: str, version: str) -> None:
    """The Declare reply reflects the declaration."""
    runner: runner_pb2.Runner = _reply(ci_world)
    assert sorted(runner.labels) == sorted(_labels(labels)), f"labels are {list(runner.labels)}"
    assert runner.version == version, f"version is {runner.version!r}"


@then(phrase("no task is handed out and the tasks version is positive"))
def then_no_task_positive(ci_world: CiWorld) -> None:
    """No task, and a tasks_version above 0 (0 would mean a server without versions)."""
    task, version = _reply(ci_world)
    assert task is None, f"a task was handed out: {task.id}"
    assert version > 0, f"tasks_version is {version}"


@then(phrase("no task is handed out and the tasks version is unchanged"))
def then_no_task_unchanged(ci_world: CiWorld, runner_calls: RunnerCalls) -> None:
    """Asking with the current version and nothing new gives the same version (the one sent) and no task."""
    task, version = _reply(ci_world)
    assert task is None, f"a task was handed out: {task.id}"
    sent = runner_calls.sent_tasks_version
    assert sent is not None and sent > 0, (
        "add `When the mock runner fetches a task with the tasks version it was given`"
    )
    assert version == sent, f"tasks_version moved from {sent} to {version}"


@then(phrase("a task is handed out with a runtime token for its run"))
def then_task_handed_out(ci_world: CiWorld) -> None:
    """A task with a workflow payload and a runtime token scoped to its run and job."""
    task, _ = _reply(ci_world)
    assert task is not None, "no task was handed out after the push"
    assert task.workflow_payload, "the task has no workflow payload"
    token = task.context.fields["gitea_runtime_token"].string_value
    run_id, job_id = backend_ids(token)
    assert run_id.isdigit() and job_id.isdigit(), f"the runtime token's scope names run {run_id!r}, job {job_id!r}"


@then(phrase('the UpdateTask reply carries the result "{result}"'))
def then_update_task_result(ci_world: CiWorld, result: str) -> None:
    """UpdateTask echoes the recorded result."""
    reply = _reply(ci_world)
    assert isinstance(reply, runner_pb2.UpdateTaskResponse), f"the last runner call was not UpdateTask: {reply!r}"
    assert reply.state.result == RESULTS[result], f"the reply carries result {reply.state.result}"


@then(phrase("the log acknowledgement index is {index:d}"))
def then_ack_index(ci_world: CiWorld, index: int) -> None:
    """UpdateLog's ack_index: the number of rows stored so far."""
    assert _reply(ci_world) == index, f"ack_index is {_reply(ci_world)}, expected {index}"

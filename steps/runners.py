"""Steps of runner registration tokens over REST and of the runner protocol (Ping, Register, Declare, FetchTask...).

A runner call's outcome (its reply or its error) is kept in the CI world so Then steps only assert.
"""

from __future__ import annotations

from typing import Any

from forge_proto import runner_pb2
from google.protobuf.timestamp_pb2 import Timestamp
from pytest_bdd import given, then, when

from conformance.api.actions import ActionsApi
from conformance.api.artifacts import RecordingSession
from conformance.client import TokenAuth, json_of
from conformance.context import ScenarioContext
from conformance.identities import IdentityFactory
from conformance.schemas import validate
from conformance.target import Target
from mock_runner.artifacts import backend_ids
from mock_runner.protocol import RunnerCallError, RunnerClient
from steps.ci import RESULTS, RunnerOutcome, actions_of, held_job, registration_token, the_repo, the_runner, world
from steps.parsing import phrase

__all__: list[str] = []


def _session(ctx: ScenarioContext) -> RecordingSession:
    return RecordingSession(ctx.admin.http.recorder)


def _labels(text: str) -> list[str]:
    return [label.strip() for label in text.split(",") if label.strip()]


def _outcome(ctx: ScenarioContext) -> RunnerOutcome:
    found = world(ctx).values.get("runner outcome")
    assert isinstance(found, RunnerOutcome), "no runner call was made yet: a When step must come first"
    return found


def _record(ctx: ScenarioContext, call: Any) -> None:
    try:
        world(ctx).values["runner outcome"] = RunnerOutcome(reply=call())
    except RunnerCallError as error:
        world(ctx).values["runner outcome"] = RunnerOutcome(error=error)


def _reply(ctx: ScenarioContext) -> Any:
    outcome = _outcome(ctx)
    assert outcome.error is None, f"the runner call failed: {outcome.error}"
    return outcome.reply


# ---------------------------------------------------------------- registration tokens over REST


@when(phrase("the repository's owner requests a registration token with {method:w}"))
def request_registration_token(ctx: ScenarioContext, method: str) -> None:
    """POST (current) or GET (legacy) .../actions/runners/registration-token."""
    repo = the_repo(ctx)
    ctx.response = actions_of(ctx, repo).registration_token(repo.owner, repo.name, method=method)


@when(phrase("the repository's owner requests a registration token with {method:w} and a read-only token"))
def request_registration_token_read_only(ctx: ScenarioContext, identities: IdentityFactory, method: str) -> None:
    """The same with a token scoped read:repository only."""
    repo = the_repo(ctx)
    owner = repo.short.split("/", 1)[0]
    token = identities.token_for(owner, ctx.real_name("read-only"), ["read:repository"])
    api = ctx.user(owner).client(TokenAuth(token.value)).area(ActionsApi)
    ctx.response = api.registration_token(repo.owner, repo.name, method=method)


@then(phrase("the registration token is not empty"))
def then_registration_token(ctx: ScenarioContext) -> None:
    """The body's token is a non-empty string."""
    token = json_of(ctx.last_response()).get("token")
    assert isinstance(token, str) and token.strip(), f"token is {token!r}"


@given(phrase("the repository's registration token has been replaced by a new one"))
def given_token_replaced(ctx: ScenarioContext) -> None:
    """The active token, invalidated with DELETE (a reference extension), then a new one with POST."""
    repo = the_repo(ctx)
    first = registration_token(ctx, repo)
    replaced = actions_of(ctx, repo).replace_registration_token(repo.owner, repo.name)
    assert replaced.status_code == 204, f"replacing the token answered {replaced.status_code}: {replaced.text[:200]}"
    second = registration_token(ctx, repo)
    assert first != second, "a second POST of a registration token gave the same token: it was not replaced"
    world(ctx).values["registration tokens"] = {"replaced": first, "current": second}


@when(phrase("the repository's owner lists the repository's runners"))
def list_runners(ctx: ScenarioContext) -> None:
    """GET .../actions/runners."""
    repo = the_repo(ctx)
    ctx.response = actions_of(ctx, repo).list_runners(repo.owner, repo.name)


@then(phrase('the REST runner list holds the mock runner with the labels "{labels}"'))
def then_runner_listed(ctx: ScenarioContext, labels: str) -> None:
    """The registered runner is listed by name, with its labels."""
    body = json_of(ctx.last_response())
    validate(body, "action_runner_list")
    name = world(ctx).runner_name
    runner = next((item for item in body["runners"] if item.get("name") == name), None)
    assert runner is not None, f"runner {name!r} is not listed: {[item.get('name') for item in body['runners']]}"
    assert sorted(label.get("name") for label in runner["labels"]) == sorted(_labels(labels)), runner["labels"]


# ---------------------------------------------------------------- the runner protocol


@when(phrase('a runner pings the instance with "{data}"'))
def ping(ctx: ScenarioContext, target: Target, data: str) -> None:
    """PingService/Ping without credentials."""
    _record(ctx, lambda: RunnerClient(target.base_url, session=_session(ctx)).ping(data))


@when(phrase('a runner pings the instance with "{data}" in Connect JSON'))
def ping_json(ctx: ScenarioContext, target: Target, data: str) -> None:
    """PingService/Ping with application/json bodies."""
    _record(ctx, lambda: RunnerClient(target.base_url, codec="json", session=_session(ctx)).ping(data))


def _register(ctx: ScenarioContext, target: Target, token: str, name: str, labels: str) -> None:
    real = ctx.real_name(name)
    world(ctx).values["registered name"] = real
    _record(ctx, lambda: RunnerClient(target.base_url, session=_session(ctx)).register(token, real, _labels(labels)))


@when(phrase('a runner registers with the repository\'s registration token as "{name}" with the labels "{labels}"'))
def register_with_repo_token(ctx: ScenarioContext, target: Target, name: str, labels: str) -> None:
    """Register with a token just obtained over REST."""
    _register(ctx, target, registration_token(ctx, the_repo(ctx)), name, labels)


@when(phrase('a runner registers with the registration token "{token}" as "{name}" with the labels "{labels}"'))
def register_with_token(ctx: ScenarioContext, target: Target, token: str, name: str, labels: str) -> None:
    """Register with a given (empty or unknown) token."""
    _register(ctx, target, token, name, labels)


@when(phrase('a runner registers with the {which:w} registration token as "{name}" with the labels "{labels}"'))
def register_with_replaced(ctx: ScenarioContext, target: Target, which: str, name: str, labels: str) -> None:
    """Register with the replaced or the current token of the scope."""
    tokens = world(ctx).values.get("registration tokens")
    assert isinstance(tokens, dict) and which in tokens, (
        "add `Given the repository's registration token has been replaced`"
    )
    _register(ctx, target, tokens[which], name, labels)


@when(
    phrase(
        'a runner registers with the repository\'s current registration token as "{name}" with the labels "{labels}"'
    )
)
def register_with_current(ctx: ScenarioContext, target: Target, name: str, labels: str) -> None:
    """Register with the token that replaced the old one."""
    register_with_replaced(ctx, target, "current", name, labels)


@when(phrase('the mock runner declares the labels "{labels}" and the version "{version}"'))
def declare(ctx: ScenarioContext, labels: str, version: str) -> None:
    """RunnerService/Declare."""
    _record(ctx, lambda: the_runner(ctx).declare(_labels(labels), version))


@when(phrase("the mock runner fetches a task with tasks version {version:d}"))
def fetch_with_version(ctx: ScenarioContext, version: int) -> None:
    """FetchTask with an explicit tasks_version."""
    _record(ctx, lambda: the_runner(ctx).fetch_task(version, timeout=5.0))
    world(ctx).values["sent tasks version"] = version


@when(phrase("the mock runner fetches a task with the tasks version it was given"))
def fetch_with_given_version(ctx: ScenarioContext) -> None:
    """FetchTask with the tasks_version of the previous answer."""
    previous = _reply(ctx)
    fetch_with_version(ctx, int(previous[1]))


@when(phrase("the mock runner fetches a task with a wrong runner token"))
def fetch_with_wrong_token(ctx: ScenarioContext, target: Target) -> None:
    """FetchTask with the runner's uuid and a made-up x-runner-token."""
    runner = the_runner(ctx)
    forged = RunnerClient(target.base_url, runner.uuid, "f" * 40, session=_session(ctx))
    _record(ctx, lambda: forged.fetch_task(0, timeout=5.0))


@when(phrase("the mock runner sends {count:d} log rows from index {index:d}"))
def send_log_rows(ctx: ScenarioContext, count: int, index: int) -> None:
    """UpdateLog with ``count`` rows numbered from ``index``."""
    job = held_job(ctx)
    now = Timestamp()
    now.GetCurrentTime()
    rows = [runner_pb2.LogRow(time=now, content=f"line {index + number}") for number in range(count)]
    _record(ctx, lambda: job.runner.update_log(job.task_id, index, rows, no_more=False))


@then(phrase('the runner call answers "{text}"'))
def then_runner_answers(ctx: ScenarioContext, text: str) -> None:
    """The reply is exactly this text (Ping)."""
    assert _reply(ctx) == text, f"the answer is {_reply(ctx)!r}, expected {text!r}"


@then(phrase("the runner call succeeds"))
def then_runner_call_succeeds(ctx: ScenarioContext) -> None:
    """The last runner call raised no error."""
    _reply(ctx)


@then(phrase("the runner call is refused"))
def then_runner_call_refused(ctx: ScenarioContext) -> None:
    """The call failed with an HTTP error status (not a dropped connection)."""
    error = _outcome(ctx).error
    assert error is not None, f"the runner call succeeded: {_outcome(ctx).reply}"
    assert error.status >= 400, f"the call failed without an HTTP error status: {error}"


@then(phrase('the runner call fails with status {status:d} and Connect code "{code}"'))
def then_runner_call_fails(ctx: ScenarioContext, status: int, code: str) -> None:
    """The HTTP status and the Connect error code."""
    error = _outcome(ctx).error
    assert error is not None, f"the runner call succeeded: {_outcome(ctx).reply}"
    assert (error.status, error.code) == (status, code), f"got {error.status} {error.code!r}: {error.message}"


@then(phrase('the registered runner has a uuid, a token and the name "{name}" with the labels "{labels}"'))
def then_registered(ctx: ScenarioContext, name: str, labels: str) -> None:
    """The Register reply's identity."""
    runner: runner_pb2.Runner = _reply(ctx)
    assert runner.uuid and runner.token, "the registered runner has no uuid or token"
    assert runner.name == world(ctx).values["registered name"], f"name is {runner.name!r}, expected {name!r} (prefixed)"
    assert sorted(runner.labels) == sorted(_labels(labels)), f"labels are {list(runner.labels)}"


@then(phrase('the declared runner has the labels "{labels}" and the version "{version}"'))
def then_declared(ctx: ScenarioContext, labels: str, version: str) -> None:
    """The Declare reply reflects the declaration."""
    runner: runner_pb2.Runner = _reply(ctx)
    assert sorted(runner.labels) == sorted(_labels(labels)), f"labels are {list(runner.labels)}"
    assert runner.version == version, f"version is {runner.version!r}"


@then(phrase("no task is handed out and the tasks version is positive"))
def then_no_task_positive(ctx: ScenarioContext) -> None:
    """No task, and a tasks_version above 0 (0 would mean a server without versions)."""
    task, version = _reply(ctx)
    assert task is None, f"a task was handed out: {task.id}"
    assert version > 0, f"tasks_version is {version}"
    world(ctx).values["last tasks version"] = version


@then(phrase("no task is handed out and the tasks version is unchanged"))
def then_no_task_unchanged(ctx: ScenarioContext) -> None:
    """Asking with the current version and nothing new gives the same version and no task."""
    task, version = _reply(ctx)
    assert task is None, f"a task was handed out: {task.id}"
    assert version == world(ctx).values["last tasks version"], f"tasks_version moved to {version}"


@then(phrase("a task is handed out with a runtime token for its run"))
def then_task_handed_out(ctx: ScenarioContext) -> None:
    """A task with a workflow payload and a runtime token scoped to its run and job."""
    task, _ = _reply(ctx)
    assert task is not None, "no task was handed out after the push"
    assert task.workflow_payload, "the task has no workflow payload"
    token = task.context.fields["gitea_runtime_token"].string_value
    run_id, job_id = backend_ids(token)
    assert run_id.isdigit() and job_id.isdigit(), f"the runtime token's scope names run {run_id!r}, job {job_id!r}"


@then(phrase('the UpdateTask reply carries the result "{result}"'))
def then_update_task_result(ctx: ScenarioContext, result: str) -> None:
    """UpdateTask echoes the recorded result."""
    reply = _reply(ctx)
    assert isinstance(reply, runner_pb2.UpdateTaskResponse), f"the last runner call was not UpdateTask: {reply!r}"
    assert reply.state.result == RESULTS[result], f"the reply carries result {reply.state.result}"


@then(phrase("the log acknowledgement index is {index:d}"))
def then_ack_index(ctx: ScenarioContext, index: int) -> None:
    """UpdateLog's ack_index: the number of rows stored so far."""
    assert _reply(ctx) == index, f"ack_index is {_reply(ctx)}, expected {index}"

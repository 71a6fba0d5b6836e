"""Actions at the four scopes: runners registered and managed per scope, runs and jobs listed per scope.

A scope is written as Gitea names it: ``the instance``, ``user "dev"``, ``organization "acme"`` or
``repository "dev/app"``. Each scope's routes live under its own prefix (``admin/actions``,
``user/actions``, ``orgs/{org}/actions``, ``repos/{owner}/{repo}/actions``); the user scope is
always the caller's own. Runners registered here are remembered by their short name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import requests
from forge_proto import runner_pb2
from google.protobuf import json_format
from pytest_bdd import given, then, when

from conformance.api.artifacts import RecordingSession
from conformance.client import HttpClient, json_of
from conformance.context import ScenarioContext
from conformance.identities import IdentityFactory
from conformance.target import Target
from mock_runner.protocol import RunnerClient
from steps.ci import TakenJob, actions_of, find_run, owner_api, runs_of, the_repo, the_runner, wait_for, world
from steps.common import expand
from steps.parsing import phrase, register_type

__all__ = [
    "ScopeRef",
    "parse_scope",
    "prefix_of",
    "registered_runner",
    "registration_token_at",
    "runner_id_of",
    "scope_http",
]


@dataclass(frozen=True)
class ScopeRef:
    """One of the four scopes: its kind and the short name of its user, organization or repository."""

    kind: str
    short: str = ""


@dataclass
class RegisteredRunner:
    """A runner registered over the runner protocol at some scope, with its client and REST id."""

    short: str
    name: str
    runner_id: int
    scope: ScopeRef
    client: RunnerClient


def parse_scope(text: str) -> ScopeRef:
    """``the instance``, ``user "dev"``, ``organization "acme"``, ``repository "dev/app"``."""
    if text == "the instance":
        return ScopeRef("instance")
    kind, _, rest = text.partition(" ")
    assert kind in ("user", "organization", "repository"), f"unknown scope {text!r}"
    return ScopeRef(kind, rest.strip('"'))


register_type("Scope", r'the instance|user "[^"]*"|organization "[^"]*"|repository "[^"]*"', parse_scope)


def prefix_of(ctx: ScenarioContext, scope: ScopeRef) -> str:
    """The scope's actions prefix under the API root."""
    if scope.kind == "instance":
        return "admin/actions"
    if scope.kind == "user":
        return "user/actions"
    if scope.kind == "organization":
        return f"orgs/{ctx.owner_name(scope.short)}/actions"
    return f"repos/{ctx.repo(scope.short).full_name}/actions"


def scope_http(ctx: ScenarioContext, who: str) -> HttpClient:
    """The API client of ``who``: "the admin" or a scenario user."""
    return ctx.admin.http if who == "the admin" else ctx.user(who).http


def _manager(scope: ScopeRef) -> str:
    """Who manages a scope's runners in Given steps: the user for the user scope, the admin otherwise."""
    return scope.short if scope.kind == "user" else "the admin"


def _runners(ctx: ScenarioContext) -> dict[str, RegisteredRunner]:
    found = ctx.values.setdefault("scopes:runners", {})
    assert isinstance(found, dict)
    return found


def registered_runner(ctx: ScenarioContext, short: str) -> RegisteredRunner:
    """A runner of the scenario by its short name."""
    found = _runners(ctx).get(short)
    assert found is not None, f'no runner "{short}": add `Given a mock runner "{short}" registered at ...`'
    return found


def runner_id_of(ctx: ScenarioContext, short: str) -> int:
    return registered_runner(ctx, short).runner_id


def registration_token_at(ctx: ScenarioContext, scope: ScopeRef) -> str:
    """A fresh registration token of the scope (POST), asked for by whoever manages the scope's runners."""
    http = scope_http(ctx, _manager(scope))
    response = http.post(f"{prefix_of(ctx, scope)}/runners/registration-token")
    assert response.status_code == 200, f"registration token answered {response.status_code}: {response.text[:300]}"
    token = json_of(response).get("token")
    assert isinstance(token, str) and token, f"no token in {response.text[:200]}"
    ctx.admin.http.recorder.add_secret(token)
    return token


def _ensure_scope(identities: IdentityFactory, scope: ScopeRef) -> None:
    if scope.kind == "user":
        identities.user(scope.short)
    elif scope.kind == "repository":
        identities.repo(scope.short)
    elif scope.kind == "organization":
        assert scope.short in identities.ctx.orgs, f'add `Given an organization "{scope.short}" owned by "..."`'


# ---------------------------------------------------------------- Given


@given(phrase('a mock runner "{short}" registered at {scope:Scope} with the labels "{labels}"'))
def given_scoped_runner(
    ctx: ScenarioContext, identities: IdentityFactory, target: Target, *, short: str, scope: ScopeRef, labels: str
) -> None:
    """Register a runner with the scope's registration token; its REST id comes from Register's answer."""
    where = scope
    _ensure_scope(identities, where)
    name = ctx.real_name(short)
    session = RecordingSession(ctx.admin.http.recorder)
    wanted = [label.strip() for label in labels.split(",") if label.strip()]
    runner = RunnerClient(target.base_url, session=session).register(registration_token_at(ctx, where), name, wanted)
    ctx.admin.http.recorder.add_secret(runner.token)
    client = RunnerClient(target.base_url, runner.uuid, runner.token, session=session)
    _runners(ctx)[short] = RegisteredRunner(short, name, int(runner.id), where, client)


# ---------------------------------------------------------------- When: runners at a scope


def _runner_path(ctx: ScenarioContext, short: str, scope: ScopeRef) -> str:
    return f"{prefix_of(ctx, scope)}/runners/{runner_id_of(ctx, short)}"


@when(phrase('"{who}" lists the runners of {scope:Scope}'))
@when(phrase('"{who}" lists the runners of {scope:Scope} with the query "{query}"'))
def when_list_runners(ctx: ScenarioContext, who: str, scope: ScopeRef, query: str = "") -> None:
    suffix = f"?{expand(ctx, query)}" if query else ""
    ctx.response = scope_http(ctx, who).get(f"{prefix_of(ctx, scope)}/runners{suffix}")


@when(phrase('"{who}" gets the runner "{short}" at {scope:Scope}'))
def when_get_runner(ctx: ScenarioContext, who: str, short: str, scope: ScopeRef) -> None:
    ctx.response = scope_http(ctx, who).get(_runner_path(ctx, short, scope))


@when(phrase('"{who}" deletes the runner "{short}" at {scope:Scope}'))
def when_delete_runner(ctx: ScenarioContext, who: str, short: str, scope: ScopeRef) -> None:
    ctx.response = scope_http(ctx, who).delete(_runner_path(ctx, short, scope))


@when(phrase('"{who}" {action:Toggle} the runner "{short}" at {scope:Scope}'))
def when_toggle_runner(ctx: ScenarioContext, who: str, action: str, short: str, scope: ScopeRef) -> None:
    body = {"disabled": action == "disables"}
    ctx.response = scope_http(ctx, who).patch(_runner_path(ctx, short, scope), json=body)


@when(phrase('"{who}" edits the runner "{short}" at {scope:Scope} with the body'))
def when_edit_runner(ctx: ScenarioContext, who: str, short: str, scope: ScopeRef, docstring: str) -> None:
    http = scope_http(ctx, who)
    ctx.response = http.request(
        "PATCH", _runner_path(ctx, short, scope), data=docstring, headers={"Content-Type": "application/json"}
    )


# ---------------------------------------------------------------- When: runs and jobs at a scope


@when(phrase('"{who}" lists the {kind:RunsOrJobs} of {scope:Scope}'))
@when(phrase('"{who}" lists the {kind:RunsOrJobs} of {scope:Scope} with the query "{query}"'))
def when_list_scope(ctx: ScenarioContext, who: str, kind: str, scope: ScopeRef, query: str = "") -> None:
    path = f"{prefix_of(ctx, scope)}/{kind}"
    suffix = f"?{expand(ctx, query)}" if query else ""
    ctx.response = scope_http(ctx, who).get(path + suffix)


# ---------------------------------------------------------------- Then


def _body(ctx: ScenarioContext) -> dict[str, Any]:
    response: requests.Response = ctx.last_response()
    assert response.status_code == 200, f"expected 200, got {response.status_code}: {response.text[:300]}"
    body = json_of(response)
    assert isinstance(body, dict), f"expected a JSON object: {response.text[:300]}"
    return body


def _names(text: str) -> set[str]:
    return {name.strip() for name in text.split(",") if name.strip()}


@then(phrase('the runner list holds exactly the runners "{shorts}"'))
def then_runner_list_exact(ctx: ScenarioContext, shorts: str) -> None:
    body = _body(ctx)
    listed = {int(item["id"]) for item in body.get("runners") or []}
    expected = {runner_id_of(ctx, short) for short in _names(shorts)}
    assert listed == expected, f"listed runner ids {sorted(listed)}, expected {sorted(expected)} ({shorts})"
    assert body.get("total_count") == len(expected), f"total_count {body.get('total_count')}, expected {len(expected)}"


@then(phrase('the runner list includes the runner "{short}" and not the runner "{other}"'))
def then_runner_list_includes(ctx: ScenarioContext, short: str, other: str) -> None:
    listed = {int(item["id"]) for item in _body(ctx).get("runners") or []}
    assert runner_id_of(ctx, short) in listed, f'runner "{short}" is not listed: {sorted(listed)}'
    assert runner_id_of(ctx, other) not in listed, f'runner "{other}" is listed: {sorted(listed)}'


@then(phrase('the answer is the runner "{short}" with disabled {disabled:Boolean}'))
def then_runner_answer(ctx: ScenarioContext, short: str, disabled: bool) -> None:
    body = _body(ctx)
    runner = registered_runner(ctx, short)
    assert body.get("id") == runner.runner_id, f"answered runner {body.get('id')}, expected {runner.runner_id}"
    assert body.get("name") == runner.name, f"answered name {body.get('name')!r}, expected {runner.name!r}"
    assert body.get("disabled") is disabled, f"disabled is {body.get('disabled')!r}, expected {disabled}"


def _repo_names(ctx: ScenarioContext, kind: str) -> list[str]:
    """The ``owner/name`` of the repository of every listed run or job."""
    body = _body(ctx)
    items = body.get("workflow_runs" if kind == "runs" else "jobs")
    assert isinstance(items, list), f"no {kind} array in {str(body)[:300]}"
    assert body.get("total_count", -1) >= len(items), f"total_count {body.get('total_count')} below {len(items)}"
    names: list[str] = []
    for item in items:
        if kind == "runs":
            names.append(str((item.get("repository") or {}).get("full_name", "")))
        else:
            run_url = str(item.get("run_url", ""))
            names.append(run_url.split("/repos/", 1)[-1].split("/actions/", 1)[0])
    return names


@then(phrase('the listed {kind:RunsOrJobs} are exactly {count:d} of "{repos}"'))
def then_listed_exactly(ctx: ScenarioContext, kind: str, count: int, repos: str) -> None:
    """Every listed run or job belongs to one of the named repositories, and there are exactly ``count``."""
    allowed = {ctx.repo(short).full_name for short in _names(repos)}
    names = _repo_names(ctx, kind)
    assert len(names) == count, f"{len(names)} {kind} listed ({names}), expected {count}"
    strangers = [name for name in names if name not in allowed]
    assert not strangers, f"{kind} of other repositories are listed: {strangers}"
    assert _body(ctx).get("total_count") == count, f"total_count {_body(ctx).get('total_count')}, expected {count}"


@then(phrase('the listed {kind:RunsOrJobs} include those of "{repos}"'))
def then_listed_include(ctx: ScenarioContext, kind: str, repos: str) -> None:
    names = set(_repo_names(ctx, kind))
    missing = [short for short in _names(repos) if ctx.repo(short).full_name not in names]
    assert not missing, f"no {kind} of {missing} in the list"


@then(phrase("no {kind:RunsOrJobs} are listed"))
def then_none_listed(ctx: ScenarioContext, kind: str) -> None:
    names = _repo_names(ctx, kind)
    assert names == [], f"expected no {kind}, got {len(names)}"
    assert _body(ctx).get("total_count") == 0, f"total_count is {_body(ctx).get('total_count')}"


@given(phrase('a commit adding "{path}" is pushed to "{short}"'))
@when(phrase('a commit adding "{path}" is pushed to "{short}"'))
def given_commit_to(ctx: ScenarioContext, identities: IdentityFactory, path: str, short: str) -> None:
    """One more commit through the contents API, as the repository's owner (an organization's owner)."""
    repo = identities.repo(short)
    response = owner_api(ctx, repo).contents.create(repo.owner, repo.name, path, "conformance\n", message=f"add {path}")
    assert response.status_code == 201, f"adding {path} answered {response.status_code}: {response.text[:300]}"


@when(phrase('"{who}" lists the runs of repository "{short}" at the commit of its workflow'))
@when(phrase('"{who}" lists the runs of repository "{short}" at the commit of the workflow of "{source}"'))
def when_list_at_commit(ctx: ScenarioContext, who: str, short: str, source: str = "") -> None:
    """``head_sha`` = the commit that added ``.gitea/workflows/ci.yml`` to this repository or to ``source``."""
    source = source or short
    commit = ctx.recall(f"file:{source}:.gitea/workflows/ci.yml")
    sha = commit.get("commit", {}).get("sha") if isinstance(commit, dict) else None
    assert isinstance(sha, str) and sha, f'no commit of a workflow pushed to "{source}" was remembered'
    path = f"{prefix_of(ctx, ScopeRef('repository', short))}/runs"
    ctx.response = scope_http(ctx, who).get(path, params={"head_sha": sha})


@then(phrase("the run list of this page holds {count:d} run"))
@then(phrase("the run list of this page holds {count:d} runs"))
def then_page_holds(ctx: ScenarioContext, count: int) -> None:
    runs = _body(ctx).get("workflow_runs")
    assert isinstance(runs, list) and len(runs) == count, f"the page holds {runs!r}, expected {count} runs"


# ---------------------------------------------------------------- workflows of a repository: state and inputs


def _workflow_path(ctx: ScenarioContext, workflow_id: str) -> str:
    repo = the_repo(ctx)
    return f"repos/{repo.full_name}/actions/workflows/{workflow_id}"


@given(phrase('the repository\'s owner has {action:Toggled} the workflow "{workflow_id}"'))
def given_workflow_state(ctx: ScenarioContext, action: str, workflow_id: str) -> None:
    verb = "disable" if action == "disabled" else "enable"
    response = owner_api(ctx, the_repo(ctx)).http.put(f"{_workflow_path(ctx, workflow_id)}/{verb}")
    assert response.status_code == 204, f"{verb} answered {response.status_code}: {response.text[:300]}"


@when(phrase('the repository\'s owner {verb:Toggle} the workflow "{workflow_id}"'))
def when_workflow_state(ctx: ScenarioContext, verb: str, workflow_id: str) -> None:
    http = owner_api(ctx, the_repo(ctx)).http
    ctx.response = http.put(f"{_workflow_path(ctx, workflow_id)}/{verb.removesuffix('s')}")


@when(phrase('the repository\'s owner dispatches "{workflow_id}" on the default branch with the inputs'))
def when_dispatch_inputs(ctx: ScenarioContext, workflow_id: str, docstring: str) -> None:
    """POST .../dispatches with ``inputs`` (a JSON object of strings) and the run's id in the answer."""
    repo = the_repo(ctx)
    inputs = json.loads(docstring)
    assert isinstance(inputs, dict), "the inputs must be a JSON object"
    ctx.response = actions_of(ctx, repo).dispatch(
        repo.owner, repo.name, workflow_id, repo.default_branch, inputs=inputs, return_run_details=True
    )


@when(phrase("the mock runner takes the job and reads its context"))
def when_take_with_context(ctx: ScenarioContext) -> None:
    """Fetch until a task comes; keep its context (event payload and inputs) and hold it as the job."""
    runner = the_runner(ctx)

    def probe() -> runner_pb2.Task | None:
        task, _ = runner.fetch_task(0, timeout=5.0)
        return task

    task = wait_for(probe, "a task being handed out to the mock runner")
    ctx.remember("scopes:task context", json_format.MessageToDict(task.context))


@then(phrase('the job\'s inputs are exactly "{pairs}"'))
def then_job_inputs(ctx: ScenarioContext, pairs: str) -> None:
    """The task context's event payload carries exactly these inputs (``name=value`` comma separated)."""
    expected = dict(pair.split("=", 1) for pair in pairs.split(",") if pair)
    context = ctx.recall("scopes:task context")
    event = context.get("event") or {}
    assert event.get("inputs") == expected, f"the event's inputs are {event.get('inputs')!r}, expected {expected!r}"
    assert context.get("event_name") == "workflow_dispatch", f"event_name is {context.get('event_name')!r}"


# ---------------------------------------------------------------- deleting a run; workflow_run


def _job(ctx: ScenarioContext) -> TakenJob:
    job = world(ctx).jobs.get("job")
    assert job is not None, "no job: add `Given a mock runner has taken a job of a new repository`"
    return job


def _owner_of(ctx: ScenarioContext, job: TakenJob) -> HttpClient:
    return owner_api(ctx, job.repo).http


@when(phrase("the repository's owner deletes the run of the job"))
def when_delete_run_of_job(ctx: ScenarioContext) -> None:
    job = _job(ctx)
    ctx.response = _owner_of(ctx, job).delete(f"repos/{job.repo.full_name}/actions/runs/{job.run_id}")


@then(phrase("the run of the job, its jobs and its artifacts are gone"))
def then_run_gone(ctx: ScenarioContext) -> None:
    job = _job(ctx)
    http = _owner_of(ctx, job)
    base = f"repos/{job.repo.full_name}/actions"
    for path in (f"runs/{job.run_id}", f"jobs/{job.job_id}"):
        status = http.get(f"{base}/{path}").status_code
        assert status == 404, f"GET {path} answered {status} after the run was deleted"
    artifacts = http.get(f"{base}/artifacts")
    assert artifacts.status_code == 200, f"listing artifacts answered {artifacts.status_code}"
    left = json_of(artifacts).get("artifacts")
    assert left == [], f"artifacts of the deleted run remain: {left!r}"


@then(phrase("the run of the job still exists"))
def then_run_exists(ctx: ScenarioContext) -> None:
    job = _job(ctx)
    response = _owner_of(ctx, job).get(f"repos/{job.repo.full_name}/actions/runs/{job.run_id}")
    assert response.status_code == 200, f"the run answered {response.status_code}: {response.text[:300]}"


@then(phrase('the repository has no run of "{file_name}"'))
def then_no_run_of(ctx: ScenarioContext, file_name: str) -> None:
    found = runs_of(ctx, the_repo(ctx), file_name)
    assert not found, f'"{file_name}" has {len(found)} runs: {[run.get("event") for run in found]}'


@then(phrase('the job\'s event is the completion of the run of "{file_name}" with conclusion "{conclusion}"'))
def then_workflow_run_event(ctx: ScenarioContext, file_name: str, conclusion: str) -> None:
    """The task context's event payload: action completed, and the triggering run's name and conclusion."""
    context = ctx.recall("scopes:task context")
    assert context.get("event_name") == "workflow_run", f"event_name is {context.get('event_name')!r}"
    event = context.get("event") or {}
    assert event.get("action") == "completed", f"the event's action is {event.get('action')!r}"
    run = event.get("workflow_run") or {}
    seen = (run.get("conclusion"), run.get("status"))
    assert seen == (conclusion, "completed"), f"the triggering run is {seen}, expected ({conclusion!r}, 'completed')"
    triggering = find_run(ctx, the_repo(ctx), file_name)
    assert run.get("id") == triggering.get("id"), f"the event names run {run.get('id')}, not {triggering.get('id')}"

"""Actions at the four scopes: runners registered and managed per scope, runs and jobs listed per scope.

A scope is written as Gitea names it: ``the instance``, ``user "dev"``, ``organization "acme"`` or
``repository "dev/app"``. Each scope's routes live under its own prefix (``admin/actions``,
``user/actions``, ``orgs/{org}/actions``, ``repos/{owner}/{repo}/actions``); the user scope is
always the caller's own. Runners registered here are remembered by their short name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
import requests
from forge_proto import runner_pb2
from google.protobuf import json_format
from pytest_bdd import given, then, when

from conformance.api import ForgeApi
from conformance.api.artifacts import RecordingSession
from conformance.client import HttpClient, json_of
from conformance.context import ScenarioContext
from conformance.identities import IdentityFactory
from conformance.seeding import SeededData
from conformance.target import Target
from mock_runner.protocol import RunnerClient
from steps.actors import acting_api, acting_http, org_manager, repo_owner
from steps.ci import CiWorld, TakenJob, find_run, owner_actions, runs_of, wait_for
from steps.common import FileNotes, expand, expect_status, json_document
from steps.parsing import phrase, register_type

__all__ = [
    "ScopeNotes",
    "ScopeRef",
    "parse_scope",
    "prefix_of",
    "registration_token_at",
    "scope_manager",
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


def scope_manager(ctx: ScenarioContext, scope: ScopeRef) -> ForgeApi:
    """Who manages a scope's runners: the admin (instance), the user (their own), the organization's owner,
    the repository's owner (the admin where the scenario does not know an organization's owner)."""
    if scope.kind == "instance":
        return ctx.admin
    if scope.kind == "user":
        return acting_api(ctx, scope.short)
    if scope.kind == "organization":
        return org_manager(ctx, scope.short)
    return repo_owner(ctx, scope.short)


@dataclass
class ScopeNotes:
    """The runners registered at a scope, by short name, and the context of the last task read."""

    runners: dict[str, RegisteredRunner] = field(default_factory=dict)
    task_context: dict[str, Any] | None = None

    def runner(self, short: str) -> RegisteredRunner:
        """A runner of the scenario by its short name."""
        found = self.runners.get(short)
        assert found is not None, f'no runner "{short}": add `Given a mock runner "{short}" registered at ...`'
        return found

    def context(self) -> dict[str, Any]:
        """The task context a When step read."""
        assert self.task_context is not None, "add `When the mock runner takes the job and reads its context`"
        return self.task_context


@pytest.fixture
def scope_notes() -> ScopeNotes:
    """The scenario's scoped runners."""
    return ScopeNotes()


def registration_token_at(ctx: ScenarioContext, scope: ScopeRef) -> str:
    """A fresh registration token of the scope (POST), asked for by whoever manages the scope's runners."""
    http = scope_manager(ctx, scope).http
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
    ctx: ScenarioContext,
    scope_notes: ScopeNotes,
    identities: IdentityFactory,
    target: Target,
    *,
    short: str,
    scope: ScopeRef,
    labels: str,
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
    scope_notes.runners[short] = RegisteredRunner(short, name, int(runner.id), where, client)


# ---------------------------------------------------------------- When: runners at a scope


def _runner_path(ctx: ScenarioContext, scope_notes: ScopeNotes, short: str, scope: ScopeRef) -> str:
    return f"{prefix_of(ctx, scope)}/runners/{scope_notes.runner(short).runner_id}"


@when(phrase('"{who}" lists the runners of {scope:Scope}'))
@when(phrase('"{who}" lists the runners of {scope:Scope} with the query "{query}"'))
def when_list_runners(ctx: ScenarioContext, who: str, scope: ScopeRef, query: str = "") -> None:
    suffix = f"?{expand(ctx, query)}" if query else ""
    ctx.response = acting_http(ctx, who).get(f"{prefix_of(ctx, scope)}/runners{suffix}")


@when(phrase('"{who}" gets the runner "{short}" at {scope:Scope}'))
def when_get_runner(ctx: ScenarioContext, scope_notes: ScopeNotes, who: str, short: str, scope: ScopeRef) -> None:
    ctx.response = acting_http(ctx, who).get(_runner_path(ctx, scope_notes, short, scope))


@when(phrase('"{who}" deletes the runner "{short}" at {scope:Scope}'))
def when_delete_runner(ctx: ScenarioContext, scope_notes: ScopeNotes, who: str, short: str, scope: ScopeRef) -> None:
    ctx.response = acting_http(ctx, who).delete(_runner_path(ctx, scope_notes, short, scope))


@when(phrase('"{who}" {action:Toggle} the runner "{short}" at {scope:Scope}'))
def when_toggle_runner(
    ctx: ScenarioContext, scope_notes: ScopeNotes, *, who: str, action: str, short: str, scope: ScopeRef
) -> None:
    body = {"disabled": action == "disables"}
    ctx.response = acting_http(ctx, who).patch(_runner_path(ctx, scope_notes, short, scope), json=body)


@when(phrase('"{who}" edits the runner "{short}" at {scope:Scope} with the body'))
def when_edit_runner(
    ctx: ScenarioContext, scope_notes: ScopeNotes, *, who: str, short: str, scope: ScopeRef, docstring: str
) -> None:
    http = acting_http(ctx, who)
    ctx.response = http.request(
        "PATCH",
        _runner_path(ctx, scope_notes, short, scope),
        data=docstring,
        headers={"Content-Type": "application/json"},
    )


# ---------------------------------------------------------------- When: runs and jobs at a scope


@when(phrase('"{who}" lists the {kind:RunsOrJobs} of {scope:Scope}'))
@when(phrase('"{who}" lists the {kind:RunsOrJobs} of {scope:Scope} with the query "{query}"'))
def when_list_scope(ctx: ScenarioContext, who: str, kind: str, scope: ScopeRef, query: str = "") -> None:
    path = f"{prefix_of(ctx, scope)}/{kind}"
    suffix = f"?{expand(ctx, query)}" if query else ""
    ctx.response = acting_http(ctx, who).get(path + suffix)


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
def then_runner_list_exact(ctx: ScenarioContext, scope_notes: ScopeNotes, shorts: str) -> None:
    body = _body(ctx)
    listed = {int(item["id"]) for item in body.get("runners") or []}
    expected = {scope_notes.runner(short).runner_id for short in _names(shorts)}
    assert listed == expected, f"listed runner ids {sorted(listed)}, expected {sorted(expected)} ({shorts})"
    assert body.get("total_count") == len(expected), f"total_count {body.get('total_count')}, expected {len(expected)}"


@then(phrase('the runner list includes the runner "{short}" and not the runner "{other}"'))
def then_runner_list_includes(ctx: ScenarioContext, scope_notes: ScopeNotes, short: str, other: str) -> None:
    listed = {int(item["id"]) for item in _body(ctx).get("runners") or []}
    assert scope_notes.runner(short).runner_id in listed, f'runner "{short}" is not listed: {sorted(listed)}'
    assert scope_notes.runner(other).runner_id not in listed, f'runner "{other}" is listed: {sorted(listed)}'


@then(phrase('the answer is the runner "{short}" with disabled {disabled:Boolean}'))
def then_runner_answer(ctx: ScenarioContext, scope_notes: ScopeNotes, short: str, disabled: bool) -> None:
    body = _body(ctx)
    runner = scope_notes.runner(short)
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
def given_commit_to(ctx: ScenarioContext, identities: IdentityFactory, fake: SeededData, path: str, short: str) -> None:
    """One more commit through the contents API, as the repository's owner (an organization's owner)."""
    repo = identities.repo(short)
    created = repo_owner(ctx, repo).contents.create(repo.owner, repo.name, path, fake.text(), message=f"add {path}")
    expect_status(created, 201, f"add {path}")


@when(phrase('"{who}" lists the runs of repository "{short}" at the commit of its workflow'))
@when(phrase('"{who}" lists the runs of repository "{short}" at the commit of the workflow of "{source}"'))
def when_list_at_commit(ctx: ScenarioContext, file_notes: FileNotes, who: str, short: str, source: str = "") -> None:
    """``head_sha`` = the commit that added ``.gitea/workflows/ci.yml`` to this repository or to ``source``."""
    source = source or short
    commit = file_notes.get(source, ".gitea/workflows/ci.yml")
    sha = commit.get("commit", {}).get("sha") if isinstance(commit, dict) else None
    assert isinstance(sha, str) and sha, f'no commit of a workflow pushed to "{source}" was remembered'
    path = f"{prefix_of(ctx, ScopeRef('repository', short))}/runs"
    ctx.response = acting_http(ctx, who).get(path, params={"head_sha": sha})


@then(phrase("the run list of this page holds {count:d} run"))
@then(phrase("the run list of this page holds {count:d} runs"))
def then_page_holds(ctx: ScenarioContext, count: int) -> None:
    runs = _body(ctx).get("workflow_runs")
    assert isinstance(runs, list) and len(runs) == count, f"the page holds {runs!r}, expected {count} runs"


# ---------------------------------------------------------------- workflows of a repository: state and inputs


def _workflow_path(ci_world: CiWorld, workflow_id: str) -> str:
    repo = ci_world.repository()
    return f"repos/{repo.full_name}/actions/workflows/{workflow_id}"


@given(phrase('the repository\'s owner has {action:Toggled} the workflow "{workflow_id}"'))
def given_workflow_state(ci_world: CiWorld, action: str, workflow_id: str) -> None:
    verb = "disable" if action == "disabled" else "enable"
    http = repo_owner(ci_world.ctx, ci_world.repository()).http
    expect_status(http.put(f"{_workflow_path(ci_world, workflow_id)}/{verb}"), 204, f"{verb} {workflow_id}")


@when(phrase('the repository\'s owner {verb:Toggle} the workflow "{workflow_id}"'))
def when_workflow_state(ctx: ScenarioContext, ci_world: CiWorld, verb: str, workflow_id: str) -> None:
    http = repo_owner(ctx, ci_world.repository()).http
    ctx.response = http.put(f"{_workflow_path(ci_world, workflow_id)}/{verb.removesuffix('s')}")


@when(phrase('the repository\'s owner dispatches "{workflow_id}" on the default branch with the inputs'))
def when_dispatch_inputs(ctx: ScenarioContext, ci_world: CiWorld, workflow_id: str, docstring: str) -> None:
    """POST .../dispatches with ``inputs`` (a JSON object of strings) and the run's id in the answer."""
    repo = ci_world.repository()
    inputs = json_document(docstring)
    assert isinstance(inputs, dict), "the inputs must be a JSON object"
    ctx.response = owner_actions(ctx, repo).dispatch(
        repo.owner, repo.name, workflow_id, repo.default_branch, inputs=inputs, return_run_details=True
    )


@when(phrase("the mock runner takes the job and reads its context"))
def when_take_with_context(ci_world: CiWorld, scope_notes: ScopeNotes) -> None:
    """Fetch until a task comes; keep its context (event payload and inputs) and hold it as the job."""
    runner = ci_world.mock_runner()

    def probe() -> runner_pb2.Task | None:
        task, _ = runner.fetch_task(0, timeout=5.0)
        return task

    task = wait_for(probe, "a task being handed out to the mock runner")
    scope_notes.task_context = json_format.MessageToDict(task.context)


@then(phrase('the job\'s inputs are exactly "{pairs}"'))
def then_job_inputs(scope_notes: ScopeNotes, pairs: str) -> None:
    """The task context's event payload carries exactly these inputs (``name=value`` comma separated)."""
    expected = dict(pair.split("=", 1) for pair in pairs.split(",") if pair)
    context = scope_notes.context()
    event = context.get("event") or {}
    assert event.get("inputs") == expected, f"the event's inputs are {event.get('inputs')!r}, expected {expected!r}"
    assert context.get("event_name") == "workflow_dispatch", f"event_name is {context.get('event_name')!r}"


# ---------------------------------------------------------------- deleting a run; workflow_run


def _owner_of(ctx: ScenarioContext, job: TakenJob) -> HttpClient:
    return repo_owner(ctx, job.repo).http


@when(phrase("the repository's owner deletes the run of the job"))
def when_delete_run_of_job(ctx: ScenarioContext, ci_world: CiWorld) -> None:
    job = ci_world.job()
    ctx.response = _owner_of(ctx, job).delete(f"repos/{job.repo.full_name}/actions/runs/{job.run_id}")


@then(phrase("the run of the job, its jobs and its artifacts are gone"))
def then_run_gone(ctx: ScenarioContext, ci_world: CiWorld) -> None:
    job = ci_world.job()
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
def then_run_exists(ctx: ScenarioContext, ci_world: CiWorld) -> None:
    job = ci_world.job()
    response = _owner_of(ctx, job).get(f"repos/{job.repo.full_name}/actions/runs/{job.run_id}")
    assert response.status_code == 200, f"the run answered {response.status_code}: {response.text[:300]}"


@then(phrase('the repository has no run of "{file_name}"'))
def then_no_run_of(ctx: ScenarioContext, ci_world: CiWorld, file_name: str) -> None:
    found = runs_of(ctx, ci_world.repository(), file_name)
    assert not found, f'"{file_name}" has {len(found)} runs: {[run.get("event") for run in found]}'


@then(phrase('the job\'s event is the completion of the run of "{file_name}" with conclusion "{conclusion}"'))
def then_workflow_run_event(
    ctx: ScenarioContext, ci_world: CiWorld, scope_notes: ScopeNotes, file_name: str, conclusion: str
) -> None:
    """The task context's event payload: action completed, and the triggering run's name and conclusion."""
    context = scope_notes.context()
    assert context.get("event_name") == "workflow_run", f"event_name is {context.get('event_name')!r}"
    event = context.get("event") or {}
    assert event.get("action") == "completed", f"the event's action is {event.get('action')!r}"
    run = event.get("workflow_run") or {}
    seen = (run.get("conclusion"), run.get("status"))
    assert seen == (conclusion, "completed"), f"the triggering run is {seen}, expected ({conclusion!r}, 'completed')"
    triggering = find_run(ctx, ci_world.repository(), file_name)
    assert run.get("id") == triggering.get("id"), f"the event names run {run.get('id')}, not {triggering.get('id')}"

"""The CI world of a scenario: a repository, its mock runner, pushed workflows, runs and the jobs taken.

Everything goes through the target's public surfaces: the contents API pushes workflows, a
registration token obtained over REST registers the runner, the runner protocol hands out jobs. "The
repository" is the one the mock runner is registered to, else the scenario's only repository.
Runs appear asynchronously on some forges (Gitea queues them), so lookups poll briefly.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest
from forge_proto import runner_pb2
from google.protobuf.timestamp_pb2 import Timestamp
from pytest_bdd import given, then, when

from conformance.api.actions import ActionsApi
from conformance.api.artifacts import RecordingSession
from conformance.client import json_of
from conformance.context import RepoRef, ScenarioContext
from conformance.identities import IdentityFactory
from conformance.polling import Backoff
from conformance.seeding import SeededData
from conformance.target import Target
from mock_runner.artifacts import backend_ids
from mock_runner.protocol import RunnerCallError, RunnerClient
from steps.actors import repo_owner
from steps.common import expect_status
from steps.parsing import phrase

__all__ = [
    "RESULTS",
    "CiWorld",
    "RunnerOutcome",
    "TakenJob",
    "find_run",
    "listed_items",
    "owner_actions",
    "register_runner",
    "registration_token",
    "report_result",
    "runs_of",
    "simple_workflow",
    "take_job",
    "total_count",
    "wait_for",
    "workflow_of",
]

WORKFLOW_DIR = ".gitea/workflows"
POLL_SECONDS = 30.0
RESULTS = {"success": runner_pb2.RESULT_SUCCESS, "failure": runner_pb2.RESULT_FAILURE}
T = TypeVar("T")


@dataclass
class TakenJob:
    """A job a mock runner took and keeps running (the artifact protocol needs a running task)."""

    name: str
    task_id: int
    run_id: int
    job_id: int
    runtime_token: str
    repo: RepoRef
    runner: RunnerClient
    job_token: str = ""
    """The job's ``GITEA_TOKEN`` (its secrets map), an API credential for its own repository."""


@dataclass
class RunnerOutcome:
    """The reply of the last runner-protocol call, or the error it raised."""

    reply: Any = None
    error: RunnerCallError | None = None


@dataclass
class CiWorld:
    """What the CI steps of one scenario share: the repository and its mock runner, the workflows pushed
    (file name to commit), the jobs taken, and the outcome of the last runner-protocol call."""

    ctx: ScenarioContext
    repo: RepoRef | None = None
    runner: RunnerClient | None = None
    runner_name: str = ""
    runner_labels: list[str] = field(default_factory=list)
    commits: dict[str, str] = field(default_factory=dict)
    jobs: dict[str, TakenJob] = field(default_factory=dict)
    held: TakenJob | None = None
    other_repo: RepoRef | None = None
    second_repo: RepoRef | None = None
    outcome: RunnerOutcome | None = None

    def repository(self) -> RepoRef:
        """The repository the mock runner serves, else the scenario's only repository."""
        if self.repo is not None:
            return self.repo
        if len(self.ctx.repos) == 1:
            return next(iter(self.ctx.repos.values()))
        raise AssertionError('which repository? add `Given a repository "dev/app"` and a mock runner registered to it')

    def mock_runner(self) -> RunnerClient:
        """The scenario's mock runner."""
        assert self.runner is not None, 'no mock runner: add `Given a mock runner registered to "dev/app" ...`'
        return self.runner

    def held_job(self) -> TakenJob:
        """The job the mock runner holds now."""
        assert self.held is not None, "the mock runner holds no job: add `When the mock runner takes the job`"
        return self.held

    def job(self, who: str = "job") -> TakenJob:
        """The running job the scenario calls "the job" (or "the other job")."""
        job = self.jobs.get(who)
        assert job is not None, f"no {who}: add `Given a mock runner has taken a job of a new repository`"
        return job

    def first_label(self) -> str:
        """The label new workflows run on: the mock runner's first."""
        return (self.runner_labels or ["ubuntu-latest"])[0]

    def push_workflow(self, repo: RepoRef, file_name: str, text: str) -> str:
        """Commit ``.gitea/workflows/<file_name>`` through the contents API as the owner; the new commit's sha."""
        path = f"{WORKFLOW_DIR}/{file_name}"
        response = repo_owner(self.ctx, repo).contents.create(
            repo.owner, repo.name, path, text, message=f"Add workflow {file_name}"
        )
        sha = expect_status(response, 201, f"push {path}").get("commit", {}).get("sha")
        assert isinstance(sha, str) and sha, f"the contents API did not give the commit sha: {response.text[:300]}"
        self.commits[file_name] = sha
        return sha

    def record(self, call: Callable[[], Any]) -> None:
        """Make a runner-protocol call and keep its reply or its error for the Then steps."""
        try:
            self.outcome = RunnerOutcome(reply=call())
        except RunnerCallError as error:
            self.outcome = RunnerOutcome(error=error)


@pytest.fixture
def ci_world(ctx: ScenarioContext) -> CiWorld:
    """The scenario's CI world."""
    return CiWorld(ctx)


def listed_items(ctx: ScenarioContext, key: str) -> list[dict[str, Any]]:
    """The array ``key`` of the last response's object (a REST list of runs, tasks, jobs, workflows)."""
    body = json_of(ctx.last_response())
    assert isinstance(body, dict), f"expected an object, got {type(body).__name__}: {str(body)[:300]}"
    items = body.get(key)
    assert isinstance(items, list), f'the object has no "{key}" array: {str(body)[:300]}'
    return items


def total_count(ctx: ScenarioContext) -> Any:
    """The ``total_count`` of the last response's list object."""
    return json_of(ctx.last_response()).get("total_count")


def owner_actions(ctx: ScenarioContext, repo: RepoRef) -> ActionsApi:
    """The actions operations as the repository's owner."""
    return repo_owner(ctx, repo).area(ActionsApi)


def wait_for(probe: Callable[[], T | None], what: str, timeout: float = POLL_SECONDS) -> T:
    """Poll ``probe`` until it returns something; an AssertionError naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    backoff = Backoff(cap=0.2)
    while True:
        found = probe()
        if found is not None:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout:.0f} s")
        backoff.sleep()


def simple_workflow(name: str | None, label: str, trigger: str = "push") -> str:
    """A one-job workflow that runs on ``label``; without ``name`` it has no ``name:`` key."""
    head = f"name: {name}\n" if name is not None else ""
    return f"{head}on: [{trigger}]\njobs:\n  main:\n    runs-on: {label}\n    steps:\n      - run: echo conformance\n"


def _runs(ctx: ScenarioContext, repo: RepoRef) -> list[dict[str, Any]]:
    response = owner_actions(ctx, repo).list_runs(repo.owner, repo.name, limit=50)
    assert response.status_code == 200, f"listing runs answered {response.status_code}: {response.text[:300]}"
    runs = json_of(response).get("workflow_runs")
    assert isinstance(runs, list), f"the run list has no workflow_runs array: {response.text[:300]}"
    return runs


def workflow_of(run: dict[str, Any]) -> str:
    """The workflow file of a run, from its ``path`` (``build.yml@refs/heads/main``)."""
    return str(run.get("path", "")).split("@", 1)[0].rsplit("/", 1)[-1]


def runs_of(ctx: ScenarioContext, repo: RepoRef, file_name: str | None = None) -> list[dict[str, Any]]:
    """The repository's runs (of one workflow file when given), newest first."""
    runs = [run for run in _runs(ctx, repo) if file_name is None or workflow_of(run) == file_name]
    return sorted(runs, key=lambda run: int(run.get("id", 0)), reverse=True)


def find_run(ctx: ScenarioContext, repo: RepoRef, file_name: str) -> dict[str, Any]:
    """The newest run of a workflow file, waiting for it to appear."""

    def probe() -> dict[str, Any] | None:
        found = runs_of(ctx, repo, file_name)
        return found[0] if found else None

    return wait_for(probe, f'a run of "{file_name}" in {repo.full_name}')


def registration_token(ctx: ScenarioContext, repo: RepoRef) -> str:
    """A repository registration token over REST (POST), as the repository's owner."""
    response = owner_actions(ctx, repo).registration_token(repo.owner, repo.name)
    assert response.status_code == 200, f"registration token answered {response.status_code}: {response.text[:300]}"
    token = json_of(response).get("token")
    assert isinstance(token, str) and token, f"no token in {response.text[:200]}"
    ctx.admin.http.recorder.add_secret(token)
    return token


def register_runner(
    ctx: ScenarioContext, target: Target, repo: RepoRef, labels: list[str], short: str = "runner"
) -> RunnerClient:
    """Register a mock runner to the repository with a fresh registration token; returns its client."""
    name = ctx.real_name(short)
    session = RecordingSession(ctx.admin.http.recorder)
    runner = RunnerClient(target.base_url, session=session).register(registration_token(ctx, repo), name, labels)
    ctx.admin.http.recorder.add_secret(runner.token)
    return RunnerClient(target.base_url, runner.uuid, runner.token, session=session)


def take_job(runner: RunnerClient, repo: RepoRef, timeout: float = POLL_SECONDS) -> TakenJob:
    """Fetch tasks until one is handed out; keep it running."""

    def probe() -> runner_pb2.Task | None:
        task, _ = runner.fetch_task(0, timeout=5.0)
        return task

    task = wait_for(probe, "a task being handed out to the mock runner", timeout)
    context = task.context.fields
    token = context["gitea_runtime_token"].string_value if "gitea_runtime_token" in context else ""
    assert token, f"task {task.id} carries no gitea_runtime_token in its context"
    run_backend, job_backend = backend_ids(token)
    name = context["job"].string_value if "job" in context else ""
    job_token = task.secrets.get("GITEA_TOKEN", "")
    return TakenJob(name, task.id, int(run_backend), int(job_backend), token, repo, runner, job_token)


def report_result(job: TakenJob, result: str) -> runner_pb2.UpdateTaskResponse:
    """Report the task finished with ``success`` or ``failure``."""
    assert result in RESULTS, f"unknown result {result!r}: use success or failure"
    stopped = Timestamp()
    stopped.GetCurrentTime()
    state = runner_pb2.TaskState(id=job.task_id, result=RESULTS[result], stopped_at=stopped)
    return job.runner.update_task(state)


def _labels(text: str) -> list[str]:
    return [label.strip() for label in text.split(",") if label.strip()]


# ---------------------------------------------------------------- Given: runners, workflows, jobs


@given(phrase('a mock runner registered to "{short}" with the labels "{labels}"'))
def given_runner(ci_world: CiWorld, identities: IdentityFactory, target: Target, short: str, labels: str) -> None:
    """The repository's own runner, registered with a repository registration token."""
    ctx = ci_world.ctx
    ci_world.repo = identities.repo(short)
    ci_world.runner_labels = _labels(labels)
    ci_world.runner = register_runner(ctx, target, ci_world.repo, ci_world.runner_labels)
    ci_world.runner_name = ctx.real_name("runner")


def _job_of_new_repo(ci_world: CiWorld, identities: IdentityFactory, target: Target, short: str) -> TakenJob:
    ctx = ci_world.ctx
    repo = identities.repo(short)
    label = f"{ctx.run_prefix}-artifacts"
    runner = register_runner(ctx, target, repo, [label], short=f"{repo.short.split('/')[1]}-runner")
    ci_world.push_workflow(repo, "artifacts.yml", simple_workflow("artifacts", label))
    return take_job(runner, repo)


@given(phrase("a mock runner has taken a job of a new repository"))
def given_job_of_new_repo(ci_world: CiWorld, identities: IdentityFactory, target: Target) -> None:
    """The job whose runtime token the artifact scenarios use; it stays running."""
    job = _job_of_new_repo(ci_world, identities, target, "dev/app")
    ci_world.repo = job.repo
    ci_world.jobs["job"] = job


@given(phrase("a mock runner has taken a job of another new repository"))
def given_other_job(ci_world: CiWorld, identities: IdentityFactory, target: Target) -> None:
    """A second running job, of another run, to check that runs are kept apart."""
    ci_world.jobs["other job"] = _job_of_new_repo(ci_world, identities, target, "dev/other")


@given(phrase("another repository has already had a workflow run"))
def given_earlier_run(ci_world: CiWorld, identities: IdentityFactory) -> None:
    """A run elsewhere, so this repository's run ids and run numbers differ."""
    repo = identities.repo("dev/earlier")
    ci_world.push_workflow(repo, "earlier.yml", simple_workflow("earlier", f"{ci_world.ctx.run_prefix}-unserved"))
    find_run(ci_world.ctx, repo, "earlier.yml")
    ci_world.other_repo = repo


@given(phrase("the repository's owner has a second repository"))
def given_second_repo(ci_world: CiWorld, identities: IdentityFactory) -> None:
    """Another repository of the same owner, to address resources through the wrong repository."""
    owner = ci_world.repository().short.split("/", 1)[0]
    ci_world.second_repo = identities.repo(f"{owner}/second")


@given(phrase('the workflow "{file_name}" is pushed to the repository with'))
def given_workflow_text(ci_world: CiWorld, file_name: str, docstring: str) -> None:
    """A workflow file committed through the contents API (a push)."""
    ci_world.push_workflow(ci_world.repository(), file_name, docstring + "\n")


@given(phrase('the workflow "{file_name}" named "{name}" is pushed to the repository'))
@when(phrase('the workflow "{file_name}" named "{name}" is pushed to the repository'))
def push_named_workflow(ci_world: CiWorld, file_name: str, name: str) -> None:
    """A one-job workflow with a ``name:``, on the runner's first label."""
    ci_world.push_workflow(ci_world.repository(), file_name, simple_workflow(name, ci_world.first_label()))


@when(phrase('the workflow "{file_name}" without a name is pushed to the repository'))
def push_unnamed_workflow(ci_world: CiWorld, file_name: str) -> None:
    """A one-job workflow without ``name:``."""
    ci_world.push_workflow(ci_world.repository(), file_name, simple_workflow(None, ci_world.first_label()))


@given(phrase('a commit adding "{path}" is pushed to the repository'))
def given_other_commit(ci_world: CiWorld, fake: SeededData, path: str) -> None:
    """A push of a file that is not a workflow (every push-triggered workflow runs again); its text is drawn."""
    repo = ci_world.repository()
    response = repo_owner(ci_world.ctx, repo).contents.create(
        repo.owner, repo.name, path, fake.text(), message=f"Add {path}"
    )
    expect_status(response, 201, f"push {path}")


@given(phrase("the mock runner has taken the job"))
@when(phrase("the mock runner takes the job"))
def runner_takes_job(ci_world: CiWorld) -> None:
    """The mock runner fetches until a task is handed out and holds it."""
    ci_world.held = take_job(ci_world.mock_runner(), ci_world.repository())


@when(phrase('the mock runner reports the job\'s result as "{result}"'))
def runner_reports(ci_world: CiWorld, result: str) -> None:
    """UpdateTask with a final result for the held task; the outcome is kept for the Then steps."""
    job = ci_world.held_job()
    ci_world.record(lambda: report_result(job, result))


# ---------------------------------------------------------------- Then: runs


def _run(ci_world: CiWorld, file_name: str) -> dict[str, Any]:
    return find_run(ci_world.ctx, ci_world.repository(), file_name)


@then(phrase("the repository has exactly {count:d} workflow run"))
@then(phrase("the repository has exactly {count:d} workflow runs"))
def then_run_count(ci_world: CiWorld, count: int) -> None:
    """Exactly this many runs, once the first one is there."""
    ctx, repo = ci_world.ctx, ci_world.repository()
    runs = wait_for(lambda: runs_of(ctx, repo) or None, f"a run in {repo.full_name}")
    assert len(runs) == count, f"expected {count} runs, got {len(runs)}: {[workflow_of(run) for run in runs]}"


def tasks_of(ctx: ScenarioContext, repo: RepoRef) -> list[dict[str, Any]]:
    """The repository's tasks (the run shape of specification 2.2)."""
    response = owner_actions(ctx, repo).list_tasks(repo.owner, repo.name, limit=50)
    assert response.status_code == 200, f"listing tasks answered {response.status_code}: {response.text[:300]}"
    tasks = json_of(response).get("workflow_runs")
    assert isinstance(tasks, list), f"the task list has no workflow_runs array: {response.text[:300]}"
    return tasks


@then(phrase('the task of "{file_name}" is named "{name}"'))
def then_task_named(ci_world: CiWorld, file_name: str, name: str) -> None:
    """The name rule of specification 2.2, read where section 2.2's shape is served (the tasks)."""
    tasks = [task for task in tasks_of(ci_world.ctx, ci_world.repository()) if task.get("workflow_id") == file_name]
    assert tasks, f'no task of workflow_id "{file_name}"'
    names = {task.get("name") for task in tasks}
    assert names == {name}, f'the task of "{file_name}" is named {sorted(map(str, names))}, expected {name!r}'


@then(phrase('the run of "{file_name}" has event "{event}" on the default branch at the pushed commit'))
def then_run_origin(ci_world: CiWorld, file_name: str, event: str) -> None:
    """event, head_branch and head_sha of the run match the push."""
    run = _run(ci_world, file_name)
    repo = ci_world.repository()
    assert run.get("event") == event, f"event is {run.get('event')!r}, expected {event!r}"
    assert run.get("head_branch") == repo.default_branch, f"head_branch is {run.get('head_branch')!r}"
    assert run.get("head_sha") == ci_world.commits[file_name], f"head_sha is {run.get('head_sha')!r}"


@then(phrase('the run of "{file_name}" has status "{status}"'))
def then_run_status(ci_world: CiWorld, file_name: str, status: str) -> None:
    """The run's REST status."""
    run = _run(ci_world, file_name)
    assert run.get("status") == status, (
        f'the run of "{file_name}" has status {run.get("status")!r}, expected {status!r}'
    )


@then(phrase('the run of "{file_name}" has completed with conclusion "{conclusion}"'))
def then_run_concluded(ci_world: CiWorld, file_name: str, conclusion: str) -> None:
    """status completed and the conclusion the runner reported (polled: some forges aggregate late)."""
    ctx, repo = ci_world.ctx, ci_world.repository()

    def probe() -> dict[str, Any] | None:
        run = find_run(ctx, repo, file_name)
        return run if run.get("status") == "completed" else None

    run = wait_for(probe, f'the run of "{file_name}" completing', timeout=15.0)
    assert run.get("conclusion") == conclusion, f"conclusion is {run.get('conclusion')!r}, expected {conclusion!r}"

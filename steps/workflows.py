"""Steps of runs, tasks and workflows over REST: listing, reading, dispatching and their shapes (jobs:
``steps.jobs``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pytest
from pytest_bdd import then, when

from conformance.api import quote_path
from conformance.api.actions import ActionsApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from steps.ci import CiWorld, find_run, listed_items, owner_actions, runs_of, total_count, wait_for, workflow_of
from steps.common import comma_list, response_json
from steps.parsing import phrase

__all__: list[str] = []

ISO_WITH_OFFSET = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")


@dataclass
class WorkflowNotes:
    """The run a When step read by id, and the run id a dispatch with run details answered."""

    run: dict[str, Any] | None = None
    dispatched_run_id: int | None = None


@pytest.fixture
def workflow_notes() -> WorkflowNotes:
    """The scenario's workflow notes."""
    return WorkflowNotes()


# ---------------------------------------------------------------- runs


@when(phrase("the repository's owner lists the workflow runs"))
def list_runs(ctx: ScenarioContext, ci_world: CiWorld) -> None:
    """GET .../actions/runs."""
    repo = ci_world.repository()
    ctx.response = owner_actions(ctx, repo).list_runs(repo.owner, repo.name)


@when(phrase("the repository's owner lists the workflow runs at user scope"))
def list_user_runs(ctx: ScenarioContext, ci_world: CiWorld) -> None:
    """GET /user/actions/runs."""
    ctx.response = owner_actions(ctx, ci_world.repository()).user_runs()


@when(phrase("the administrator lists the workflow runs at global scope"))
def list_admin_runs(ctx: ScenarioContext) -> None:
    """GET /admin/actions/runs with the admin token."""
    ctx.response = ctx.admin.area(ActionsApi).admin_runs()


@when(phrase('the repository\'s owner gets the run of "{file_name}" by its id'))
def get_run(ctx: ScenarioContext, workflow_notes: WorkflowNotes, ci_world: CiWorld, file_name: str) -> None:
    """GET .../actions/runs/{id}."""
    repo = ci_world.repository()
    run = find_run(ctx, repo, file_name)
    workflow_notes.run = run
    ctx.response = owner_actions(ctx, repo).get_run(repo.owner, repo.name, int(run["id"]))


@when(phrase('the repository\'s owner deletes the run of "{file_name}"'))
def delete_run(ctx: ScenarioContext, ci_world: CiWorld, file_name: str) -> None:
    """DELETE .../actions/runs/{id}."""
    repo = ci_world.repository()
    ctx.response = owner_actions(ctx, repo).delete_run(repo.owner, repo.name, int(find_run(ctx, repo, file_name)["id"]))


@when(phrase("the repository's owner gets the other repository's run through this repository"))
def get_foreign_run(ctx: ScenarioContext, ci_world: CiWorld) -> None:
    """GET .../actions/runs/{id} with the id of another repository's run."""
    repo, other = ci_world.repository(), ci_world.other_repo
    assert other is not None, "add `Given another repository has already had a workflow run`"
    foreign = find_run(ctx, other, "earlier.yml")
    ctx.response = owner_actions(ctx, repo).get_run(repo.owner, repo.name, int(foreign["id"]))


@then(phrase("the REST run list holds {count:d} runs with a total_count of {total:d}"))
def then_run_list_count(ctx: ScenarioContext, count: int, total: int) -> None:
    """The array and the total agree with what was pushed."""
    runs = listed_items(ctx, "workflow_runs")
    assert len(runs) == count, f"expected {count} runs, got {len(runs)}"
    assert total_count(ctx) == total, f"total_count is {total_count(ctx)!r}, expected {total}"


@then(phrase('the REST run list includes the run of "{file_name}"'))
def then_run_list_includes(ctx: ScenarioContext, ci_world: CiWorld, file_name: str) -> None:
    """The listed runs contain this repository's run of the workflow (matched by id)."""
    wanted = int(find_run(ctx, ci_world.repository(), file_name)["id"])
    ids = [run.get("id") for run in listed_items(ctx, "workflow_runs")]
    assert wanted in ids, f"run {wanted} is not among the listed runs {ids[:20]}"


@then(phrase('the REST run is the run of "{file_name}" with status "{status}"'))
def then_rest_run(ctx: ScenarioContext, workflow_notes: WorkflowNotes, file_name: str, status: str) -> None:
    """The run read by id is that run, in that status."""
    body, run = response_json(ctx), workflow_notes.run
    assert run is not None, 'add `When the repository\'s owner gets the run of "..." by its id`'
    assert body.get("id") == run["id"], f"got run {body.get('id')!r}, expected {run['id']!r}"
    assert workflow_of(body) == file_name, f"the run's path is {body.get('path')!r}, expected {file_name}@..."
    assert body.get("status") == status, f"status is {body.get('status')!r}, expected {status!r}"


@then(phrase("the runs of the repository have the run numbers 1 and 2"))
def then_run_numbers(ctx: ScenarioContext, ci_world: CiWorld) -> None:
    """run_number counts the runs of the repository from 1."""
    repo = ci_world.repository()
    runs = wait_for(lambda: runs_of(ctx, repo) if len(runs_of(ctx, repo)) >= 2 else None, "two runs")
    assert sorted(int(run["run_number"]) for run in runs) == [1, 2], [run.get("run_number") for run in runs]


@then(phrase("the run of the other repository has the run number 1"))
def then_other_run_number(ctx: ScenarioContext, ci_world: CiWorld) -> None:
    """Another repository's numbering starts again at 1."""
    other = ci_world.other_repo
    assert other is not None, "add `Given another repository has already had a workflow run`"
    assert find_run(ctx, other, "earlier.yml").get("run_number") == 1


@then(phrase("the ids of the three runs are distinct"))
def then_run_ids_distinct(ctx: ScenarioContext, ci_world: CiWorld) -> None:
    """Run ids are unique across the service, unlike run numbers."""
    other = ci_world.other_repo
    assert other is not None, "add `Given another repository has already had a workflow run`"
    ids = [int(run["id"]) for run in runs_of(ctx, ci_world.repository())] + [
        int(find_run(ctx, other, "earlier.yml")["id"])
    ]
    assert len(ids) == 3 and len(set(ids)) == 3, f"run ids {ids} are not three distinct ids"


# ---------------------------------------------------------------- tasks (specification 2.2)


@when(phrase("the repository's owner lists the tasks"))
def list_tasks(ctx: ScenarioContext, ci_world: CiWorld) -> None:
    """GET .../actions/tasks."""
    repo = ci_world.repository()
    ctx.response = owner_actions(ctx, repo).list_tasks(repo.owner, repo.name)


def _only_task(ctx: ScenarioContext) -> dict[str, Any]:
    tasks = listed_items(ctx, "workflow_runs")
    assert len(tasks) == 1, f"expected one task, got {len(tasks)}"
    return tasks[0]


@then(phrase("the task list holds {count:d} task with a total_count of {total:d}"))
def then_task_count(ctx: ScenarioContext, count: int, total: int) -> None:
    """The tasks array and its total."""
    assert len(listed_items(ctx, "workflow_runs")) == count
    assert total_count(ctx) == total, f"total_count is {total_count(ctx)!r}, expected {total}"


@then(phrase('the task is named "{name}" with workflow_id "{workflow_id}" and event "{event}"'))
def then_task_identity(ctx: ScenarioContext, name: str, workflow_id: str, event: str) -> None:
    """name, workflow_id (a string) and event of the task."""
    task = _only_task(ctx)
    assert task.get("name") == name, f"name is {task.get('name')!r}"
    assert task.get("workflow_id") == workflow_id, f"workflow_id is {task.get('workflow_id')!r}, expected a string"
    assert task.get("event") == event, f"event is {task.get('event')!r}"


@then(phrase("the task is on the default branch at the pushed commit with run number {number:d}"))
def then_task_origin(ctx: ScenarioContext, ci_world: CiWorld, number: int) -> None:
    """head_branch, head_sha and run_number of the task, and its id is the task the runner holds."""
    task, repo = _only_task(ctx), ci_world.repository()
    assert task.get("head_branch") == repo.default_branch, f"head_branch is {task.get('head_branch')!r}"
    assert task.get("head_sha") in ci_world.commits.values(), f"head_sha {task.get('head_sha')!r} was not pushed"
    assert task.get("run_number") == number, f"run_number is {task.get('run_number')!r}"
    assert task.get("id") == ci_world.held_job().task_id, (
        f"id is {task.get('id')!r}, the runner holds {ci_world.held_job().task_id}"
    )


@then(phrase("the task's url is a relative path that names the run"))
def then_task_url(ctx: ScenarioContext, ci_world: CiWorld) -> None:
    """url is a path (no scheme, no host) ending in the run's number or id."""
    task, repo = _only_task(ctx), ci_world.repository()
    url = str(task.get("url"))
    assert url.startswith("/") and not url.startswith("//"), f"url {url!r} is not a relative path"
    assert f"/{repo.owner}/{repo.name}/actions/runs/" in url, f"url {url!r} is not the run's web path"
    last = url.rstrip("/").rsplit("/", 1)[-1]
    assert last in {str(task.get("run_number")), str(ci_world.held_job().run_id)}, f"url {url!r} does not name the run"


@then(phrase("the task's created_at, updated_at and run_started_at are ISO 8601 with a UTC offset"))
def then_task_times(ctx: ScenarioContext) -> None:
    """Each time parses as ISO 8601 and carries an offset."""
    task = _only_task(ctx)
    for key in ("created_at", "updated_at", "run_started_at"):
        value = str(task.get(key))
        assert ISO_WITH_OFFSET.match(value), f"{key} {value!r} is not ISO 8601 with a UTC offset"
        assert datetime.fromisoformat(value.replace("Z", "+00:00")).tzinfo is not None


@then(phrase("the task has a non-empty display_title"))
def then_task_title(ctx: ScenarioContext) -> None:
    """display_title is a non-empty string."""
    title = _only_task(ctx).get("display_title")
    assert isinstance(title, str) and title.strip(), f"display_title is {title!r}"


@then(phrase('the task has status "{status}"'))
def then_task_status(ctx: ScenarioContext, status: str) -> None:
    """The task's status string (the result once finished)."""
    task = _only_task(ctx)
    assert task.get("status") == status, f"status is {task.get('status')!r}, expected {status!r}"


# ---------------------------------------------------------------- workflows and dispatch


@when(phrase("the repository's owner lists the workflows"))
def list_workflows(ctx: ScenarioContext, ci_world: CiWorld) -> None:
    """GET .../actions/workflows."""
    repo = ci_world.repository()
    ctx.response = owner_actions(ctx, repo).list_workflows(repo.owner, repo.name)


@when(phrase('the repository\'s owner gets the workflow "{workflow_id}"'))
def get_workflow(ctx: ScenarioContext, ci_world: CiWorld, workflow_id: str) -> None:
    """GET .../actions/workflows/{workflow_id}."""
    repo = ci_world.repository()
    ctx.response = owner_actions(ctx, repo).get_workflow(repo.owner, repo.name, workflow_id)


@when(phrase('the repository\'s owner dispatches "{workflow_id}" on the default branch with run details'))
def dispatch_with_details(
    ctx: ScenarioContext, workflow_notes: WorkflowNotes, ci_world: CiWorld, workflow_id: str
) -> None:
    """POST .../dispatches?return_run_details=true."""
    repo = ci_world.repository()
    api = owner_actions(ctx, repo)
    ctx.response = api.dispatch(repo.owner, repo.name, workflow_id, repo.default_branch, return_run_details=True)
    if ctx.response.status_code == 200:
        workflow_notes.dispatched_run_id = json_of(ctx.response).get("workflow_run_id")


@when(phrase('the repository\'s owner dispatches "{workflow_id}" on the default branch'))
def dispatch(ctx: ScenarioContext, ci_world: CiWorld, workflow_id: str) -> None:
    """POST .../dispatches without run details."""
    repo = ci_world.repository()
    ctx.response = owner_actions(ctx, repo).dispatch(repo.owner, repo.name, workflow_id, repo.default_branch)


@when(phrase('the repository\'s owner dispatches "{workflow_id}" on the ref "{ref}"'))
def dispatch_on_ref(ctx: ScenarioContext, ci_world: CiWorld, workflow_id: str, ref: str) -> None:
    """POST .../dispatches with an explicit ``ref`` (a branch, a full ref, or something that names nothing)."""
    repo = ci_world.repository()
    ctx.response = owner_actions(ctx, repo).dispatch(repo.owner, repo.name, workflow_id, ref)


@when(phrase('the repository\'s owner dispatches "{workflow_id}" with a ref that is a number'))
def dispatch_numeric_ref(ctx: ScenarioContext, ci_world: CiWorld, workflow_id: str) -> None:
    """POST .../dispatches with ``{"ref": 5}``: the body does not bind to CreateActionWorkflowDispatch."""
    repo = ci_world.repository()
    path = f"repos/{repo.full_name}/actions/workflows/{quote_path(workflow_id)}/dispatches"
    ctx.response = owner_actions(ctx, repo).http.post(path, json={"ref": 5})


@when(phrase('the repository\'s owner dispatches "{workflow_id}" without a ref'))
def dispatch_without_ref(ctx: ScenarioContext, ci_world: CiWorld, workflow_id: str) -> None:
    """POST .../dispatches with a body lacking ref."""
    repo = ci_world.repository()
    ctx.response = owner_actions(ctx, repo).dispatch(repo.owner, repo.name, workflow_id, None)


@then(phrase('the REST workflow list holds exactly "{ids}" with a total_count of {total:d}'))
def then_workflow_list(ctx: ScenarioContext, ids: str, total: int) -> None:
    """The listed workflow ids (file names) and the total."""
    listed = sorted(str(item.get("id")) for item in listed_items(ctx, "workflows"))
    assert listed == sorted(comma_list(ids)), f"listed workflows {listed}"
    assert total_count(ctx) == total, f"total_count is {total_count(ctx)!r}, expected {total}"


@then(phrase('the workflow "{workflow_id}" is named "{name}" at the path "{path}" in state "{state}"'))
def then_workflow_fields(ctx: ScenarioContext, workflow_id: str, name: str, path: str, state: str) -> None:
    """name, path and state of a listed workflow."""
    item = next((item for item in listed_items(ctx, "workflows") if item.get("id") == workflow_id), None)
    assert item is not None, f'no workflow "{workflow_id}" listed'
    actual = (item.get("name"), item.get("path"), item.get("state"))
    assert actual == (name, path, state), f"workflow is {actual!r}"


@then(phrase('the REST workflow has the id "{workflow_id}" and the name "{name}"'))
def then_rest_workflow(ctx: ScenarioContext, workflow_id: str, name: str) -> None:
    """id and name of the workflow read."""
    body = response_json(ctx)
    assert (body.get("id"), body.get("name")) == (workflow_id, name), (
        f"workflow is {body.get('id')!r} {body.get('name')!r}"
    )


@then(phrase('the run details name a run of the repository with event "{event}"'))
def then_run_details(ctx: ScenarioContext, ci_world: CiWorld, event: str) -> None:
    """workflow_run_id is a run of this repository, with that event, and run_url points to it."""
    body, repo = response_json(ctx), ci_world.repository()
    run_id = body.get("workflow_run_id")
    assert isinstance(run_id, int) and run_id > 0, f"workflow_run_id is {run_id!r}"
    assert str(body.get("run_url", "")).endswith(f"/repos/{repo.owner}/{repo.name}/actions/runs/{run_id}")
    response = owner_actions(ctx, repo).get_run(repo.owner, repo.name, run_id)
    assert response.status_code == 200, f"the run {run_id} answered {response.status_code}"
    run = json_of(response)
    assert run.get("event") == event, f"the run's event is {run.get('event')!r}"


@then(phrase("the task handed out belongs to the dispatched run"))
def then_task_of_dispatched_run(workflow_notes: WorkflowNotes, ci_world: CiWorld) -> None:
    """The runner took a job of the run the dispatch reported."""
    dispatched = workflow_notes.dispatched_run_id
    assert dispatched is not None, "add `When the repository's owner dispatches ... with run details`"
    held = ci_world.held_job()
    assert held.run_id == dispatched, f"the runner took a job of run {held.run_id}, the dispatch made run {dispatched}"


@then(phrase('the repository has a run of "{file_name}" with event "{event}"'))
def then_has_run(ctx: ScenarioContext, ci_world: CiWorld, file_name: str, event: str) -> None:
    """A run of the workflow with that event exists."""
    run = find_run(ctx, ci_world.repository(), file_name)
    assert run.get("event") == event, f"the run's event is {run.get('event')!r}"


@then(phrase("the repository has no workflow run"))
def then_no_run(ctx: ScenarioContext, ci_world: CiWorld) -> None:
    """The run list is empty (checked once the request that could have made one has answered)."""
    runs = runs_of(ctx, ci_world.repository())
    assert not runs, f"unexpected runs: {[workflow_of(run) for run in runs]}"

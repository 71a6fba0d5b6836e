"""Steps of the jobs of a run over REST: listing, reading, their logs and states, and the job a runner holds."""

from __future__ import annotations

from typing import Any

from forge_proto import runner_pb2
from google.protobuf.timestamp_pb2 import Timestamp
from pytest_bdd import then, when

from conformance.client import json_of
from conformance.context import ScenarioContext
from steps.ci import CiWorld, find_run, listed_items, owner_actions, total_count
from steps.common import comma_list, response_json
from steps.parsing import phrase

__all__: list[str] = []


def _jobs_of_run(ctx: ScenarioContext, ci_world: CiWorld, file_name: str) -> list[dict[str, Any]]:
    repo = ci_world.repository()
    run = find_run(ctx, repo, file_name)
    response = owner_actions(ctx, repo).list_run_jobs(repo.owner, repo.name, int(run["id"]))
    assert response.status_code == 200, f"listing jobs answered {response.status_code}: {response.text[:300]}"
    jobs = json_of(response).get("jobs")
    assert isinstance(jobs, list), f"no jobs array: {response.text[:300]}"
    return jobs


def _job_named(ctx: ScenarioContext, ci_world: CiWorld, name: str, file_name: str = "pipeline.yml") -> dict[str, Any]:
    for job in _jobs_of_run(ctx, ci_world, file_name):
        if job.get("name") == name:
            return job
    raise AssertionError(f'no job "{name}" in the run of "{file_name}"')


@when(phrase('the repository\'s owner lists the jobs of the run of "{file_name}"'))
def list_run_jobs(ctx: ScenarioContext, ci_world: CiWorld, file_name: str) -> None:
    """GET .../actions/runs/{run}/jobs."""
    repo = ci_world.repository()
    run = find_run(ctx, repo, file_name)
    ctx.response = owner_actions(ctx, repo).list_run_jobs(repo.owner, repo.name, int(run["id"]))


@when(phrase("the repository's owner lists the jobs of the repository"))
def list_repo_jobs(ctx: ScenarioContext, ci_world: CiWorld) -> None:
    """GET .../actions/jobs."""
    repo = ci_world.repository()
    ctx.response = owner_actions(ctx, repo).list_jobs(repo.owner, repo.name)


@when(phrase("the repository's owner lists the jobs at user scope"))
def list_user_jobs(ctx: ScenarioContext, ci_world: CiWorld) -> None:
    """GET /user/actions/jobs."""
    ctx.response = owner_actions(ctx, ci_world.repository()).user_jobs()


@when(phrase('the repository\'s owner gets the job "{name}"'))
def get_job(ctx: ScenarioContext, ci_world: CiWorld, name: str) -> None:
    """GET .../actions/jobs/{job_id}."""
    repo = ci_world.repository()
    ctx.response = owner_actions(ctx, repo).get_job(repo.owner, repo.name, int(_job_named(ctx, ci_world, name)["id"]))


@when(phrase('the repository\'s owner gets the job "{name}" through the second repository'))
def get_job_elsewhere(ctx: ScenarioContext, ci_world: CiWorld, name: str) -> None:
    """GET .../actions/jobs/{job_id} under another repository of the owner."""
    second = ci_world.second_repo
    assert second is not None, "add `Given the repository's owner has a second repository`"
    job_id = int(_job_named(ctx, ci_world, name)["id"])
    ctx.response = owner_actions(ctx, second).get_job(second.owner, second.name, job_id)


@when(phrase('the mock runner sends the log lines "{lines}"'))
def send_log_lines(ci_world: CiWorld, lines: str) -> None:
    """UpdateLog from index 0 with these rows, then no more."""
    job = ci_world.held_job()
    now = Timestamp()
    now.GetCurrentTime()
    rows = [runner_pb2.LogRow(time=now, content=line) for line in comma_list(lines)]
    ack = job.runner.update_log(job.task_id, 0, rows, no_more=True)
    assert ack == len(rows), f"UpdateLog acknowledged {ack} of {len(rows)} rows"


@when(phrase('the repository\'s owner gets the log of the job "{name}"'))
def get_job_log(ctx: ScenarioContext, ci_world: CiWorld, name: str) -> None:
    """GET .../actions/jobs/{job_id}/logs."""
    repo = ci_world.repository()
    ctx.response = owner_actions(ctx, repo).job_logs(repo.owner, repo.name, int(_job_named(ctx, ci_world, name)["id"]))


@then(phrase('the REST job list holds exactly the jobs "{names}" with a total_count of {total:d}'))
def then_job_list(ctx: ScenarioContext, names: str, total: int) -> None:
    """The listed job names and the total."""
    listed = sorted(str(job.get("name")) for job in listed_items(ctx, "jobs"))
    assert listed == sorted(comma_list(names)), f"listed jobs {listed}, expected {sorted(comma_list(names))}"
    assert total_count(ctx) == total, f"total_count is {total_count(ctx)!r}, expected {total}"


@then(phrase('the REST job list includes the jobs "{names}"'))
def then_job_list_includes(ctx: ScenarioContext, ci_world: CiWorld, names: str) -> None:
    """The jobs of this repository's run are among the listed ones (by id)."""
    wanted = {int(_job_named(ctx, ci_world, name)["id"]) for name in comma_list(names)}
    listed = {job.get("id") for job in listed_items(ctx, "jobs")}
    assert wanted <= listed, f"jobs {sorted(wanted - listed)} are not listed"


@then(phrase('the job "{name}" has the labels "{labels}"'))
def then_job_labels(ctx: ScenarioContext, name: str, labels: str) -> None:
    """A job's labels are its runs-on labels."""
    job = next((job for job in listed_items(ctx, "jobs") if job.get("name") == name), None)
    assert job is not None, f'no job "{name}" listed'
    assert sorted(job.get("labels") or []) == sorted(comma_list(labels)), f"labels are {job.get('labels')!r}"


@then(phrase('every listed job belongs to the run of "{file_name}"'))
def then_jobs_of_run(ctx: ScenarioContext, ci_world: CiWorld, file_name: str) -> None:
    """run_id of every listed job is the run's id."""
    run_id = find_run(ctx, ci_world.repository(), file_name)["id"]
    assert all(job.get("run_id") == run_id for job in listed_items(ctx, "jobs")), f"not every job has run_id {run_id}"


@then(phrase('the job "{name}" has status "{status}"'))
def then_job_status(ctx: ScenarioContext, ci_world: CiWorld, name: str, status: str) -> None:
    """A job's REST status."""
    actual = _job_named(ctx, ci_world, name).get("status")
    assert actual == status, f'the job "{name}" has status {actual!r}, expected {status!r}'


@then(phrase('the job "{name}" has status "{first}" or "{second}"'))
def then_job_status_either(ctx: ScenarioContext, ci_world: CiWorld, name: str, first: str, second: str) -> None:
    """A job's REST status is one of two version-dependent names."""
    actual = _job_named(ctx, ci_world, name).get("status")
    assert actual in (first, second), f'the job "{name}" has status {actual!r}, expected {first!r} or {second!r}'


@then(phrase('the job "{name}" has completed with conclusion "{conclusion}"'))
def then_job_concluded(ctx: ScenarioContext, ci_world: CiWorld, name: str, conclusion: str) -> None:
    """status completed and the reported conclusion."""
    job = _job_named(ctx, ci_world, name)
    assert (job.get("status"), job.get("conclusion")) == ("completed", conclusion), (
        f'the job "{name}" is {job.get("status")!r} with conclusion {job.get("conclusion")!r}'
    )


@then(phrase('the task handed out is the job "{name}"'))
def then_task_is_job(ctx: ScenarioContext, ci_world: CiWorld, name: str) -> None:
    """The held task runs this job (its id is the job's, and the context names it)."""
    held = ci_world.held_job()
    job = _job_named(ctx, ci_world, name)
    assert held.job_id == job.get("id"), f"the runner holds job {held.job_id}, {name!r} is job {job.get('id')}"


@then(phrase('the REST job is "{name}" of the run of "{file_name}"'))
def then_rest_job(ctx: ScenarioContext, ci_world: CiWorld, name: str, file_name: str) -> None:
    """The job read by id is that job of that run."""
    body = response_json(ctx)
    run_id = find_run(ctx, ci_world.repository(), file_name)["id"]
    assert (body.get("name"), body.get("run_id")) == (name, run_id), (
        f"got job {body.get('name')!r} of run {body.get('run_id')!r}"
    )


@then(phrase('the log holds the lines "{lines}" in that order'))
def then_log_lines(ctx: ScenarioContext, lines: str) -> None:
    """Each sent line appears in the log text, in order."""
    text = ctx.last_response().text
    position = 0
    for line in comma_list(lines):
        found = text.find(line, position)
        assert found >= 0, f"{line!r} is not in the log (after position {position}): {text[:500]!r}"
        position = found + len(line)

"""Steps of artifacts over REST (list, get, delete, 302 to the signed raw zip) and of the whole CI path.

The CI path runs the real mock runner daemon: registered with a repository registration token, it
takes the pushed workflow's job, runs its ``run:`` steps and uploads with the native upload-artifact.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from pytest_bdd import given, then, when

from conformance.api.actions import ActionsApi
from conformance.api.artifacts import ArtifactsApi
from conformance.client import HttpClient, json_of
from conformance.context import ScenarioContext
from conformance.identities import IdentityFactory
from conformance.target import Target
from mock_runner.daemon import Daemon
from mock_runner.runnerfile import RunnerFile
from steps.actors import repo_owner, scoped_token_api
from steps.artifacts import ArtifactWorld, other_id, tamper
from steps.parsing import phrase

__all__: list[str] = []


def _api(artifacts: ArtifactWorld) -> ArtifactsApi:
    """The artifact operations as the owner of the job's repository."""
    return repo_owner(artifacts.ctx, artifacts.ci.repository()).area(ArtifactsApi)


def _id(artifacts: ArtifactWorld, name: str) -> int:
    known = artifacts.notes().ids.get(name)
    if known is not None:
        return known
    for item in _rest_list(artifacts):
        if item.get("name") == name:
            return int(item["id"])
    raise AssertionError(f'no artifact "{name}" in this scenario')


def _rest_list(artifacts: ArtifactWorld) -> list[dict[str, Any]]:
    repo = artifacts.ci.repository()
    response = _api(artifacts).list_artifacts(repo.owner, repo.name)
    assert response.status_code == 200, f"listing artifacts answered {response.status_code}: {response.text[:300]}"
    items = json_of(response).get("artifacts")
    assert isinstance(items, list), f"no artifacts array: {response.text[:300]}"
    return items


def _names(text: str) -> list[str]:
    return sorted(name.strip() for name in text.split(",") if name.strip())


def _raw_url(artifacts: ArtifactWorld, name: str) -> str:
    """The signed raw URL the /zip endpoint redirects to."""
    repo = artifacts.ci.repository()
    response = _api(artifacts).artifact_zip(repo.owner, repo.name, _id(artifacts, name))
    assert response.status_code == 302, f"the zip endpoint answered {response.status_code}: {response.text[:200]}"
    location = response.headers.get("Location", "")
    return location if location.startswith("http") else _api(artifacts).http.url(location)


# ---------------------------------------------------------------- When: REST operations


@when(phrase("the repository's owner lists the REST artifacts"))
def list_rest(ctx: ScenarioContext, artifacts: ArtifactWorld) -> None:
    """GET .../actions/artifacts."""
    repo = artifacts.ci.repository()
    ctx.response = _api(artifacts).list_artifacts(repo.owner, repo.name)


@when(phrase('the repository\'s owner lists the REST artifacts named "{name}"'))
def list_rest_named(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> None:
    """GET .../actions/artifacts?name=."""
    repo = artifacts.ci.repository()
    ctx.response = _api(artifacts).list_artifacts(repo.owner, repo.name, name=name)


def _job_run(artifacts: ArtifactWorld) -> dict[str, Any]:
    repo, job = artifacts.ci.repository(), artifacts.job()
    response = repo_owner(artifacts.ctx, repo).area(ActionsApi).get_run(repo.owner, repo.name, job.run_id)
    assert response.status_code == 200, f"the job's run answered {response.status_code}: {response.text[:200]}"
    run: dict[str, Any] = json_of(response)
    return run


@when(phrase("the repository's owner lists the REST artifacts of the job's run by its id"))
def list_rest_of_run_by_id(ctx: ScenarioContext, artifacts: ArtifactWorld) -> None:
    """GET .../actions/runs/{run}/artifacts with the unique run id."""
    repo = artifacts.ci.repository()
    ctx.response = _api(artifacts).list_run_artifacts(repo.owner, repo.name, artifacts.job().run_id)


@when(phrase("the repository's owner lists the REST artifacts of the job's run by its run number"))
def list_rest_of_run_by_number(ctx: ScenarioContext, artifacts: ArtifactWorld) -> None:
    """GET .../actions/runs/{run}/artifacts with the per-repository run number instead."""
    repo, run = artifacts.ci.repository(), _job_run(artifacts)
    assert run["run_number"] != run["id"], "the run number equals the run id here: the check would prove nothing"
    ctx.response = _api(artifacts).list_run_artifacts(repo.owner, repo.name, int(run["run_number"]))


@when(phrase("the repository's owner deletes the job's run"))
def delete_job_run(ctx: ScenarioContext, artifacts: ArtifactWorld) -> None:
    """DELETE .../actions/runs/{run} of the job's run."""
    repo = artifacts.ci.repository()
    ctx.response = repo_owner(ctx, repo).area(ActionsApi).delete_run(repo.owner, repo.name, artifacts.job().run_id)


@when(phrase('the repository\'s owner gets the REST artifact "{name}"'))
def get_rest(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> None:
    """GET .../actions/artifacts/{artifact_id}."""
    repo = artifacts.ci.repository()
    ctx.response = _api(artifacts).get_artifact(repo.owner, repo.name, _id(artifacts, name))


@when(phrase('the repository\'s owner gets the REST artifact "{name}" through the second repository'))
def get_rest_elsewhere(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> None:
    """GET .../actions/artifacts/{artifact_id} under another repository of the owner."""
    second = artifacts.ci.second_repo
    assert second is not None, "add `Given the repository's owner has a second repository`"
    ctx.response = _api(artifacts).get_artifact(second.owner, second.name, _id(artifacts, name))


@when(phrase('the repository\'s owner deletes the REST artifact "{name}"'))
def delete_rest(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> None:
    """DELETE .../actions/artifacts/{artifact_id}."""
    repo = artifacts.ci.repository()
    ctx.response = _api(artifacts).delete_artifact(repo.owner, repo.name, _id(artifacts, name))


@when(phrase('the repository\'s owner deletes the REST artifact "{name}" with a read-only token'))
def delete_rest_read_only(
    ctx: ScenarioContext, artifacts: ArtifactWorld, identities: IdentityFactory, name: str
) -> None:
    """The same DELETE with a read:repository token."""
    repo = artifacts.ci.repository()
    api = scoped_token_api(ctx, identities, repo.short.split("/", 1)[0], ["read:repository"]).area(ArtifactsApi)
    ctx.response = api.delete_artifact(repo.owner, repo.name, _id(artifacts, name))


@when(phrase('the repository\'s owner requests the REST zip of "{name}"'))
def request_zip(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> None:
    """GET .../artifacts/{artifact_id}/zip without following the redirect."""
    repo = artifacts.ci.repository()
    ctx.response = _api(artifacts).artifact_zip(repo.owner, repo.name, _id(artifacts, name))


@when(phrase("the repository's owner requests the REST zip of an artifact id that does not exist"))
def request_zip_unknown(ctx: ScenarioContext, artifacts: ArtifactWorld) -> None:
    """/zip of an id far beyond the scenario's artifacts."""
    repo = artifacts.ci.repository()
    ctx.response = _api(artifacts).artifact_zip(repo.owner, repo.name, max(artifacts.notes().ids.values()) + 100000)


@when(phrase("the redirect target is fetched without credentials"))
def fetch_redirect(ctx: ScenarioContext, artifacts: ArtifactWorld) -> None:
    """GET the Location of the last 302 with no credentials."""
    location = ctx.last_response().headers.get("Location", "")
    url = location if location.startswith("http") else _api(artifacts).http.url(location)
    ctx.response = artifacts.protocol().fetch(url)


@given(phrase('the repository\'s owner has obtained the raw zip URL of "{name}"'))
def given_raw_url(artifacts: ArtifactWorld, name: str) -> None:
    """The signed raw URL, kept for later."""
    artifacts.raw_zip_url = _raw_url(artifacts, name)


@when(phrase("the obtained raw zip URL is fetched without credentials"))
def fetch_obtained_raw(ctx: ScenarioContext, artifacts: ArtifactWorld) -> None:
    """GET the kept raw URL."""
    ctx.response = artifacts.protocol().fetch(artifacts.raw_zip_url)


@when(phrase('the raw zip URL of "{name}" is fetched with {how:Tampering}'))
def fetch_tampered_raw(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str, how: str) -> None:
    """The signed raw URL changed before the GET."""
    ctx.response = artifacts.protocol().fetch(tamper(_raw_url(artifacts, name), how, other_id(artifacts, how)))


@when(phrase('the raw zip URL of "{name}" is fetched without its signature but with the owner\'s token'))
def fetch_raw_with_token(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> None:
    """The raw URL stripped of sig and expires, sent with the owner's account token."""
    parts = urlsplit(_raw_url(artifacts, name))
    kept = [(key, value) for key, value in parse_qsl(parts.query) if key not in ("sig", "expires")]
    url = urlunsplit(parts._replace(query="&".join(f"{key}={value}" for key, value in kept)))
    ctx.response = _api(artifacts).fetch(url)


# ---------------------------------------------------------------- Then: REST shapes


def _listed(ctx: ScenarioContext) -> list[dict[str, Any]]:
    body = json_of(ctx.last_response())
    items = body.get("artifacts") if isinstance(body, dict) else None
    assert isinstance(items, list), f"expected an object with an artifacts array: {str(body)[:300]}"
    return items


@then(phrase('the REST artifact list holds exactly "{names}"'))
def then_rest_list(ctx: ScenarioContext, names: str) -> None:
    """The listed names."""
    actual = sorted(str(item.get("name")) for item in _listed(ctx))
    assert actual == _names(names), f"listed {actual}, expected {_names(names)}"


@then(phrase("the REST artifact list's total_count is {total:d}"))
def then_rest_total(ctx: ScenarioContext, total: int) -> None:
    """total_count of the list object."""
    actual = json_of(ctx.last_response()).get("total_count")
    assert actual == total, f"total_count is {actual!r}, expected {total}"


@then(phrase('the REST artifact list does not hold "{name}"'))
def then_rest_list_lacks(ctx: ScenarioContext, name: str) -> None:
    """A 404, or a list without the artifact."""
    response = ctx.last_response()
    if response.status_code == 404:
        return
    assert response.status_code == 200, f"expected 200 or 404, got {response.status_code}"
    assert name not in [item.get("name") for item in _listed(ctx)], f'"{name}" is listed'


@then(phrase('the REST artifact is "{name}" with size {size:d} of the job\'s run'))
def then_rest_artifact(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str, size: int) -> None:
    """id, name, size and run of the artifact read."""
    body = json_of(ctx.last_response())
    job = artifacts.job()
    actual = (body.get("id"), body.get("name"), body.get("size_in_bytes"), body.get("workflow_run", {}).get("id"))
    assert actual == (_id(artifacts, name), name, size, job.run_id), f"got {actual}"
    head_sha = body.get("workflow_run", {}).get("head_sha")
    assert head_sha == artifacts.ci.commits.get("artifacts.yml"), f"workflow_run.head_sha is {head_sha!r}"
    assert body.get("expired") is False, f"expired is {body.get('expired')!r}"


@then(phrase('the REST artifact\'s archive_download_url is its url followed by "{suffix}"'))
def then_archive_url(ctx: ScenarioContext, suffix: str) -> None:
    """archive_download_url = url + /zip, and url ends in the artifact's id."""
    body = json_of(ctx.last_response())
    url = str(body.get("url"))
    assert url.endswith(f"/actions/artifacts/{body.get('id')}"), f"url is {url!r}"
    assert body.get("archive_download_url") == url + suffix, (
        f"archive_download_url is {body.get('archive_download_url')!r}"
    )


@then(phrase('the REST redirect points to the raw zip of "{name}" with a signature'))
def then_redirect(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> None:
    """Location is .../artifacts/{id}/zip/raw with sig and expires."""
    location = ctx.last_response().headers.get("Location", "")
    parts = urlsplit(location)
    assert parts.path.endswith(f"/actions/artifacts/{_id(artifacts, name)}/zip/raw"), f"Location is {location!r}"
    query = dict(parse_qsl(parts.query))
    assert query.get("sig") and query.get("expires"), f"Location {location!r} carries no signature"


# ---------------------------------------------------------------- the CI path


@when(phrase("the mock runner runs one job"))
def daemon_runs_one_job(artifacts: ArtifactWorld, target: Target, tmp_path: Path) -> None:
    """The mock runner daemon declares, polls, executes one job and reports it."""
    state = artifacts.ci
    runner = state.runner
    assert runner is not None and state.repo is not None, 'add `Given a mock runner registered to "dev/app" ...`'
    runner_file = tmp_path / ".runner"
    declared = runner.declare(state.runner_labels)
    RunnerFile(
        id=declared.id,
        uuid=runner.uuid,
        name=declared.name,
        token=runner.token,
        address=target.base_url,
        labels=list(state.runner_labels),
    ).save(runner_file)
    # a job is queued when its workflow is pushed, so the first poll usually takes it; a later one need not
    # wait act_runner's 2 s
    outcome = Daemon(runner_file, workdir=tmp_path / "work", fetch_interval=0.2).run_once(timeout=120)
    assert outcome is not None, "the mock runner got no job within 120 s"
    artifacts.daemon_outcome = outcome


@then(phrase('the job ends with result "{result}"'))
def then_daemon_result(artifacts: ArtifactWorld, result: str) -> None:
    """The result the runner reported for the job."""
    outcome = artifacts.daemon_outcome
    assert outcome is not None, "the mock runner ran no job: add `When the mock runner runs one job`"
    log = "\n".join(outcome.log_lines[-30:])
    assert outcome.result_name == result, f"the job ended with {outcome.result_name!r}; last log lines:\n{log}"


@then(phrase('the repository\'s REST artifacts hold exactly "{names}"'))
def then_repo_artifacts(artifacts: ArtifactWorld, names: str) -> None:
    """The repository's artifact list over REST."""
    actual = sorted(str(item.get("name")) for item in _rest_list(artifacts))
    assert actual == _names(names), f"the repository lists {actual}, expected {_names(names)}"


def _zip_of(artifacts: ArtifactWorld, name: str) -> zipfile.ZipFile:
    cache = artifacts.zips
    if name not in cache:
        admin = artifacts.ctx.admin
        plain = HttpClient(admin.site_url, None, recorder=admin.http.recorder)
        response = plain.get(_raw_url(artifacts, name))
        assert response.status_code == 200, f"the raw zip answered {response.status_code}: {response.text[:200]}"
        cache[name] = response.content
    return zipfile.ZipFile(io.BytesIO(cache[name]))


@then(phrase('the REST zip of "{name}" holds exactly the files "{paths}"'))
def then_zip_files(artifacts: ArtifactWorld, name: str, paths: str) -> None:
    """The zip's file entries (directories aside)."""
    entries = sorted(info.filename for info in _zip_of(artifacts, name).infolist() if not info.is_dir())
    assert entries == _names(paths), f"the zip holds {entries}, expected {_names(paths)}"


def _member(artifacts: ArtifactWorld, name: str, path: str) -> bytes:
    return _zip_of(artifacts, name).read(path)


@then(phrase('in the REST zip of "{name}" the file "{path}" holds "{text}" and a newline'))
def then_zip_text(artifacts: ArtifactWorld, name: str, path: str, text: str) -> None:
    """A text file's exact bytes."""
    assert _member(artifacts, name, path) == (text + "\n").encode(), (
        f"{path} holds {_member(artifacts, name, path)[:200]!r}"
    )


@then(phrase('in the REST zip of "{name}" the file "{path}" holds the numbers 1 to {last:d}, one per line'))
def then_zip_numbers(artifacts: ArtifactWorld, name: str, path: str, last: int) -> None:
    """The output of ``seq 1 N``, byte for byte."""
    expected = "".join(f"{number}\n" for number in range(1, last + 1)).encode()
    actual = _member(artifacts, name, path)
    assert actual == expected, f"{path}: {len(actual)} bytes differ from seq 1 {last} ({len(expected)} bytes)"


@then(phrase('in the REST zip of "{name}" the file "{path}" holds the bytes "{hex_bytes}" in hex'))
def then_zip_bytes(artifacts: ArtifactWorld, name: str, path: str, hex_bytes: str) -> None:
    """A binary file's exact bytes."""
    assert _member(artifacts, name, path) == bytes.fromhex(hex_bytes), (
        f"{path} holds {_member(artifacts, name, path).hex()}"
    )

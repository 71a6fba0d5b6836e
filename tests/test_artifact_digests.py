"""Artifact digests: kept at finalize, listed (Twirp field 7, REST ``digest``), verified by the mock runner."""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jwt
import pytest
from flask import Flask, Response
from flask.testing import FlaskClient
from forge_proto import artifact_pb2 as pb
from forge_proto import runner_pb2
from test_mock_runner_executor import RecordingSink, make_task
from test_mock_runner_support import FakeServer, LiveForge, fake_server, live_forge, take_task
from test_server_artifacts_support import (
    FakeActions,
    Job,
    block_id,
    block_list_xml,
    install_fake_actions,
    sha,
    twirp_error,
)

from mock_runner.artifacts import ArtifactClient, DigestMismatchError, DownloadResult, backend_ids
from mock_runner.cli import main as mock_runner_main
from mock_runner.executor import execute_job
from mock_runner.jobenv import JobRuntime, masker_for, task_context
from mock_runner.transport import RetryPolicy
from reference_server.artifacts import models, store
from reference_server.artifacts.presenters import artifact_to_api

__all__ = ["fake_server", "live_forge"]

API = "/api/v1"
SERVICE = "/twirp/github.actions.results.api.v1.ArtifactService/"
SUCCESS, FAILURE = runner_pb2.RESULT_SUCCESS, runner_pb2.RESULT_FAILURE
FAST = RetryPolicy(attempts=3, initial_wait=0.01, max_wait=0.05)
RUNTIME_TOKEN = jwt.encode(
    {"scp": "Actions.Results:5:6"}, "a signing key the artifact client never checks", algorithm="HS256"
)


def twirp(body: object) -> Response:
    return Response(json.dumps(body), content_type="application/json")


@pytest.fixture
def actions(app: Flask, monkeypatch: pytest.MonkeyPatch) -> FakeActions:
    return install_fake_actions(app, monkeypatch)


@pytest.fixture(autouse=True)
def app_context(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


@pytest.fixture
def repo(client: FlaskClient, admin_headers: dict[str, str]) -> dict[str, Any]:
    response = client.post(f"{API}/user/repos", json={"name": "digests"}, headers=admin_headers)
    assert response.status_code == 201, response.get_data(as_text=True)
    body: dict[str, Any] = response.get_json()
    return body


@pytest.fixture
def job(actions: FakeActions, repo: dict[str, Any]) -> Job:
    return actions.start_job(repo_id=repo["id"])


def upload_without_hash(job: Job, name: str, data: bytes) -> int:
    """An older client's upload: FinalizeArtifact carries no hash."""
    url = job.create(name)
    assert job.put_block(url, block_id(0), data).status_code == 201
    assert job.put_block_list(url, block_list_xml([block_id(0)])).status_code == 201
    response = job.finalize(name, len(data))
    assert response.status_code == 200, response.get_data(as_text=True)
    return int(response.get_json()["artifactId"])


def test_the_finalized_hash_is_listed_as_the_digest(job: Job) -> None:
    data = b"digest me\n" * 7
    job.upload("kept", data)
    (item,) = job.listed()
    assert item["digest"] == sha(data)  # protojson of a StringValue is the bare string


def test_without_a_hash_the_server_lists_the_sha256_it_computed(job: Job) -> None:
    data = bytes(range(256)) * 3
    upload_without_hash(job, "unhashed", data)
    assert [item["digest"] for item in job.listed()] == ["sha256:" + hashlib.sha256(data).hexdigest()]


def test_an_uppercase_hash_is_listed_in_lowercase(job: Job) -> None:
    data = b"CASE"
    url = job.create("upper")
    assert job.put_block(url, block_id(0), data).status_code == 201
    assert job.put_block_list(url, block_list_xml([block_id(0)])).status_code == 201
    hex_upper = hashlib.sha256(data).hexdigest().upper()
    assert job.finalize("upper", len(data), f"sha256:{hex_upper}").status_code == 200
    assert job.listed()[0]["digest"] == f"sha256:{hex_upper.lower()}"


def test_a_wrong_hash_stores_nothing_and_lists_nothing(job: Job) -> None:
    url = job.create("liar")
    assert job.put_block(url, block_id(0), b"real bytes").status_code == 201
    assert job.put_block_list(url, block_list_xml([block_id(0)])).status_code == 201
    message = twirp_error(job.finalize("liar", 10, sha(b"other bytes")), 400, "invalid_argument")
    assert sha(b"real bytes") in message
    assert job.listed() == []
    row = store.find_by_name(job.task.run_id, "liar")
    assert row is not None and row.status == store.PENDING and row.sha256 == ""


def test_binary_listing_carries_the_digest_in_field_7(job: Job) -> None:
    data = b"\x00\x01binary"
    job.upload("wire", data)
    request = pb.ListArtifactsRequest(
        workflow_run_backend_id=str(job.task.run_id), workflow_job_run_backend_id=str(job.task.job_id)
    )
    response = job.client.post(
        SERVICE + "ListArtifacts",
        data=request.SerializeToString(),
        headers={"Authorization": f"Bearer {job.token}", "Content-Type": "application/protobuf"},
    )
    assert response.status_code == 200
    (item,) = pb.ListArtifactsResponse.FromString(response.data).artifacts
    assert item.HasField("digest") and item.digest.value == sha(data)
    assert pb.ListArtifactsResponse_MonolithArtifact.DESCRIPTOR.fields_by_name["digest"].number == 7


def test_rest_objects_carry_the_digest(
    client: FlaskClient, admin_headers: dict[str, str], repo: dict[str, Any], job: Job
) -> None:
    data = b"rest digest"
    artifact_id = job.upload("rest", data)
    base = f"{API}/repos/{repo['full_name']}/actions"
    one = client.get(f"{base}/artifacts/{artifact_id}", headers=admin_headers).get_json()
    listed = client.get(f"{base}/artifacts", headers=admin_headers).get_json()["artifacts"]
    of_run = client.get(f"{base}/runs/{job.task.run_id}/artifacts", headers=admin_headers).get_json()["artifacts"]
    assert one["digest"] == listed[0]["digest"] == of_run[0]["digest"] == sha(data)


def test_a_row_without_a_sha256_has_a_null_digest(job: Job, repo: dict[str, Any]) -> None:
    """Rows no client hashed (none today; a future protocol may add them) show null, never "sha256:"."""
    job.upload("bare", b"x")
    row = store.find_by_name(job.task.run_id, "bare")
    assert row is not None
    bare = models.ArtifactRow(**{**row.__dict__, "sha256": ""})
    assert models.digest_of(row) == sha(b"x")
    assert artifact_to_api(row, "o", "r", "0" * 40)["digest"] == sha(b"x")
    assert artifact_to_api(bare, "o", "r", "0" * 40)["digest"] is None


# ---------------------------------------------------------------- the mock runner's client


def corrupt(forge: LiveForge, run_id: int, name: str) -> None:
    """Flip the first stored byte behind the server's back (same size, so only the digest can tell)."""
    with forge.app.app_context():
        row = store.find_by_name(run_id, name)
        assert row is not None
        part = models.stored_paths(row)[0]
        data = bytearray(part.read_bytes())
        data[0] ^= 0xFF
        part.write_bytes(bytes(data))


def test_the_client_lists_and_verifies_digests(
    live_forge: LiveForge, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = live_forge.create_repo("digest-client")
    task, _runner = take_task(live_forge, repo)
    runtime_token = task.context["gitea_runtime_token"]
    client = ArtifactClient(live_forge.url, runtime_token, retry=FAST, progress=False)
    data = b"verified bytes\n" * 1000
    uploaded = client.upload("good", io.BytesIO(data), block_size=4096)
    (item,) = client.list()
    assert item.digest == f"sha256:{uploaded.sha256}" == "sha256:" + hashlib.sha256(data).hexdigest()
    result = client.download("good", tmp_path / "good.bin")
    assert (result.expected_digest, result.digest_mismatch) == (item.digest, False)
    assert (tmp_path / "good.bin").read_bytes() == data

    corrupt(live_forge, int(backend_ids(runtime_token)[0]), "good")
    with pytest.raises(DigestMismatchError, match="the server listed sha256:") as caught:
        client.download("good", tmp_path / "bad.bin")
    assert caught.value.expected == item.digest
    assert not (tmp_path / "bad.bin").exists()
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith(".download-")] == []
    unchecked = client.download("good", tmp_path / "bad.bin", verify=False)
    assert unchecked.digest_mismatch and unchecked.path is not None and unchecked.path.read_bytes() != data

    monkeypatch.setenv("ACTIONS_RESULTS_URL", live_forge.url)
    monkeypatch.setenv("ACTIONS_RUNTIME_TOKEN", runtime_token)
    assert mock_runner_main(["artifact", "download", "good", "--path", str(tmp_path / "by-cli")]) == 1
    assert "the server listed sha256:" in capsys.readouterr().err
    assert not any((tmp_path / "by-cli").rglob("*"))


def test_a_server_listing_no_digest_is_not_verified(fake_server: FakeServer, tmp_path: Path) -> None:
    """Gitea lists no digest: the download is taken as it comes, as @actions/artifact does."""
    listing = {"artifacts": [{"databaseId": "3", "name": "plain", "size": "2"}]}
    fake_server.handlers[SERVICE + "ListArtifacts"] = lambda: twirp(listing)
    fake_server.handlers[SERVICE + "GetSignedArtifactURL"] = lambda: twirp({"signedUrl": fake_server.url + "/blob"})
    fake_server.handlers["/blob"] = lambda: Response(b"ok", content_type="application/octet-stream")
    client = ArtifactClient(fake_server.url, RUNTIME_TOKEN, retry=FAST, progress=False)
    result = client.download("plain", tmp_path / "plain.bin")
    assert (result.expected_digest, result.digest_mismatch, result.size) == (None, False, 2)


def test_download_result_mismatch_rule() -> None:
    good = "a" * 64
    assert not DownloadResult(1, good).digest_mismatch
    assert not DownloadResult(1, good, expected_digest=f"SHA256:{good.upper()}").digest_mismatch
    assert DownloadResult(1, good, expected_digest=f"sha256:{'b' * 64}").digest_mismatch


# ---------------------------------------------------------------- the native download-artifact action


def run_native(workflow: str, tmp_path: Path, client: ArtifactClient) -> tuple[int, RecordingSink]:
    """Execute a job of native actions whose artifact calls go to ``client`` (a real job's)."""
    task = make_task(workflow)
    sink = RecordingSink()
    workspace, temp = tmp_path / "workspace", tmp_path / "temp"
    workspace.mkdir()
    temp.mkdir()
    context = task_context(task)
    runtime = JobRuntime(
        task=task, context=context, instance_url="http://forge.test", workspace=workspace, temp=temp,
        write=sink.write, masker=masker_for(task, context), cancelled=sink.cancelled,
        artifact_client_factory=lambda env: client,
    )  # fmt: skip
    return execute_job(task, runtime, sink), sink


NATIVE_WORKFLOW = """
jobs:
  a:
    runs-on: x
    steps:
      - uses: actions/download-artifact@v4
        with: {name: intact.txt, path: ok}
      - uses: actions/download-artifact@v4
        with: {name: damaged.txt, path: warned, digest-mismatch: warn}
      - uses: actions/download-artifact@v4
        with: {name: damaged.txt, path: refused}
      - run: cat ok/intact.txt && test -s warned/damaged.txt && test ! -e refused/damaged.txt
        if: always()
      - uses: actions/download-artifact@v4
        if: always()
        with: {name: intact.txt, path: odd, digest-mismatch: sometimes}
"""


def test_native_download_artifact_fails_the_step_on_a_digest_mismatch(live_forge: LiveForge, tmp_path: Path) -> None:
    repo = live_forge.create_repo("digest-native")
    task, _runner = take_task(live_forge, repo)
    runtime_token = task.context["gitea_runtime_token"]
    client = ArtifactClient(live_forge.url, runtime_token, retry=FAST, progress=False)
    for name in ("intact.txt", "damaged.txt"):
        client.upload(name, io.BytesIO(f"content of {name}\n".encode()), version=7, mime_type="text/plain")
    corrupt(live_forge, int(backend_ids(runtime_token)[0]), "damaged.txt")
    outcome, sink = run_native(NATIVE_WORKFLOW, tmp_path, client)
    assert outcome == FAILURE
    assert [sink.steps[index] for index in range(5)] == [SUCCESS, SUCCESS, FAILURE, SUCCESS, FAILURE], sink.lines
    warnings = [line for line in sink.lines if "digest validation failed" in line]
    assert len(warnings) == 1 and warnings[0].startswith("Warning: Artifact 'damaged.txt'"), sink.lines
    refusal = [line for line in sink.lines if "download failed" in line and "damaged.txt" in line]
    assert refusal and "the server listed sha256:" in refusal[0], sink.lines
    assert "content of intact.txt" in sink.lines
    assert any("'digest-mismatch' must be one of ignore, info, warn, error" in line for line in sink.lines)

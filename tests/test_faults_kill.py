"""The reference server killed (SIGKILL) mid-write and restarted over the same data: nothing finalized or
pushed is lost, nothing half-done shows, and the interrupted clients recover or fail with a clear error.

Each test runs a real ``reference-server`` process (tests/test_faults_support.py) and real clients: the
mock runner's ``ArtifactClient`` (which retries what is safe to retry: blocks, the block list, finalize,
ranged downloads), plain REST calls, and the ``git`` command pushing over smart HTTP.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, BinaryIO, cast

import pytest
import requests
from test_faults_support import (
    ADMIN_TOKEN,
    OWNER,
    Forge,
    SlowProxy,
    SlowReader,
    blob_id,
    branch_head,
    clone_with_payload,
    forge,
    fsck_clean,
    git,
    integrity_ok,
    push_url,
    sha256_hex,
    tree_blobs,
)

from mock_runner.artifacts import ArtifactClient, UploadResult

__all__ = ["forge"]

MIB = 1024 * 1024


def _staged_blocks(forge: Forge) -> int:
    staging = forge.data_dir / "blobs" / "artifacts" / "staging"
    return sum(1 for _ in staging.glob("*/blocks/*")) if staging.is_dir() else 0


def _wait_for(condition: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the interrupted operation never reached the point of the kill"
        time.sleep(0.01)


def _listed(client: ArtifactClient) -> list[str]:
    return [artifact.name for artifact in client.list()]


def _downloaded(client: ArtifactClient, name: str, work: Path) -> str:
    result = client.download(name, work / f"{name}.bin")
    return result.sha256


def test_an_upload_survives_a_kill_and_restart_by_retrying(
    forge: Forge, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Blocks are PUT again with the signed URL of the first server; the block list and finalize follow."""
    caplog.set_level(logging.WARNING, logger="mock_runner.artifacts")
    forge.create_repo("uploads")
    client = forge.job_client("uploads", tmp_path)
    kept = os.urandom(MIB + 7)
    assert client.upload("kept", _bytes_file(tmp_path, "kept", kept)).sha256 == sha256_hex(kept)
    data = os.urandom(12 * MIB)
    outcome: dict[str, Any] = {}

    source = cast(BinaryIO, SlowReader(data, 0.15))

    def upload() -> None:
        try:
            outcome["result"] = client.upload("big", source, block_size=MIB, concurrency=2)
        except Exception as exc:  # the assertion below shows it
            outcome["error"] = exc

    thread = threading.Thread(target=upload)
    thread.start()
    _wait_for(lambda: _staged_blocks(forge) >= 3)
    forge.kill()
    time.sleep(0.5)
    forge.start()
    thread.join(120)
    assert "error" not in outcome, outcome.get("error")
    assert any("retrying" in record.getMessage() for record in caplog.records), "the kill hit no request"
    result: UploadResult = outcome["result"]
    assert (result.size, result.sha256) == (len(data), sha256_hex(data))
    assert _listed(client) == ["kept", "big"]
    assert _downloaded(client, "big", tmp_path) == sha256_hex(data)
    assert _downloaded(client, "kept", tmp_path) == sha256_hex(kept)
    integrity_ok(forge.data_dir)


@pytest.mark.parametrize("delay", [0.0, 0.1])
def test_a_finalize_interrupted_by_a_kill_is_retried_to_one_artifact(
    forge: Forge, tmp_path: Path, delay: float
) -> None:
    """Finalize is idempotent (same size and hash), so the client's retry after the restart ends with it finalized."""
    forge.create_repo("finalize")
    client = forge.job_client("finalize", tmp_path)
    data = os.urandom(24 * MIB)
    url = client.create("big")
    from mock_runner.blob import BlockUploader

    size, digest = BlockUploader(client.session, url, block_size=4 * MIB, retry=client.retry).upload(
        _bytes_stream(data)
    )
    outcome: dict[str, Any] = {}

    def finalize() -> None:
        try:
            outcome["id"] = client.finalize("big", size, digest)
        except Exception as exc:  # the assertion below shows it
            outcome["error"] = exc

    thread = threading.Thread(target=finalize)
    thread.start()
    time.sleep(delay)
    forge.kill()
    forge.start()
    thread.join(120)
    assert "error" not in outcome, outcome.get("error")
    assert [(artifact.name, artifact.size) for artifact in client.list()] == [("big", len(data))]
    assert _downloaded(client, "big", tmp_path) == sha256_hex(data)
    listed = forge.ok("GET", f"/repos/{OWNER}/finalize/actions/artifacts")
    assert [item["name"] for item in listed["artifacts"]] == ["big"]


def test_a_client_without_retries_left_gets_a_clear_error(forge: Forge, tmp_path: Path) -> None:
    """A server that stays down ends the client's retries with an error naming the call and the cause."""
    from mock_runner.transport import RetryPolicy, TwirpCallError

    forge.create_repo("down")
    client = forge.job_client("down", tmp_path, retry=RetryPolicy(attempts=2, initial_wait=0.1, max_wait=0.1))
    forge.kill()
    with pytest.raises(TwirpCallError) as caught:
        client.upload("never", _bytes_stream(b"data"))
    assert caught.value.status == 0 and caught.value.code == "unavailable"
    assert "CreateArtifact: cannot reach" in str(caught.value)
    forge.start()
    assert _listed(client) == []


def _bytes_file(folder: Path, name: str, data: bytes) -> Path:
    path = folder / f"{name}.src"
    path.write_bytes(data)
    return path


def _bytes_stream(data: bytes) -> Any:
    import io

    return io.BytesIO(data)


COMMIT_FILES = 120


def _ref_file_changed(git_dir: Path, before: str) -> bool:
    ref = git_dir / "refs" / "heads" / "main"
    return ref.is_file() and ref.read_text().strip() not in ("", before)


@pytest.mark.parametrize("point", ["mid-body", "body-sent", "ref-moved"])
def test_an_api_commit_interrupted_by_a_kill_is_all_or_nothing(forge: Forge, tmp_path: Path, point: str) -> None:
    """A 120-file commit (``POST .../contents``, about 5 MiB of JSON through a proxy pacing it at 8 MiB/s)
    killed halfway through its body, once the body is sent (while the commit is built) or right after the
    branch moved: the branch is at the old or the new commit, never between; the client gets a connection
    error (never a false success); the repository takes the next commit and its routes answer."""
    forge.create_repo("commits")
    git_dir = forge.git_dir("commits")
    before = branch_head(git_dir)
    files = {f"data/file-{index:03d}.bin": os.urandom(32 * 1024) for index in range(COMMIT_FILES)}
    body = json.dumps(
        {
            "message": "many files",
            "files": [
                {"operation": "create", "path": path, "content": base64.b64encode(data).decode()}
                for path, data in files.items()
            ],
        }
    ).encode()
    proxy = SlowProxy(forge.port, 8 * MIB)
    outcome: dict[str, Any] = {}

    def commit() -> None:
        url = f"http://127.0.0.1:{proxy.port}/api/v1/repos/{OWNER}/commits/contents"
        headers = {"Authorization": f"token {ADMIN_TOKEN}", "Content-Type": "application/json"}
        try:
            outcome["status"] = requests.post(url, data=body, headers=headers, timeout=60).status_code
        except requests.RequestException as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=commit)
    thread.start()
    if point == "mid-body":
        _wait_for(lambda: proxy.sent >= len(body) // 2)
    elif point == "body-sent":
        _wait_for(lambda: proxy.sent >= len(body))
    else:
        _wait_for(lambda: _ref_file_changed(git_dir, before) or "status" in outcome)
    forge.kill()
    thread.join(60)
    proxy.close()
    assert outcome.get("status") == 201 or isinstance(outcome.get("error"), requests.ConnectionError), outcome
    forge.start()
    after = branch_head(git_dir)
    fsck_clean(git_dir)
    if point == "mid-body":
        assert after == before
    if point == "ref-moved" or outcome.get("status") == 201:
        assert after != before
    if after != before:
        blobs = tree_blobs(git_dir, after)
        assert all(blobs[path] == blob_id(data) for path, data in files.items())
        assert git("--git-dir", str(git_dir), "rev-parse", f"{after}^").stdout.strip() == before
    retry = forge.commit_files("commits", {"after-restart.txt": b"ok\n"})
    assert retry.status_code == 201, retry.text
    assert forge.call("GET", f"/repos/{OWNER}/commits/contents/after-restart.txt").status_code == 200
    assert forge.call("GET", f"/repos/{OWNER}/commits/branches/main").status_code == 200
    assert forge.call("GET", f"/repos/{OWNER}/commits/commits?limit=5").status_code == 200
    integrity_ok(forge.data_dir)


PUSH_FILES = 12
PUSH_RATE = 8 * MIB


@pytest.mark.parametrize("point", ["mid-upload", "upload-done"])
def test_a_git_push_interrupted_by_a_kill_leaves_the_old_or_the_new_commit(
    forge: Forge, tmp_path: Path, point: str
) -> None:
    """A real ``git push`` of 12 MiB over smart HTTP (through a proxy pacing it at 8 MiB/s), the server killed
    halfway through the pack upload or right after it (while receive-pack works): the branch is at the
    old or the new commit, ``git fsck`` is clean, git says why it failed, and pushing again works."""
    forge.create_repo("pushes")
    git_dir = forge.git_dir("pushes")
    before = branch_head(git_dir)
    files = {f"payload/blob-{index:02d}.bin": os.urandom(MIB) for index in range(PUSH_FILES)}
    clone, commit = clone_with_payload(forge, "pushes", tmp_path, files)
    proxy = SlowProxy(forge.port, PUSH_RATE)
    payload = PUSH_FILES * MIB
    push = subprocess.Popen(
        ["git", "push", "-q", push_url(forge, "pushes", proxy.port), "HEAD:main"],
        cwd=clone,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "GIT_TERMINAL_PROMPT": "0"},
    )
    _wait_for(lambda: proxy.sent >= (payload // 2 if point == "mid-upload" else payload))
    forge.kill()
    _, stderr = push.communicate(timeout=60)
    proxy.close()
    assert push.returncode != 0 or point == "upload-done", "the push cannot succeed without its whole pack"
    if push.returncode != 0:
        assert "error" in stderr.lower() or "fatal" in stderr.lower(), f"unclear failure: {stderr!r}"
    time.sleep(0.5)  # an orphaned receive-pack (reading a fully spooled body) finishes or gives up meanwhile
    forge.start()
    after = branch_head(git_dir)
    assert after in (before, commit)
    if point == "mid-upload":
        assert after == before
    fsck_clean(git_dir)
    if after == commit:
        blobs = tree_blobs(git_dir, commit)
        assert all(blobs[path] == blob_id(data) for path, data in files.items())
    again = git("push", "-q", push_url(forge, "pushes"), "HEAD:main", cwd=clone, check=False)
    assert again.returncode == 0, again.stderr
    assert branch_head(git_dir) == commit
    fsck_clean(git_dir)
    assert forge.ok("GET", f"/repos/{OWNER}/pushes/branches/main")["commit"]["id"] == commit
    assert forge.call("GET", f"/repos/{OWNER}/pushes/contents/payload/blob-00.bin").status_code == 200

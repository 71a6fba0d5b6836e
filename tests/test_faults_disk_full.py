"""The reference server's data disk fills up: clear errors, no corruption, reads go on, writes resume.

The data directory lives on a 24 MiB tmpfs mounted for the test (by root, or through passwordless
``sudo`` as hosted CI runners allow). Where mounting is not permitted the test is skipped with the
reason (``./kit faults`` prints it), unless ``KIT_REQUIRE_DISK_FULL`` is set, in which case a missing
mount is a failure, so a CI that can mount never loses this test silently.

The reference server's choice, where Gitea answers 500: a write that finds the disk full answers
**507 Insufficient Storage** (RFC 4918: the server cannot store what is needed to complete the request)
with a message saying so, on every surface: REST ``{"message"}``, Twirp ``{"code": "resource_exhausted",
"msg"}`` (also for the signed blob URLs) and Connect. Not 413, which would blame the request's size
(a one-byte write fails too), and not a retryable 5xx: the artifact clients (the mock runner's and
``@actions/artifact``) retry 429/500/502/503/504 only, so a job fails at once with the message instead
of hammering a full disk. A ``git push`` gets Git's own in-band error (receive-pack's "unpack failed").
"""

from __future__ import annotations

import base64
import contextlib
import io
import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_faults_support import (
    OWNER,
    Forge,
    blob_id,
    branch_head,
    clone_with_payload,
    fsck_clean,
    git,
    integrity_ok,
    push_url,
    sha256_hex,
    tree_blobs,
)

from mock_runner.artifacts import ArtifactClient
from mock_runner.blob import BlockUploader
from mock_runner.transport import BlobTransferError, RetryPolicy, TwirpCallError

MIB = 1024 * 1024
MOUNT_SIZE = "24m"
QUICK = RetryPolicy(attempts=2, initial_wait=0.1, max_wait=0.1)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A size-limited filesystem for the data directory, or a skip saying why there cannot be one."""
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    # root mounts directly; another user through passwordless sudo (as on hosted CI runners), if any
    privilege = [] if os.geteuid() == 0 else ["sudo", "-n"] if shutil.which("sudo") else None
    options = f"size={MOUNT_SIZE},uid={os.getuid()},gid={os.getgid()},mode=0700"
    reason = f"cannot mount a {MOUNT_SIZE} tmpfs: not root and no sudo"
    if privilege is not None:
        completed = subprocess.run(
            [*privilege, "mount", "-t", "tmpfs", "-o", options, "tmpfs", str(mount_point)],
            capture_output=True,
            text=True,
            check=False,
        )
        if completed.returncode == 0:
            reason = ""
        else:
            reason = f"cannot mount a {MOUNT_SIZE} tmpfs: {completed.stderr.strip() or completed.returncode}"
    if reason:
        if os.environ.get("KIT_REQUIRE_DISK_FULL"):
            pytest.fail(f"KIT_REQUIRE_DISK_FULL is set but {reason}")
        pytest.skip(reason)
    try:
        yield mount_point
    finally:
        for lazy in ([], ["-l"]):
            if subprocess.run([*(privilege or []), "umount", *lazy, str(mount_point)], check=False).returncode == 0:
                break


def fill(disk: Path) -> Path:
    """Write a filler file until the filesystem refuses another byte."""
    filler = disk / "filler"
    with filler.open("wb", buffering=0) as out:
        for piece in (MIB, 64 * 1024, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while True:
                    out.write(b"\0" * piece)
    return filler


@dataclass
class Scene:
    """The forge before the disk fills: one finalized artifact, one pending, a commit, a clone with one more."""

    forge: Forge
    work: Path
    client: ArtifactClient
    git_dir: Path
    head: str
    clone: Path
    kept: bytes
    big: bytes
    pending_url: str


def _set_up(forge: Forge, work: Path) -> Scene:
    forge.create_repo("full")
    client = forge.job_client("full", work, retry=QUICK)
    kept, big = os.urandom(MIB), os.urandom(2 * MIB)
    (work / "kept.bin").write_bytes(kept)
    (work / "big.bin").write_bytes(big)
    assert client.upload("kept", work / "kept.bin").sha256 == sha256_hex(kept)
    assert forge.commit_files("full", {"kept.txt": b"kept\n"}).status_code == 201
    git_dir = forge.git_dir("full")
    clone, _ = clone_with_payload(forge, "full", work, {"pushed.bin": os.urandom(MIB)})
    pending_url = client.create("pending")
    return Scene(forge, work, client, git_dir, branch_head(git_dir), clone, kept, big, pending_url)


def _writes_are_refused(scene: Scene) -> None:
    """Every kind of write answers 507 with a message (git: its own error), and leaves nothing behind."""
    forge = scene.forge
    with pytest.raises(TwirpCallError) as refused:
        scene.client.upload("big", scene.work / "big.bin")
    assert refused.value.status == 507 and refused.value.code == "resource_exhausted", refused.value
    assert "insufficient storage" in refused.value.msg
    blocks = BlockUploader(scene.client.session, scene.pending_url, block_size=MIB, retry=QUICK)
    with pytest.raises(BlobTransferError) as block_refused:
        blocks.upload(io.BytesIO(scene.big))
    assert block_refused.value.status == 507 and "insufficient storage" in block_refused.value.msg
    staging = forge.data_dir / "blobs" / "artifacts" / "staging"
    assert not [path.name for path in staging.rglob(".part-*")], "a refused block left a partial file"
    commit = forge.commit_files("full", {"new.txt": os.urandom(64 * 1024)})
    assert commit.status_code == 507, commit.text
    assert "insufficient storage" in commit.json()["message"]
    created = forge.call("POST", "/user/repos", json={"name": "another", "auto_init": True})
    assert created.status_code == 507, created.text
    assert not (scene.git_dir.parent / "another.git").exists(), "a refused repository left its Git directory"
    push = git("push", "-q", push_url(forge, "full"), "HEAD:main", cwd=scene.clone, check=False)
    assert push.returncode != 0
    assert "no space left on device" in push.stderr.lower() or "507" in push.stderr, push.stderr


def _reads_go_on(scene: Scene) -> None:
    """Reads answer, and show only what was completed before the disk filled."""
    forge, client = scene.forge, scene.client
    assert [artifact.name for artifact in client.list()] == ["kept"]  # "pending" is not finalized
    assert client.download("kept", scene.work / "kept-back.bin").sha256 == sha256_hex(scene.kept)
    listed = forge.ok("GET", f"/repos/{OWNER}/full/actions/artifacts")
    assert [item["name"] for item in listed["artifacts"]] == ["kept"]
    stored = forge.ok("GET", f"/repos/{OWNER}/full/contents/kept.txt")
    assert base64.b64decode(stored["content"]) == b"kept\n"
    assert forge.call("GET", f"/repos/{OWNER}/another").status_code == 404
    assert forge.ok("GET", f"/repos/{OWNER}/full/branches/main")["commit"]["id"] == scene.head
    assert forge.call("GET", "/user").status_code == 200
    assert branch_head(scene.git_dir) == scene.head
    integrity_ok(forge.data_dir)
    fsck_clean(scene.git_dir)


def _writes_resume(scene: Scene) -> None:
    """With space again, each refused write succeeds when repeated, the interrupted upload included."""
    forge, client = scene.forge, scene.client
    size, digest = BlockUploader(client.session, scene.pending_url, block_size=MIB).upload(io.BytesIO(scene.big))
    assert client.finalize("pending", size, digest) > 0
    assert client.download("pending", scene.work / "pending-back.bin").sha256 == sha256_hex(scene.big)
    assert client.upload("big", scene.work / "big.bin").sha256 == sha256_hex(scene.big)
    assert [artifact.name for artifact in client.list()] == ["kept", "pending", "big"]
    assert forge.commit_files("full", {"new.txt": b"new\n"}).status_code == 201
    assert forge.call("POST", "/user/repos", json={"name": "another", "auto_init": True}).status_code == 201
    git("pull", "-q", "--no-rebase", push_url(forge, "full"), "main", cwd=scene.clone)
    git("push", "-q", push_url(forge, "full"), "HEAD:main", cwd=scene.clone)
    pushed = (scene.clone / "pushed.bin").read_bytes()
    assert tree_blobs(scene.git_dir, branch_head(scene.git_dir))["pushed.bin"] == blob_id(pushed)
    integrity_ok(forge.data_dir)
    fsck_clean(scene.git_dir)


def test_a_full_disk_gives_clear_errors_keeps_data_and_reads_and_recovers(small_disk: Path, tmp_path: Path) -> None:
    forge = Forge(small_disk / "data", tmp_path / "logs")
    forge.start()
    try:
        scene = _set_up(forge, tmp_path)
        filler = fill(small_disk)
        _writes_are_refused(scene)
        _reads_go_on(scene)
        filler.unlink()
        _writes_resume(scene)
        log = (tmp_path / "logs" / "server-1.log").read_text()
        assert "unhandled error" not in log, log[-3000:]
    finally:
        forge.stop()

"""A real server process killed (SIGKILL) during an upload and during a finalize, then restarted.

The server runs under waitress in a subprocess over a temporary data directory, with the actions
family's task lookup replaced by a running task (the launcher below), so only the artifact path and
its storage are exercised. Whatever the moment of the kill, after a restart the finalized artifacts
are intact, no half-finalized one is listed, and the interrupted upload can be completed.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests

SERVICE = "/twirp/github.actions.results.api.v1.ArtifactService/"
RUN_ID, JOB_ID, TASK_ID = 3, 2, 1

LAUNCHER = f"""
import sys
from dataclasses import dataclass
from pathlib import Path

import waitress

import reference_server.actions.models as actions_models
from reference_server.app import create_app
from reference_server.config import Config


@dataclass
class RunningTask:
    id: int
    job_id: int = {JOB_ID}
    run_id: int = {RUN_ID}
    repo_id: int = 1
    is_running: bool = True


actions_models.get_task = RunningTask
actions_models.get_run = lambda run_id: None
data_dir = Path(sys.argv[1])
app = create_app(Config(data_dir=data_dir, base_url="http://127.0.0.1/"))
forge = app.extensions["forge"]
token = forge.signer.issue_runtime_token(
    task_id={TASK_ID}, run_id={RUN_ID}, job_id={JOB_ID}, now=forge.now(), lifetime=86400
)
(data_dir / "token.txt").write_text(token)
server = waitress.create_server(app, host="127.0.0.1", port=0, threads=4)
print(server.effective_port, flush=True)
server.run()
"""


class Server:
    """One server process over ``data_dir``, and the artifact calls of the job its token belongs to."""

    def __init__(self, launcher: Path, data_dir: Path) -> None:
        root = Path(__file__).resolve().parent.parent
        self.process = subprocess.Popen(
            [sys.executable, str(launcher), str(data_dir)],
            stdout=subprocess.PIPE,
            cwd=root,
            env={**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{root / 'proto'}"},
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line.strip().isdigit(), "the server did not start"
        self.origin = f"http://127.0.0.1:{int(line)}"
        self.headers = {"Authorization": "Bearer " + (data_dir / "token.txt").read_text()}

    def local(self, url: str) -> str:
        """A signed URL of this or an earlier instance, aimed at this instance's port."""
        parts = urlsplit(url)
        return f"{self.origin}{parts.path}?{parts.query}"

    def rpc(self, method: str, **body: Any) -> requests.Response:
        ids = {"workflow_run_backend_id": str(RUN_ID), "workflow_job_run_backend_id": str(JOB_ID)}
        return requests.post(self.origin + SERVICE + method, json={**ids, **body}, headers=self.headers, timeout=60)

    def create(self, name: str) -> str:
        response = self.rpc("CreateArtifact", name=name, version=4, mime_type="application/octet-stream")
        assert response.status_code == 200, response.text
        url: str = response.json()["signedUploadUrl"]
        return url

    def put_block(self, url: str, index: int, data: bytes) -> None:
        response = requests.put(
            self.local(url), params={"comp": "block", "blockid": block_id(index)}, data=data, timeout=60
        )
        assert response.status_code == 201, response.text

    def commit(self, url: str, count: int) -> None:
        body = "<BlockList>" + "".join(f"<Latest>{block_id(i)}</Latest>" for i in range(count)) + "</BlockList>"
        response = requests.put(self.local(url), params={"comp": "blocklist"}, data=body, timeout=60)
        assert response.status_code == 201, response.text

    def finalize(self, name: str, data: bytes) -> requests.Response:
        return self.rpc("FinalizeArtifact", name=name, size=str(len(data)), hash=sha(data))

    def names(self) -> list[str]:
        response = self.rpc("ListArtifacts")
        assert response.status_code == 200, response.text
        return [item["name"] for item in response.json().get("artifacts", [])]

    def download(self, name: str) -> bytes:
        response = self.rpc("GetSignedArtifactURL", name=name)
        assert response.status_code == 200, response.text
        got = requests.get(self.local(response.json()["signedUrl"]), timeout=60)
        assert got.status_code == 200
        return got.content

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        assert self.process.stdout is not None
        self.process.stdout.close()


def block_id(index: int) -> str:
    return base64.b64encode(f"block-{index:08d}".encode()).decode()


def sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[[], Server]]:
    launcher = tmp_path / "launch_server.py"
    launcher.write_text(LAUNCHER)
    data_dir = tmp_path / "data"
    servers: list[Server] = []

    def make() -> Server:
        server = Server(launcher, data_dir)
        servers.append(server)
        return server

    yield make
    for server in servers:
        if server.process.poll() is None:
            server.kill()


def test_killed_during_an_upload(start: Callable[[], Server]) -> None:
    first = start()
    kept = os.urandom(3 * 1024 * 1024 + 5)
    url = first.create("kept")
    first.put_block(url, 0, kept)
    assert first.finalize("kept", kept).status_code == 200
    victim_blocks = [os.urandom(1024 * 1024) for _ in range(2)]
    victim_url = first.create("victim")
    first.put_block(victim_url, 0, victim_blocks[0])
    target = urlsplit(first.local(victim_url))
    with socket.create_connection((target.hostname or "127.0.0.1", target.port or 80)) as sock:
        path = f"{target.path}?{target.query}&comp=block&blockid={block_id(1)}"
        head = f"PUT {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {len(victim_blocks[1])}\r\n\r\n"
        sock.sendall(head.encode() + victim_blocks[1][: 512 * 1024])
        time.sleep(0.2)
        first.kill()

    second = start()
    assert second.names() == ["kept"]
    assert second.download("kept") == kept
    second.put_block(victim_url, 1, victim_blocks[1])
    second.commit(victim_url, 2)
    victim = b"".join(victim_blocks)
    assert second.finalize("victim", victim).status_code == 200
    assert second.names() == ["kept", "victim"]
    assert second.download("victim") == victim


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.15, 0.4])
def test_killed_during_a_finalize(start: Callable[[], Server], delay: float) -> None:
    first = start()
    kept = os.urandom(1024 * 1024)
    first.put_block(first.create("kept"), 0, kept)
    assert first.finalize("kept", kept).status_code == 200
    blocks = [os.urandom(8 * 1024 * 1024) for _ in range(6)]
    data = b"".join(blocks)
    url = first.create("big")
    for index, block in enumerate(blocks):
        first.put_block(url, index, block)
    first.commit(url, len(blocks))
    ids = {"workflow_run_backend_id": str(RUN_ID), "workflow_job_run_backend_id": str(JOB_ID)}
    body = {**ids, "name": "big", "size": str(len(data)), "hash": sha(data)}
    call = subprocess.Popen(
        [
            sys.executable,
            "-c",
            CALL_FINALIZE,
            first.origin + SERVICE + "FinalizeArtifact",
            first.headers["Authorization"],
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert call.stdin is not None
    call.stdin.write(json.dumps(body).encode())
    call.stdin.close()
    time.sleep(delay)
    first.kill()
    call.wait(timeout=60)

    second = start()
    names = second.names()
    assert names in (["kept"], ["kept", "big"])
    assert second.download("kept") == kept
    if names == ["kept"]:
        assert second.finalize("big", data).status_code == 200
    assert second.download("big") == data
    assert second.names() == ["kept", "big"]


CALL_FINALIZE = """
import sys, urllib.request
request = urllib.request.Request(sys.argv[1], data=sys.stdin.buffer.read(), method="POST")
request.add_header("Authorization", sys.argv[2])
request.add_header("Content-Type", "application/json")
try:
    urllib.request.urlopen(request, timeout=60).read()
except Exception:
    pass
"""

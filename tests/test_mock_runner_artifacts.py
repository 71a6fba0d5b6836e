"""The artifact client: wire format, retries, block upload, resumable download, and a live round trip."""

from __future__ import annotations

import hashlib
import io
import json
import mmap
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import jwt
import pytest
import requests
from flask import Response, request
from test_mock_runner_support import FakeServer, LiveForge, fake_server, live_forge, take_task

from mock_runner import blob
from mock_runner.artifacts import ArtifactClient, ArtifactTokenError, TwirpCallError, backend_ids
from mock_runner.blob import BlockUploader, block_id, download_blob, filename_from_disposition
from mock_runner.transport import BlobTransferError, RetryPolicy

__all__ = ["fake_server", "live_forge"]

SERVICE = "/twirp/github.actions.results.api.v1.ArtifactService/"
FAST = RetryPolicy(attempts=5, initial_wait=0.01, max_wait=0.05)


def token(scp: str = "Actions.Results:41:77") -> str:
    return jwt.encode({"scp": scp, "TaskID": 1}, "the client never checks this signature key", algorithm="HS256")


def twirp(body: object, status: int = 200) -> Response:
    return Response(json.dumps(body), status=status, content_type="application/json")


def test_ids_come_from_the_scp_claim_without_verifying() -> None:
    assert backend_ids(token("Actions.Results:41:77")) == ("41", "77")
    assert backend_ids(token("Actions.Other Actions.Results:1:2")) == ("1", "2")
    for bad, message in [("Actions.Results:1", "is not"), ("Other:1:2", "no Actions.Results")]:
        with pytest.raises(ArtifactTokenError, match=message):
            backend_ids(token(bad))
    with pytest.raises(ArtifactTokenError, match="not a readable JWT"):
        backend_ids("not-a-jwt")


def test_environment_is_required() -> None:
    with pytest.raises(ArtifactTokenError, match="ACTIONS_RESULTS_URL and ACTIONS_RUNTIME_TOKEN not set"):
        ArtifactClient.from_environment({})


def test_requests_are_snake_case_json_with_int64_strings_and_a_bearer_token(fake_server: FakeServer) -> None:
    fake_server.handlers[SERVICE + "FinalizeArtifact"] = lambda: twirp({"ok": True, "artifactId": "9"})
    fake_server.handlers[SERVICE + "ListArtifacts"] = lambda: twirp(
        {"artifacts": [{"databaseId": "9", "name": "n", "size": "5", "createdAt": "2026-11-22T02:00:00Z"}]}
    )
    client = ArtifactClient(fake_server.url + "/ignored/path", token(), retry=FAST)
    assert client.finalize("n", 5, "abc") == 9
    items = client.list(name_filter="n", id_filter=9)
    assert [(a.id, a.name, a.size, a.created_at.year if a.created_at else 0) for a in items] == [(9, "n", 5, 2026)]
    (path, headers, body), (_, _, list_body) = fake_server.requests
    assert path == SERVICE + "FinalizeArtifact"
    assert headers["Authorization"] == f"Bearer {token()}"
    assert headers["Content-Type"] == "application/json"
    assert json.loads(body) == {
        "workflow_run_backend_id": "41",
        "workflow_job_run_backend_id": "77",
        "name": "n",
        "size": "5",
        "hash": "sha256:abc",
    }
    assert json.loads(list_body) == {
        "workflow_run_backend_id": "41",
        "workflow_job_run_backend_id": "77",
        "name_filter": "n",
        "id_filter": "9",
    }


def test_503_twice_then_success_is_retried(fake_server: FakeServer) -> None:
    answers = iter([twirp({"code": "unavailable", "msg": "busy"}, 503), Response("oops", 503), twirp({"ok": True})])
    fake_server.handlers[SERVICE + "DeleteArtifact"] = lambda: next(answers)
    client = ArtifactClient(fake_server.url, token(), retry=FAST)
    assert client.delete("gone") == 0
    assert len(fake_server.requests) == 3


def test_other_4xx_fail_at_once(fake_server: FakeServer) -> None:
    fake_server.handlers[SERVICE + "GetSignedArtifactURL"] = lambda: twirp({"code": "not_found", "msg": "no such"}, 404)
    client = ArtifactClient(fake_server.url, token(), retry=FAST)
    with pytest.raises(TwirpCallError) as caught:
        client.signed_url("missing")
    assert (caught.value.status, caught.value.code) == (404, "not_found")
    assert "no such" in caught.value.msg
    assert len(fake_server.requests) == 1


def test_retries_give_up_after_the_last_attempt(fake_server: FakeServer) -> None:
    fake_server.handlers[SERVICE + "CreateArtifact"] = lambda: Response("down", 502)
    client = ArtifactClient(fake_server.url, token(), retry=RetryPolicy(attempts=3, initial_wait=0.01, max_wait=0.01))
    with pytest.raises(TwirpCallError) as caught:
        client.create("x")
    assert caught.value.status == 502
    assert "down" in caught.value.msg
    assert len(fake_server.requests) == 3


def test_ok_false_is_an_error(fake_server: FakeServer) -> None:
    fake_server.handlers[SERVICE + "CreateArtifact"] = lambda: twirp({"ok": False})
    with pytest.raises(TwirpCallError, match="ok=false"):
        ArtifactClient(fake_server.url, token(), retry=FAST).create("x")


def test_connection_refused_is_retried_then_reported() -> None:
    client = ArtifactClient("http://127.0.0.1:9", token(), retry=RetryPolicy(attempts=2, initial_wait=0.01))
    with pytest.raises(TwirpCallError) as caught:
        client.list()
    assert (caught.value.status, caught.value.code) == (0, "unavailable")


class BlobStore:
    """A fake signed-URL endpoint: stores blocks, commits lists, tracks concurrency."""

    def __init__(self, server: FakeServer, *, fail_first_block: bool = False, status: int = 201) -> None:
        self.blocks: dict[str, bytes] = {}
        self.committed: list[str] = []
        self.in_flight = 0
        self.peak = 0
        self.lock = threading.Lock()
        self.fail_first_block = fail_first_block
        self.status = status
        server.handlers["/upload/blob"] = self.put

    def put(self) -> Response:
        query = parse_qs(urlsplit(request.full_path).query)
        if query["comp"] == ["blocklist"]:
            self.committed = re.findall(r"<Latest>([^<]*)</Latest>", request.get_data(as_text=True))
            return Response("", self.status)
        with self.lock:
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
            fail, self.fail_first_block = self.fail_first_block, False
        try:
            time.sleep(0.02)
            if fail:
                return Response("try again", 503)
            self.blocks[query["blockid"][0]] = request.get_data()
            return Response("", self.status)
        finally:
            with self.lock:
                self.in_flight -= 1

    def blob(self) -> bytes:
        return b"".join(self.blocks[block] for block in self.committed)


def test_block_upload_is_concurrent_bounded_ordered_and_hashed(fake_server: FakeServer) -> None:
    store = BlobStore(fake_server, fail_first_block=True)
    data = os.urandom(10 * 1024 + 17)
    uploader = BlockUploader(
        requests.Session(),
        fake_server.url + "/upload/blob?sig=abc&expires=1",
        block_size=1024,
        concurrency=3,
        retry=FAST,
    )
    size, digest = uploader.upload(io.BytesIO(data))
    assert (size, digest) == (len(data), hashlib.sha256(data).hexdigest())
    assert store.blob() == data
    assert len(store.committed) == 11
    assert 1 < store.peak <= 3
    assert all(len(block) == 64 for block in store.committed)
    paths = [path for path, _, _ in fake_server.requests]
    assert all(path.startswith("/upload/blob?sig=abc&expires=1&comp=") for path in paths)
    assert "=" not in paths[1].split("blockid=")[1]


class TricklingStream(io.RawIOBase):
    """A pipe-like stream: ``readinto`` gives at most ``piece`` bytes a call, as a pipe or socket does."""

    def __init__(self, data: bytes, piece: int) -> None:
        self.data = memoryview(data)
        self.piece = piece
        self.calls = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        self.calls += 1
        count = min(len(buffer), self.piece, len(self.data))
        buffer[:count] = self.data[:count]
        self.data = self.data[count:]
        return count


def test_blocks_are_read_in_place_from_short_reads_and_buffers_are_reused_only_once_sent(
    fake_server: FakeServer,
) -> None:
    """Each block is filled by several short ``readinto`` calls; a buffer is refilled only after its PUT is over
    (the server holds each PUT 20 ms, so refilling earlier would send later bytes under an earlier block id)."""
    store = BlobStore(fake_server, fail_first_block=True)
    data = os.urandom(40 * 1024 + 5)
    stream = TricklingStream(data, piece=300)
    uploader = BlockUploader(requests.Session(), fake_server.url + "/upload/blob?sig=s", block_size=1024, retry=FAST)
    size, digest = uploader.upload(stream)  # type: ignore[arg-type]
    assert (size, digest) == (len(data), hashlib.sha256(data).hexdigest())
    assert store.blob() == data
    assert len(store.committed) == 41
    assert stream.calls >= len(data) // 300, "read in place, piece by piece"
    assert {len(block) for block in store.blocks.values()} == {1024, 5}


def test_a_stream_with_only_read_is_copied_into_the_buffers(fake_server: FakeServer) -> None:
    store = BlobStore(fake_server)
    stream = CountingStream(5 * 1024 + 3)
    size, digest = BlockUploader(
        requests.Session(), fake_server.url + "/upload/blob?sig=s", block_size=1024, concurrency=2, retry=FAST
    ).upload(stream)  # type: ignore[arg-type]
    assert (size, digest) == (5 * 1024 + 3, stream.digest.hexdigest())
    assert hashlib.sha256(store.blob()).hexdigest() == digest


def test_empty_upload_commits_an_empty_block_list(fake_server: FakeServer) -> None:
    BlobStore(fake_server)
    size, digest = BlockUploader(requests.Session(), fake_server.url + "/upload/blob?sig=s", retry=FAST).upload(
        io.BytesIO(b"")
    )
    assert (size, digest) == (0, hashlib.sha256(b"").hexdigest())
    ((path, _, body),) = fake_server.requests
    assert path.endswith("&comp=blocklist")
    assert body.endswith(b"<BlockList/>")


def test_a_blob_put_answering_200_is_refused(fake_server: FakeServer) -> None:
    BlobStore(fake_server, status=200)
    with pytest.raises(BlobTransferError, match="must answer 201"):
        BlockUploader(requests.Session(), fake_server.url + "/upload/blob?sig=s", retry=FAST).upload(io.BytesIO(b"x"))


def test_block_ids_are_fixed_length_base64() -> None:
    ids = {block_id("p" * 32, index) for index in range(1000)}
    assert len(ids) == 1000
    assert {len(value) for value in ids} == {64}


def test_download_resumes_a_dropped_transfer_with_range(fake_server: FakeServer) -> None:
    data = os.urandom(3 * 1024 * 1024 + 5)
    ranges: list[str] = []

    def serve() -> Response:
        wanted = request.headers.get("Range", "")
        ranges.append(wanted)
        if not wanted:

            def broken() -> Iterator[bytes]:
                yield data[: 1024 * 1024 + 3]
                raise ConnectionError("dropped")

            return Response(
                broken(), 200, headers={"Content-Length": str(len(data)), "Content-Type": "application/zip"}
            )
        start = int(wanted.removeprefix("bytes=").rstrip("-"))
        headers = {"Content-Range": f"bytes {start}-{len(data) - 1}/{len(data)}"}
        return Response(data[start:], 206, headers=headers)

    fake_server.handlers["/download"] = serve
    sink = io.BytesIO()
    result = download_blob(requests.Session(), fake_server.url + "/download", sink, retry=FAST)
    assert sink.getvalue() == data
    assert (result.size, result.sha256) == (len(data), hashlib.sha256(data).hexdigest())
    assert result.content_type == "application/zip"
    assert ranges[0] == "" and ranges[1].startswith("bytes=") and ranges[1] != "bytes=0-"


class FullDisk(io.BytesIO):
    """A sink that refuses writes past ``room`` bytes, as a full disk does."""

    def __init__(self, room: int) -> None:
        super().__init__()
        self.room = room

    def write(self, data: bytes) -> int:  # type: ignore[override]
        if self.tell() + len(data) > self.room:
            raise OSError(28, "No space left on device")
        return super().write(data)


def test_a_sink_that_fails_stops_the_download_with_its_error(fake_server: FakeServer) -> None:
    """The write error comes out as it is (not retried), even with the received pieces queued up behind it."""
    data = os.urandom(24 * 1024 * 1024)
    fake_server.handlers["/download"] = lambda: Response(data, 200, content_type="application/octet-stream")
    sink = FullDisk(2 * 1024 * 1024 + 10)
    with pytest.raises(OSError, match="No space left"):
        download_blob(requests.Session(), fake_server.url + "/download", sink, retry=FAST)
    assert sink.getvalue() == data[: 2 * 1024 * 1024]
    assert len(fake_server.requests) == 1, "a full disk is not a reason to download again"


def test_content_disposition_names() -> None:
    assert filename_from_disposition('inline; filename="a.zip"') == "a.zip"
    assert filename_from_disposition("attachment; filename*=utf-8''r%C3%A9sum%C3%A9.pdf") == "résumé.pdf"
    assert filename_from_disposition('inline; filename="../../etc/passwd"') == "passwd"
    assert filename_from_disposition("") == ""
    assert filename_from_disposition('inline; filename=".."') == ""
    fullwidth = "%EF%BC%8E%EF%BC%8E%EF%BC%8F%EF%BC%8Essh%EF%BC%8Fauthorized_keys"  # fullwidth "../.ssh/"
    assert filename_from_disposition(f"attachment; filename*=UTF-8''{fullwidth}") == "authorized_keys"


def test_round_trip_against_the_reference_server(live_forge: LiveForge, tmp_path: Path) -> None:
    repo = live_forge.create_repo("artifacts-rt")
    task, _runner = take_task(live_forge, repo)
    runtime_token = task.context["gitea_runtime_token"]
    client = ArtifactClient(live_forge.url, runtime_token, retry=FAST)
    source = tmp_path / "big.bin"
    source.write_bytes(os.urandom(5 * 1024 * 1024 + 123))
    uploaded = client.upload("big", source, block_size=1024 * 1024, concurrency=3)
    assert uploaded.size == source.stat().st_size
    assert uploaded.sha256 == hashlib.sha256(source.read_bytes()).hexdigest()
    streamed = client.upload("streamed.txt", io.BytesIO(b"hello\n"), version=7, mime_type="text/plain")
    listed = {item.name: item for item in client.list()}
    assert set(listed) == {"big", "streamed.txt"}
    assert listed["big"].id == uploaded.artifact_id and listed["big"].size == uploaded.size
    assert [item.name for item in client.list(id_filter=streamed.artifact_id)] == ["streamed.txt"]
    target = tmp_path / "back.bin"
    downloaded = client.download("big", target)
    assert target.read_bytes() == source.read_bytes()
    assert downloaded.sha256 == uploaded.sha256
    directory = tmp_path / "dir"
    directory.mkdir()
    text = client.download("streamed.txt", directory)
    assert text.content_type.startswith("text/plain")
    assert text.path is not None and text.path.read_bytes() == b"hello\n"
    assert client.delete("big") == uploaded.artifact_id
    assert [item.name for item in client.list()] == ["streamed.txt"]
    with pytest.raises(TwirpCallError) as caught:
        client.signed_url("big")
    assert caught.value.status == 404


class CountingStream(io.RawIOBase):
    """``size`` bytes of a repeating pattern, produced on demand (nothing held in memory)."""

    def __init__(self, size: int) -> None:
        self.remaining = size
        self.digest = hashlib.sha256()

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        count = self.remaining if size < 0 else min(size, self.remaining)
        data = (bytes(range(256)) * (count // 256 + 1))[:count]
        self.remaining -= count
        self.digest.update(data)
        return data


BLOB_SINK = """
import http.server, sys
class Sink(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_PUT(self):
        remaining = int(self.headers.get("Content-Length", "0"))
        while remaining:
            remaining -= len(self.rfile.read(min(remaining, 65536)))
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Sink)
print(server.server_port, flush=True)
server.serve_forever()
"""


@pytest.fixture
def blob_sink() -> Iterator[str]:
    """A signed-URL endpoint in another process that discards what it gets (so only the client is measured)."""
    process = subprocess.Popen([sys.executable, "-c", BLOB_SINK], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    port = process.stdout.readline().strip()
    yield f"http://127.0.0.1:{port}/upload/blob?sig=s"
    process.kill()
    process.wait()


def test_upload_memory_does_not_grow_with_the_size(blob_sink: str) -> None:
    import tracemalloc

    block = 1024 * 1024
    peaks: dict[int, float] = {}
    for blocks in (16, 96):
        stream = CountingStream(blocks * block)
        uploader = BlockUploader(requests.Session(), blob_sink, block_size=block, concurrency=3, retry=FAST)
        tracemalloc.start()
        try:
            size, digest = uploader.upload(stream)  # type: ignore[arg-type]
            peaks[blocks] = tracemalloc.get_traced_memory()[1] / block
        finally:
            tracemalloc.stop()
        assert (size, digest) == (blocks * block, stream.digest.hexdigest())
    # concurrency + 1 blocks alive at most (plus the transient copies of the one being read), whatever the size:
    # a fixed bound for both sizes (which blocks overlap in time varies from run to run, so the two peaks differ
    # by a block or two; growth with the size would put the 96-block peak far above it)
    assert max(peaks.values()) < 8, peaks


def test_progress_bar_is_optional_and_harmless(live_forge: LiveForge, capsys: pytest.CaptureFixture[str]) -> None:
    repo = live_forge.create_repo("progress")
    task, _ = take_task(live_forge, repo)
    client = ArtifactClient(live_forge.url, task.context["gitea_runtime_token"], retry=FAST, progress=True)
    result = client.upload("p", io.BytesIO(b"x" * 100_000))
    sink = io.BytesIO()
    assert client.download("p", sink).sha256 == result.sha256
    assert "upload p" in capsys.readouterr().err


def test_a_regular_file_is_sent_from_its_mapping_and_anything_else_is_read(
    fake_server: FakeServer, tmp_path: Path
) -> None:
    store = BlobStore(fake_server)
    data = os.urandom(10 * mmap.PAGESIZE + 17)
    path = tmp_path / "artifact.zip"
    path.write_bytes(data)
    with path.open("rb") as stream:
        assert blob._mapped(stream) is not None
        url = fake_server.url + "/upload/blob?sig=s"
        uploader = BlockUploader(requests.Session(), url, block_size=2 * mmap.PAGESIZE, retry=FAST)
        assert uploader.upload(stream) == (len(data), hashlib.sha256(data).hexdigest())
    assert store.blob() == data and len(store.committed) == 6
    (tmp_path / "empty").write_bytes(b"")
    with (tmp_path / "empty").open("rb") as empty, path.open("rb") as moved:
        moved.seek(1)
        assert blob._mapped(empty) is None and blob._mapped(moved) is None
        assert blob._mapped(io.BytesIO(data)) is None


def _resident_mib(field: str) -> float:
    line = next(line for line in Path("/proc/self/status").read_text().splitlines() if line.startswith(field + ":"))
    return int(line.split()[1]) / 1024


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux's peak-RSS reset")
def test_a_mapped_upload_gives_each_block_back_once_sent(blob_sink: str, tmp_path: Path) -> None:
    path = tmp_path / "big.bin"
    with path.open("wb") as out:
        for _ in range(64):
            out.write(os.urandom(1024 * 1024))
    uploader = BlockUploader(requests.Session(), blob_sink, block_size=1024 * 1024, concurrency=3, retry=FAST)
    Path("/proc/self/clear_refs").write_text("5")  # the peak resident size starts again from now
    before = _resident_mib("VmRSS")
    with path.open("rb") as stream:
        size, _digest = uploader.upload(stream)
    assert size == 64 * 1024 * 1024
    assert _resident_mib("VmHWM") - before < 24, "the file's pages stayed in the process"

"""The benchmark's client process: one upload then one download, each timed and measured on its own.

``raw`` PUTs the file to the baseline server and GETs it back over plain HTTP. ``artifact`` runs inside
a ``mock-runner exec`` job (it reads ``ACTIONS_RUNTIME_TOKEN`` and ``ACTIONS_RESULTS_URL``) and pushes the
same file through the mock runner's artifact client into the reference server and back. ``official``
does the same inside a job with the official ``@actions/artifact`` client (npm, in tests/node): a Node
process driven one transfer at a time (tests/node/bench_transfer.mjs), whose own CPU and peak memory
are measured from here exactly as this process's are for the other modes. Around each
phase the peak resident memory of this process and of the server (given by pid) is reset, then read, so
the figures of one phase are not hidden by the other. The result is a JSON file the orchestrator reads.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

if __package__ in (None, ""):  # run as a script (also from a job's workspace): make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.measure import CHUNK, read_cpu_seconds, read_peak_rss, reset_peak_rss, sha256_file

__all__ = ["NODE_DRIVER", "Phase", "TransferError", "main", "raw_get", "raw_put"]

NODE_DRIVER = Path(__file__).resolve().parent.parent / "tests" / "node" / "bench_transfer.mjs"
"""The official client's side of ``official`` mode: it sits beside the npm packages it imports."""


class TransferError(RuntimeError):
    """A transfer failed or returned something other than what was sent."""


@dataclass(frozen=True)
class Phase:
    """One timed transfer: what moved, how long it took, and the peaks of both processes meanwhile."""

    direction: str  # "upload" or "download"
    size: int
    sha256: str
    seconds: float
    client_peak_bytes: int
    server_peak_bytes: int
    client_cpu_seconds: float
    server_cpu_seconds: float


def measure_phase(
    direction: str, server_pid: int, transfer: Callable[[], tuple[int, str]], client_pid: int | None = None
) -> Phase:
    """Run ``transfer`` (returning size and sha256) between resets and reads of both processes' peaks and CPU.

    The client is this process, or ``client_pid`` when another process (the official client) does the work.

    Dirty pages of the previous phase (or of the data file) are written out first, so their writeback
    does not slow this phase down: every phase starts from the same quiet disk.
    """
    os.sync()
    reset_peak_rss(client_pid)
    reset_peak_rss(server_pid)
    client_cpu, server_cpu = read_cpu_seconds(client_pid), read_cpu_seconds(server_pid)
    started = time.perf_counter()
    size, sha256 = transfer()
    seconds = time.perf_counter() - started
    return Phase(
        direction,
        size,
        sha256,
        seconds,
        client_peak_bytes=read_peak_rss(client_pid),
        server_peak_bytes=read_peak_rss(server_pid),
        client_cpu_seconds=round(read_cpu_seconds(client_pid) - client_cpu, 3),
        server_cpu_seconds=round(read_cpu_seconds(server_pid) - server_cpu, 3),
    )


def _connection(url: str) -> tuple[http.client.HTTPConnection, str]:
    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        raise TransferError(f"the baseline speaks plain http only, got {url!r}")
    connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=300, blocksize=CHUNK)
    return connection, parts.path or "/"


def raw_put(url: str, source: Path) -> tuple[int, str]:
    """PUT a file as one request body, streamed from disk; returns its size and no digest (none is computed)."""
    size = source.stat().st_size
    connection, path = _connection(url)
    try:
        with source.open("rb") as body:
            connection.request(
                "PUT",
                path,
                body=body,
                headers={"Content-Length": str(size), "Content-Type": "application/octet-stream"},
            )
        response = connection.getresponse()
        detail = response.read()
    finally:
        connection.close()
    if response.status != 201:
        raise TransferError(f"PUT {url} answered {response.status}: {detail[:200]!r}")
    return size, ""


def raw_get(url: str, dest: Path) -> tuple[int, str]:
    """GET into a file, hashing on the fly exactly as the artifact client does when it downloads."""
    connection, path = _connection(url)
    digest = hashlib.sha256()
    size = 0
    buffer = bytearray(CHUNK)
    view = memoryview(buffer)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        if response.status != 200:
            raise TransferError(f"GET {url} answered {response.status}: {response.read()[:200]!r}")
        with dest.open("wb") as out:
            while count := response.readinto(buffer):
                digest.update(view[:count])
                out.write(view[:count])
                size += count
    finally:
        connection.close()
    return size, digest.hexdigest()


def run_raw(base_url: str, source: Path, download_dir: Path, server_pid: int) -> list[Phase]:
    url = base_url.rstrip("/") + "/blob/" + source.name
    dest = download_dir / source.name
    phases = [
        measure_phase("upload", server_pid, lambda: raw_put(url, source)),
        measure_phase("download", server_pid, lambda: raw_get(url, dest)),
    ]
    dest.unlink(missing_ok=True)
    return phases


def run_artifact(
    name: str, source: Path, download_dir: Path, server_pid: int, zip_level: int | None = None
) -> list[Phase]:
    """Upload then download through the mock runner's artifact client, with the job's runtime credentials.

    With ``zip_level`` the file goes as upload-artifact sends it (a zip streamed while it uploads) and
    comes back as download-artifact takes it (the zip, then extracted); the extracted file's digest is
    computed after the timed phase.
    """
    from mock_runner.archive import FileSearch, ZipStream, extract_zip
    from mock_runner.artifacts import ArtifactClient

    client = ArtifactClient.from_environment(progress=False)
    dest = download_dir / source.name
    unzipped = download_dir / "unzipped"

    def upload() -> tuple[int, str]:
        if zip_level is None:
            result = client.upload(name, source)
            return result.size, result.sha256
        with ZipStream(FileSearch([source], source.parent), zip_level) as archive:
            client.upload(name, archive)  # type: ignore[arg-type]  # a readable stream
        return source.stat().st_size, ""

    def download() -> tuple[int, str]:
        if zip_level is None:
            result = client.download(name, dest)
            return result.size, result.sha256
        archive = download_dir / f"{name}.zip"
        client.download(name, archive)
        (extracted,) = extract_zip(archive, unzipped)
        archive.unlink()
        return extracted.stat().st_size, ""

    phases = [measure_phase("upload", server_pid, upload), measure_phase("download", server_pid, download)]
    if zip_level is not None:
        phases[1] = replace(phases[1], sha256=sha256_file(unzipped / source.name))
        (unzipped / source.name).unlink()
    dest.unlink(missing_ok=True)
    return phases


class _NodeDriver:
    """The official client's Node process: one JSON request on its stdin, one JSON answer on a pipe."""

    def __init__(self, process: subprocess.Popen[bytes], answers: IO[bytes]) -> None:
        self.process = process
        self.answers = answers

    def ask(self, **request: Any) -> dict[str, Any]:
        if self.process.stdin is None:
            raise TransferError("the official client's stdin is closed")
        self.process.stdin.write(json.dumps(request).encode() + b"\n")
        self.process.stdin.flush()
        line = self.answers.readline()
        if not line:
            raise TransferError(f"the official client exited with status {self.process.wait()} without answering")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise TransferError(f"official client: {answer['error']}")
        return answer


@contextmanager
def node_driver(script: Path = NODE_DRIVER) -> Iterator[_NodeDriver]:
    """Start the official client's process and wait until its modules are loaded (start-up is not timed)."""
    read_fd, write_fd = os.pipe()
    try:
        process = subprocess.Popen(["node", str(script), str(write_fd)], stdin=subprocess.PIPE, pass_fds=(write_fd,))
    finally:
        os.close(write_fd)
    with process, os.fdopen(read_fd, "rb") as answers:
        try:
            driver = _NodeDriver(process, answers)
            if not json.loads(answers.readline() or b"{}").get("ready"):
                raise TransferError(f"the official client did not start (status {process.wait()})")
            yield driver
        finally:
            if process.stdin is not None:
                process.stdin.close()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()


def run_official(source: Path, download_dir: Path, server_pid: int, zip_level: int | None = None) -> list[Phase]:
    """Upload then download with ``@actions/artifact``, measuring its process.

    Without ``zip_level`` the raw file goes up (``skipArchive``), else a zip at that level, as
    upload-artifact makes it. Its download checks the bytes against the upload's digest itself
    (``expectedHash``, as download-artifact does with the listed digest); the digest of the file it
    wrote is computed here after the timed phase.
    """
    dest_dir = download_dir / "official"
    dest_dir.mkdir(parents=True, exist_ok=True)
    with node_driver() as driver:
        uploaded: dict[str, Any] = {}
        written: list[Path] = []

        def upload() -> tuple[int, str]:
            uploaded.update(driver.ask(op="upload", file=str(source), level=zip_level))
            if zip_level is not None:
                return source.stat().st_size, ""
            return int(uploaded["size"]), str(uploaded["sha256"])

        def download() -> tuple[int, str]:
            expected = f"sha256:{uploaded['sha256']}"
            answer = driver.ask(op="download", id=uploaded["id"], dir=str(dest_dir), expectedHash=expected)
            if answer["digestMismatch"]:
                raise TransferError(f"the official client's download does not match {expected}")
            written.append(Path(answer["path"]))
            return int(answer["size"]), ""

        pid = driver.process.pid
        phases = [
            measure_phase("upload", server_pid, upload, pid),
            measure_phase("download", server_pid, download, pid),
        ]
    phases[1] = replace(phases[1], sha256=sha256_file(written[0]))
    written[0].unlink()
    return phases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="transfer_client.py", description="One measured upload and download.")
    parser.add_argument("mode", choices=["raw", "artifact", "official"])
    parser.add_argument("--file", type=Path, required=True, help="the data file to send")
    parser.add_argument("--download-dir", type=Path, required=True, help="an empty folder to download into")
    parser.add_argument("--server-pid", type=int, required=True, help="pid of the server, to read its peak memory")
    parser.add_argument("--out", type=Path, required=True, help="where to write the phases as JSON")
    parser.add_argument("--url", help="raw mode: base URL of the baseline server")
    parser.add_argument("--name", default="bench", help="artifact mode: the artifact's name")
    parser.add_argument(
        "--zip-level", type=int, choices=range(10), metavar="0-9", help="artifact and official modes: zip first"
    )
    options = parser.parse_args(argv)
    options.download_dir.mkdir(parents=True, exist_ok=True)
    try:
        if options.mode == "raw":
            if not options.url:
                parser.error("raw mode needs --url")
            phases = run_raw(options.url, options.file, options.download_dir, options.server_pid)
        elif options.mode == "official":
            phases = run_official(options.file, options.download_dir, options.server_pid, options.zip_level)
        else:
            phases = run_artifact(
                options.name, options.file, options.download_dir, options.server_pid, options.zip_level
            )
    except Exception as exc:  # report any failure as one line; the orchestrator shows it
        options.out.write_text(json.dumps({"error": f"{type(exc).__name__}: {exc}"}))
        print(f"transfer failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    options.out.write_text(json.dumps({"phases": [asdict(phase) for phase in phases]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

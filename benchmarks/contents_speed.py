"""How fast the contents API stays on a long history: reading 30 files in one ``file-contents`` call
against 30 single ``GET .../contents`` calls, and committing a 100-file change, on a repository of
10,000 commits served by a freshly started ``reference-server``.

The history is built with ``git fast-import`` (seconds, not minutes) and pushed over smart HTTP, so the
server sees an ordinary push. Half the files read change every hundred commits ("hot"), half only in
the first commit ("cold"): their last commit lies at the far end of the history.

    python benchmarks/contents_speed.py [--commits 10000] [--files 30] [--change 100] [--repeat 3]
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(REPO))

from benchmarks.processes import BenchmarkError, ServerProcess, start_server  # noqa: E402

__all__ = ["build_history", "fast_import_stream", "main", "measure"]

HOT_FILES = 100
COLD_FILES = 100
INTERACTIVE_READ_SECONDS = 1.0
INTERACTIVE_COMMIT_SECONDS = 2.0


def fast_import_stream(commits: int) -> bytes:
    """A ``git fast-import`` stream: commit 1 adds ``hot/`` and ``cold/`` files, every later commit
    rewrites one hot file (round robin), so cold files were last touched ``commits`` commits ago."""
    out: list[bytes] = []
    when = 1_700_000_000
    for number in range(1, commits + 1):
        lines = [
            "commit refs/heads/main",
            f"committer Bench <bench@example.invalid> {when + number} +0000",
        ]
        message = f"commit {number}\n".encode()
        out.append(("\n".join(lines) + f"\ndata {len(message)}\n").encode() + message)
        changes: list[tuple[str, bytes]] = []
        if number == 1:
            changes += [(f"cold/c{index:03d}.txt", f"cold file {index}\n".encode()) for index in range(COLD_FILES)]
            changes += [(f"hot/h{index:03d}.txt", f"hot file {index} v0\n".encode()) for index in range(HOT_FILES)]
        else:
            index = number % HOT_FILES
            changes.append((f"hot/h{index:03d}.txt", f"hot file {index} v{number}\n".encode()))
        for path, content in changes:
            out.append(f"M 100644 inline {path}\ndata {len(content)}\n".encode() + content + b"\n")
        out.append(b"\n")
    out.append(b"done\n")
    return b"".join(out)


def _git(*args: str, cwd: Path, input_bytes: bytes | None = None) -> str:
    completed = subprocess.run(
        ["git", *args], cwd=cwd, input=input_bytes, capture_output=True, check=False, env=_git_env()
    )
    if completed.returncode != 0:
        raise BenchmarkError(f"git {' '.join(args[:2])} failed: {completed.stderr.decode(errors='replace')[-500:]}")
    return completed.stdout.decode()


def _git_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_TERMINAL_PROMPT": "0"})
    return env


def build_history(work: Path, commits: int, push_url: str) -> None:
    """Build the history locally with fast-import and push it to the server's empty repository."""
    local = work / "history.git"
    _git("init", "--bare", "--quiet", str(local), cwd=work)
    _git("fast-import", "--quiet", "--done", cwd=local, input_bytes=fast_import_stream(commits))
    _git("push", "--quiet", push_url, "main:main", cwd=local)


def _timed(action: Callable[[], requests.Response], expected: int) -> float:
    started = time.perf_counter()
    response = action()
    elapsed = time.perf_counter() - started
    if response.status_code != expected:
        raise BenchmarkError(f"{response.request.method} {response.url} answered {response.status_code}")
    return elapsed


def measure(base_url: str, token: str, full_name: str, *, files: int, change: int, repeat: int) -> dict[str, Any]:
    """Best-of-``repeat`` wall times of the batched read, the single reads and one ``change``-file commit."""
    session = requests.Session()
    session.headers["Authorization"] = f"token {token}"
    api = f"{base_url.rstrip('/')}/api/v1/repos/{full_name}"
    half = files // 2
    paths = [f"hot/h{index:03d}.txt" for index in range(files - half)] + [
        f"cold/c{index:03d}.txt" for index in range(half)
    ]
    batched: list[float] = []
    singles: list[float] = []
    commits: list[float] = []
    for run in range(repeat):
        answer = session.post(f"{api}/file-contents", json={"files": paths}, timeout=120)
        if answer.status_code != 200 or any(entry is None for entry in answer.json()):
            raise BenchmarkError(f"file-contents answered {answer.status_code} or missed a file")
        batched.append(_timed(lambda: session.post(f"{api}/file-contents", json={"files": paths}, timeout=120), 200))
        started = time.perf_counter()
        for path in paths:
            _timed(lambda path=path: session.get(f"{api}/contents/{path}", timeout=120), 200)  # type: ignore[misc]
        singles.append(time.perf_counter() - started)
        operations = [
            {"operation": "create", "path": f"new/r{run}/f{index:03d}.txt", "content": base64.b64encode(b"x").decode()}
            for index in range(change)
        ]
        body = {"files": operations}
        commits.append(_timed(lambda body=body: session.post(f"{api}/contents", json=body, timeout=120), 201))  # type: ignore[misc]
    return {"batched_read": min(batched), "single_reads": min(singles), "commit": min(commits)}


def _start(work: Path, token: str) -> ServerProcess:
    return start_server(
        "reference-server",
        [
            sys.executable,
            *("-m", "reference_server.cli", "--host", "127.0.0.1", "--port", "0"),
            *("--data-dir", str(work / "data"), "--admin-token", token),
        ],
        work / "reference-server.log",
    )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures side by side; exit 1 when a figure is not interactive."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commits", type=int, default=10_000)
    parser.add_argument("--files", type=int, default=30)
    parser.add_argument("--change", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    token = secrets.token_hex(20)
    with tempfile.TemporaryDirectory(prefix="contents-bench-") as scratch:
        work = Path(scratch)
        server = _start(work, token)
        try:
            session = requests.Session()
            session.headers["Authorization"] = f"token {token}"
            api = server.url.rstrip("/") + "/api/v1"
            created = session.post(f"{api}/user/repos", json={"name": "history", "auto_init": False}, timeout=60)
            if created.status_code != 201:
                raise BenchmarkError(f"creating the repository answered {created.status_code}")
            full_name = created.json()["full_name"]
            owner = full_name.split("/")[0]
            started = time.perf_counter()
            push_url = server.url.replace("://", f"://{owner}:{token}@", 1) + f"{full_name}.git"
            build_history(work, args.commits, push_url)
            built = time.perf_counter() - started
            figures = measure(server.url, token, full_name, files=args.files, change=args.change, repeat=args.repeat)
        finally:
            server.stop()
    figures.update({"commits": args.commits, "files": args.files, "change": args.change, "history_seconds": built})
    ratio = figures["single_reads"] / figures["batched_read"] if figures["batched_read"] else float("inf")
    print(f"history of {args.commits} commits built and pushed in {built:.2f} s")
    print(f"{'operation':<46}{'seconds':>10}")
    print(f"{f'file-contents, {args.files} files, one call':<46}{figures['batched_read']:>10.3f}")
    print(f"{f'GET contents, {args.files} single calls':<46}{figures['single_reads']:>10.3f}")
    print(f"{f'POST contents, {args.change} files, one commit':<46}{figures['commit']:>10.3f}")
    print(f"one call is {ratio:.1f}x faster than {args.files} single calls (best of {args.repeat})")
    if args.json:
        args.json.write_text(json.dumps({**figures, "ratio": ratio}, indent=2))
    interactive = figures["batched_read"] < INTERACTIVE_READ_SECONDS and figures["commit"] < INTERACTIVE_COMMIT_SECONDS
    if not interactive:
        print("NOT INTERACTIVE: a figure is over its bound", file=sys.stderr)
    return 0 if interactive else 1


if __name__ == "__main__":
    sys.exit(main())

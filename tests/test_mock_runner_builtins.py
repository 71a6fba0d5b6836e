"""The native upload-artifact and download-artifact actions, against an in-memory artifact client."""

from __future__ import annotations

import hashlib
import io
import zipfile
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO

import pytest
from forge_proto import runner_pb2
from test_mock_runner_executor import RecordingSink, make_task

from mock_runner.artifacts import DownloadResult, RemoteArtifact, TwirpCallError, UploadResult
from mock_runner.executor import execute_job
from mock_runner.jobenv import JobRuntime, masker_for, task_context

SUCCESS, FAILURE = runner_pb2.RESULT_SUCCESS, runner_pb2.RESULT_FAILURE


class MemoryArtifacts:
    """Stores uploads by name, as the server would, and serves them back."""

    def __init__(self) -> None:
        self.stored: dict[str, tuple[bytes, str]] = {}
        self.expires: dict[str, datetime | None] = {}
        self.deleted: list[str] = []

    def upload(self, name: str, source: BinaryIO, *, expires_at: datetime | None = None, **_: Any) -> UploadResult:
        data = b"".join(iter(lambda: source.read(65536), b""))
        self.stored[name] = (data, "application/zip")
        self.expires[name] = expires_at
        return UploadResult(artifact_id=len(self.stored), size=len(data), sha256=hashlib.sha256(data).hexdigest())

    def delete(self, name: str) -> int:
        if name not in self.stored:
            raise TwirpCallError(404, "not_found", "no such artifact")
        del self.stored[name]
        self.deleted.append(name)
        return 1

    def list(self) -> list[RemoteArtifact]:
        return [RemoteArtifact(i, name, len(data), None, "1", "1") for i, (name, (data, _)) in
                enumerate(sorted(self.stored.items()), 1)]  # fmt: skip

    def download(self, name: str, dest: Path, *, verify: bool = True) -> DownloadResult:
        if name not in self.stored:
            raise TwirpCallError(404, "not_found", "no such artifact")
        data, content_type = self.stored[name]
        filename = f"{name}.zip" if content_type == "application/zip" else name
        (dest / filename).write_bytes(data)
        return DownloadResult(len(data), hashlib.sha256(data).hexdigest(), content_type, filename, dest / filename)

    def files(self, name: str) -> dict[str, bytes]:
        archive = zipfile.ZipFile(io.BytesIO(self.stored[name][0]))
        return {entry: archive.read(entry) for entry in archive.namelist()}


def run_with(workflow: str, tmp_path: Path, store: MemoryArtifacts) -> tuple[int, RecordingSink]:
    task = make_task(workflow)
    sink = RecordingSink()
    workspace, temp = tmp_path / "workspace", tmp_path / "temp"
    workspace.mkdir()
    temp.mkdir()
    context = task_context(task)
    runtime = JobRuntime(
        task=task, context=context, instance_url="http://forge.test", workspace=workspace, temp=temp,
        write=sink.write, masker=masker_for(task, context), cancelled=sink.cancelled,
        artifact_client_factory=lambda env: store,  # type: ignore[arg-type,return-value]
    )  # fmt: skip
    return execute_job(task, runtime, sink), sink


def test_upload_layout_outputs_and_retention(tmp_path: Path) -> None:
    store = MemoryArtifacts()
    workflow = """
jobs:
  a:
    runs-on: x
    steps:
      - run: mkdir -p dist/lib logs && echo one > dist/a.txt && echo two > dist/lib/b.txt && echo l > logs/x.log
      - id: up
        uses: actions/upload-artifact@v4
        with:
          name: bundle
          path: |
            dist/
            logs/*.log
          retention-days: 5
          compression-level: 0
      - run: echo "id=${{ steps.up.outputs.artifact-id }} digest=${{ steps.up.outputs.artifact-digest }}"
"""
    result, sink = run_with(workflow, tmp_path, store)
    assert result == SUCCESS, sink.lines
    assert store.files("bundle") == {"dist/a.txt": b"one\n", "dist/lib/b.txt": b"two\n", "logs/x.log": b"l\n"}
    expires = store.expires["bundle"]
    assert expires is not None and 4 <= (expires - datetime.now(expires.tzinfo)).days <= 5
    digest = hashlib.sha256(store.stored["bundle"][0]).hexdigest()
    assert f"id=1 digest={digest}" in sink.lines


@pytest.mark.parametrize(
    ("policy", "result", "message"),
    [("warn", SUCCESS, "Warning: No files were found"), ("ignore", SUCCESS, ""), ("error", FAILURE, "No files")],
)
def test_if_no_files_found(tmp_path: Path, policy: str, result: int, message: str) -> None:
    store = MemoryArtifacts()
    workflow = f"""
jobs:
  a:
    runs-on: x
    steps:
      - uses: actions/upload-artifact@v4
        with:
          path: nothing/here
          if-no-files-found: {policy}
"""
    outcome, sink = run_with(workflow, tmp_path, store)
    assert outcome == result
    assert store.stored == {}
    if message:
        assert any(message in line for line in sink.lines), sink.lines


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        ("path: a.txt\n          name: bad/name", "may not contain"),
        ("path: a.txt\n          retention-days: 91", "between 0 and 90"),
        ("path: a.txt\n          compression-level: high", "whole number"),
        ("path: a.txt\n          if-no-files-found: maybe", "warn, error or ignore"),
        ("name: no-path", "'path' is required"),
    ],
)
def test_bad_upload_inputs_fail_the_step(tmp_path: Path, inputs: str, message: str) -> None:
    workflow = f"""
jobs:
  a:
    runs-on: x
    steps:
      - run: echo a > a.txt
      - uses: actions/upload-artifact@v4
        with:
          {inputs}
"""
    outcome, sink = run_with(workflow, tmp_path, MemoryArtifacts())
    assert outcome == FAILURE
    assert any(message in line for line in sink.lines), sink.lines


def test_overwrite_deletes_first(tmp_path: Path) -> None:
    store = MemoryArtifacts()
    workflow = """
jobs:
  a:
    runs-on: x
    steps:
      - run: echo a > a.txt
      - uses: actions/upload-artifact@v4
        with: {name: same, path: a.txt}
      - uses: actions/upload-artifact@v4
        with: {name: same, path: a.txt, overwrite: true}
"""
    outcome, _ = run_with(workflow, tmp_path, store)
    assert outcome == SUCCESS
    assert store.deleted == ["same"]


def test_download_one_all_pattern_and_merge(tmp_path: Path) -> None:
    store = MemoryArtifacts()
    workflow = """
jobs:
  a:
    runs-on: x
    steps:
      - run: echo a > a.txt && echo b > b.txt
      - uses: actions/upload-artifact@v4
        with: {name: first, path: a.txt}
      - uses: actions/upload-artifact@v4
        with: {name: second, path: b.txt}
      - uses: actions/download-artifact@v4
        with: {name: first, path: one}
      - uses: actions/download-artifact@v4
        with: {path: all}
      - uses: actions/download-artifact@v4
        with: {path: merged, pattern: "s*", merge-multiple: true}
      - run: cat one/a.txt all/first/a.txt all/second/b.txt merged/b.txt && test ! -e merged/a.txt
      - uses: actions/download-artifact@v4
        if: always()
        with: {name: missing}
"""
    outcome, sink = run_with(workflow, tmp_path, store)
    assert outcome == FAILURE
    assert sink.steps[6] == SUCCESS, sink.lines
    assert sink.lines.count("a") == 2 and sink.lines.count("b") == 2
    assert sink.steps[7] == FAILURE
    assert any("no such artifact" in line for line in sink.lines)

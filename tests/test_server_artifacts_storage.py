"""Crash safety of artifact storage (restart over the same data directory)."""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from test_server_artifacts_support import Job, block_id, block_list_xml, install_fake_actions, path_of, sha

from reference_server.app import create_app
from reference_server.artifacts import staging, store
from reference_server.config import Config


class Crash(BaseException):
    """Stands for the process dying: nothing after it runs, no handler catches it."""


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


def start(data_dir: Path) -> Flask:
    app = create_app(Config(data_dir=data_dir, base_url="http://forge.test/"))
    app.testing = True
    return app


@pytest.fixture
def first_life(data_dir: Path) -> Iterator[Flask]:
    app = start(data_dir)
    yield app
    app.extensions["forge"].db.close()


def restart(app: Flask, data_dir: Path) -> Flask:
    """Stop ``app`` (close its database) and start a new instance over the same data directory."""
    app.extensions["forge"].db.close()
    return start(data_dir)


def job_on(app: Flask, job: Job) -> Job:
    """The same job (same token and task) talking to another instance."""
    return Job(app.test_client(), job.token, job.task)


def files_under(root: Path) -> list[Path]:
    return sorted(path for path in root.rglob("*") if path.is_file()) if root.exists() else []


def test_crash_between_publish_and_commit_leaves_nothing_half_finalized(
    first_life: Flask, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = install_fake_actions(first_life, monkeypatch)
    job = fake.start_job()
    kept = job.upload("kept", b"finalized before the crash")
    url = job.create("victim")
    job.put_block(url, block_id(1), b"world")
    job.put_block(url, block_id(0), b"hello ")
    job.put_block_list(url, block_list_xml([block_id(0), block_id(1)]))

    def die(*args: object, **kwargs: object) -> bool:
        raise Crash

    files_root = data_dir / "blobs" / staging.FILES_ROOT
    before = files_under(files_root)
    with monkeypatch.context() as patch:
        patch.setattr(store, "mark_finalized", die)
        patch.setattr(staging, "unpublish", lambda *args: None)  # a dead process cleans nothing up
        with pytest.raises(Crash):
            job.finalize("victim", 11, sha(b"hello world"))
    published = [path for path in files_under(files_root) if path not in before]
    assert sorted(path.read_bytes() for path in published) == [b"hello ", b"world"]
    with first_life.app_context():
        victim = store.find_by_name(job.task.run_id, "victim")
        assert victim is not None and victim.status == store.PENDING
        assert not (data_dir / "blobs" / staging.staging_prefix(victim.id)).exists()

    second_life = restart(first_life, data_dir)
    try:
        fake.app = second_life
        again = job_on(second_life, job)
        assert [item["name"] for item in again.listed()] == ["kept"]
        assert not any(path.exists() for path in published)
        assert again.client.get(path_of(again.signed_url("kept"))).data == b"finalized before the crash"
        response = again.finalize("victim", 11, sha(b"hello world"))
        assert response.status_code == 200, response.get_data(as_text=True)
        assert again.client.get(path_of(again.signed_url("victim"))).data == b"hello world"
        assert int(again.listed(name_filter="kept")[0]["databaseId"]) == kept
    finally:
        second_life.extensions["forge"].db.close()


def test_commit_failure_returns_the_data_to_staging(first_life: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    job = install_fake_actions(first_life, monkeypatch).start_job()
    url = job.create("flaky")
    job.put_block(url, block_id(0), b"data")

    def refuse(*args: object, **kwargs: object) -> bool:
        raise RuntimeError("database is locked")

    with monkeypatch.context() as patch:
        patch.setattr(store, "mark_finalized", refuse)
        assert job.finalize("flaky", 4, sha(b"data")).status_code == 500
    assert files_under(first_life.extensions["forge"].config.data_dir / "blobs" / staging.FILES_ROOT) == []
    assert job.finalize("flaky", 4, sha(b"data")).status_code == 200


def test_orphan_published_data_of_finalized_or_vanished_rows_is_removed_at_start(
    first_life: Flask, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = install_fake_actions(first_life, monkeypatch)
    job = fake.start_job()
    done = job.upload("done", b"complete")
    stray_of_done = data_dir / "blobs" / staging.FILES_ROOT / str(done) / "0123abcd" / "append.bin"
    stray_of_nobody = data_dir / "blobs" / staging.FILES_ROOT / "555" / "feedbeef" / "append.bin"
    for stray in (stray_of_done, stray_of_nobody):
        stray.parent.mkdir(parents=True)
        stray.write_bytes(b"stray")
    second_life = restart(first_life, data_dir)
    try:
        fake.app = second_life
        assert not stray_of_done.exists()
        assert not stray_of_nobody.exists()
        again = job_on(second_life, job)
        assert again.client.get(path_of(again.signed_url("done"))).data == b"complete"
    finally:
        second_life.extensions["forge"].db.close()


def test_restart_sweeps_staging_of_finished_or_vanished_uploads_only(
    first_life: Flask, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = install_fake_actions(first_life, monkeypatch)
    job = fake.start_job()
    pending_url = job.create("in-progress")
    job.put_block(pending_url, block_id(0), b"half")
    done = job.upload("done", b"complete")
    staging_root = data_dir / "blobs" / staging.STAGING_ROOT
    leftover = staging_root / str(done) / "blocks" / "stale"
    leftover.parent.mkdir(parents=True)
    leftover.write_bytes(b"stale block of a finalized artifact")
    vanished = staging_root / "987654" / "append.bin"
    vanished.parent.mkdir(parents=True)
    vanished.write_bytes(b"from a deleted artifact")

    second_life = restart(first_life, data_dir)
    try:
        fake.app = second_life
        assert not leftover.exists()
        assert not vanished.exists()
        again = job_on(second_life, job)
        assert again.finalize("in-progress", 4, sha(b"half")).status_code == 200
        assert again.client.get(path_of(again.signed_url("done"))).data == b"complete"
    finally:
        second_life.extensions["forge"].db.close()


def test_a_refused_finalize_keeps_the_staged_data_for_a_retry(
    first_life: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    job = install_fake_actions(first_life, monkeypatch).start_job()
    url = job.create("retry")
    job.put_block(url, block_id(0), b"payload")
    assert job.finalize("retry", 99).status_code == 400
    assert job.finalize("retry", 7, sha(b"other")).status_code == 400
    blobs_root = first_life.extensions["forge"].config.data_dir / "blobs" / staging.FILES_ROOT
    assert files_under(blobs_root) == []
    assert job.finalize("retry", 7, sha(b"payload")).status_code == 200


def test_interrupted_append_is_cut_back(first_life: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    job = install_fake_actions(first_life, monkeypatch).start_job()
    url = job.create("appended")
    assert job.client.put(url.replace("http://forge.test", "") + "&comp=appendBlock", data=b"good").status_code == 201

    class Broken(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
            raise OSError("client went away")

    with first_life.app_context():
        row = store.find_by_name(job.task.run_id, "appended")
        assert row is not None
        blobs = first_life.extensions["forge"].blobs
        with pytest.raises(OSError, match="went away"):
            staging.append_data(blobs, row.id, io.BufferedReader(Broken()), 1024)
    assert job.finalize("appended", 4, sha(b"good")).status_code == 200


def test_concurrent_finalize_calls_agree(first_life: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    job = install_fake_actions(first_life, monkeypatch).start_job()
    url = job.create("raced")
    data = bytes(range(256)) * 4096
    for index in range(4):
        job.put_block(url, block_id(index), data)
    job.put_block_list(url, block_list_xml([block_id(index) for index in range(4)]))
    answers: list[tuple[int, str]] = []

    def finalize() -> None:
        client_job = Job(first_life.test_client(), job.token, job.task)
        response = client_job.finalize("raced", 4 * len(data), sha(data * 4))
        answers.append((response.status_code, response.get_data(as_text=True)))

    threads = [threading.Thread(target=finalize) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [status for status, _ in answers] == [200, 200, 200], answers
    assert len({json.loads(body)["artifactId"] for _, body in answers}) == 1
    assert job.client.get(path_of(job.signed_url("raced"))).data == data * 4


def test_concurrent_appends_are_serialized(first_life: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    job = install_fake_actions(first_life, monkeypatch).start_job()
    url = job.create("appends")
    pieces = [bytes([index]) * 3_000_000 for index in range(6)]

    def append(piece: bytes) -> None:
        response = Job(first_life.test_client(), job.token, job.task).client.put(
            path_of(url) + "&comp=appendBlock", data=piece
        )
        assert response.status_code == 201

    threads = [threading.Thread(target=append, args=(piece,)) for piece in pieces]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert job.finalize("appends", 18_000_000).status_code == 200
    stored = job.client.get(path_of(job.signed_url("appends"))).data
    chunks = [stored[offset : offset + 3_000_000] for offset in range(0, len(stored), 3_000_000)]
    assert sorted(chunks) == sorted(pieces)


class Dribble(io.RawIOBase):
    """A stream that hands out one byte per read, as a slow socket may."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if not self.data:
            return 0
        buffer[0] = self.data[0]
        self.data = self.data[1:]
        return 1


def test_read_at_most_loops_over_short_reads() -> None:
    assert staging.read_at_most(Dribble(b"<BlockList/>"), 100) == b"<BlockList/>"
    assert staging.read_at_most(Dribble(b"0123456789"), 4) == b"0123"
    assert staging.read_at_most(io.BytesIO(b"x" * 200_000), 150_001) == b"x" * 150_001

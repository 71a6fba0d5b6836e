"""The legacy artifact protocol (v3): chunks in any order, gzip, confirm, list, download, every refusal."""

from __future__ import annotations

import base64
import gzip
import hashlib
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from flask import Flask
from test_server_artifacts_support import FakeActions, Job, actions, app_context, install_fake_actions, job
from werkzeug.test import TestResponse

from conftest import ADMIN_TOKEN
from reference_server.artifacts import legacy_store, models

__all__ = ["actions", "app_context", "install_fake_actions", "job"]


def _base(job: Job) -> str:
    return f"/api/actions_pipeline/_apis/pipelines/workflows/{job.task.run_id}/artifacts"


def _auth(job: Job) -> dict[str, str]:
    return {"Authorization": f"Bearer {job.token}"}


def _md5(data: bytes) -> str:
    return base64.b64encode(hashlib.md5(data, usedforsecurity=False).digest()).decode()


def _create(job: Job, name: str, **body: Any) -> str:
    response = job.client.post(
        _base(job) + "?api-version=6.0-preview",
        json={"Type": "actions_storage", "Name": name, **body},
        headers=_auth(job),
    )
    assert response.status_code == 200, response.get_data(as_text=True)
    url: str = response.get_json()["fileContainerResourceUrl"]
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def _put(job: Job, url: str, item: str, data: bytes, content_range: str, **headers: str) -> TestResponse:
    separator = "&" if "?" in url else "?"
    return job.client.put(
        f"{url}{separator}itemPath={quote(item, safe='')}",
        data=data,
        headers={**_auth(job), "Content-Range": content_range, "x-actions-results-md5": _md5(data), **headers},
    )


def _confirm(job: Job, name: str) -> TestResponse:
    return job.client.patch(
        _base(job) + f"?api-version=6.0-preview&artifactName={quote(name)}", json={"Size": 0}, headers=_auth(job)
    )


def _files(job: Job, name: str) -> dict[str, str]:
    digest = hashlib.md5(name.encode(), usedforsecurity=False).hexdigest()
    response = job.client.get(f"{_base(job)}/{digest}/download_url?itemPath={quote(name)}", headers=_auth(job))
    assert response.status_code == 200, response.get_data(as_text=True)
    return {item["path"]: urlsplit(item["contentLocation"]).path for item in response.get_json()["value"]}


def _refused(response: TestResponse, status: int, text: str | None = None) -> None:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "text/plain"
    body = response.get_data(as_text=True)
    assert body.endswith("\n") and body.strip()
    if text is not None:
        assert body == text + "\n"


def test_out_of_order_chunks_merge_and_download(job: Job) -> None:
    url = _create(job, "parts")
    assert url.endswith(hashlib.md5(b"parts", usedforsecurity=False).hexdigest() + "/upload")
    assert _put(job, url, "parts/greeting.txt", b"world", "bytes 6-10/11").get_json() == {"message": "success"}
    assert _put(job, url, "parts/greeting.txt", b"hello ", "bytes 0-5/11").status_code == 200
    assert _put(job, url, "parts/empty.txt", b"", "bytes 0--1/0").status_code == 200
    assert _confirm(job, "parts").status_code == 200
    files = _files(job, "parts")
    assert sorted(files) == ["parts/empty.txt", "parts/greeting.txt"]
    assert job.client.get(files["parts/greeting.txt"], headers=_auth(job)).get_data() == b"hello world"
    assert job.client.get(files["parts/empty.txt"], headers=_auth(job)).get_data() == b""
    listing = job.client.get(_base(job) + "?api-version=6.0-preview", headers=_auth(job)).get_json()
    assert listing["count"] == 1 and listing["value"][0]["name"] == "parts"


def test_gzip_is_kept_and_announced(job: Job) -> None:
    original = b"line after line\n" * 100
    packed = gzip.compress(original)
    url = _create(job, "logs", RetentionDays=2)
    assert "retentionDays=2" in url
    headers = {"Content-Encoding": "gzip", "x-tfs-filelength": str(len(original))}
    assert (
        _put(job, url, "logs/log.txt", packed, f"bytes 0-{len(packed) - 1}/{len(packed)}", **headers).status_code == 200
    )
    assert _confirm(job, "logs").status_code == 200
    (item,) = legacy_store.items_named(job.task.run_id, "logs")
    assert (item.file_size, item.stored_size, item.content_encoding) == (len(original), len(packed), "gzip")
    assert item.expires - item.created == 2 * 86400
    response = job.client.get(_files(job, "logs")["logs/log.txt"], headers=_auth(job))
    assert response.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(response.get_data()) == original


def test_a_missing_chunk_is_refused_at_confirm_and_nothing_is_listed(job: Job) -> None:
    url = _create(job, "holes")
    _put(job, url, "holes/a.bin", b"abc", "bytes 0-2/10")
    _put(job, url, "holes/a.bin", b"xyz", "bytes 7-9/10")
    _refused(_confirm(job, "holes"), 400)
    _refused(job.client.get(_base(job) + "?api-version=6.0-preview", headers=_auth(job)), 404)


@pytest.mark.parametrize(
    ("content_range", "body"),
    [
        (None, b"0123"),
        ("bytes 0-3", b"0123"),
        ("bytes 3-0/4", b"0123"),
        ("bytes 0-4/4", b"0123"),
        ("bytes 0-9/10", b"0123"),
        ("bytes 0-1/4", b"0123"),
        ("bytes -1-3/4", b"0123"),
        ("bytes 0--1/4", b""),
    ],
)
def test_bad_content_ranges_are_refused_and_stage_nothing(job: Job, content_range: str | None, body: bytes) -> None:
    url = _create(job, "ranges")
    headers = {**_auth(job), "x-actions-results-md5": _md5(body)}
    if content_range is not None:
        headers["Content-Range"] = content_range
    _refused(job.client.put(f"{url}?itemPath=ranges%2Ff.bin", data=body, headers=headers), 400)
    assert not list(job.client.application.extensions["forge"].blobs.path("artifacts/legacy").rglob("*-*"))


def test_a_wrong_md5_is_refused(job: Job) -> None:
    url = _create(job, "md5")
    response = _put(job, url, "md5/a.txt", b"data", "bytes 0-3/4", **{"x-actions-results-md5": _md5(b"other")})
    _refused(response, 400)


LEAVING = ["p/../x", "p/./a", "p", "p/", "p/a\\b", "p/a\x00b", "../p/a", "p/a//b", "p/\uff0e\uff0e/x"]


@pytest.mark.parametrize("item", LEAVING)
def test_item_paths_leaving_the_artifact_are_refused(job: Job, item: str) -> None:
    url = _create(job, "p")
    _refused(_put(job, url, item, b"data", "bytes 0-3/4"), 400)


def test_refusals_of_token_run_hash_and_api_version(job: Job, actions: FakeActions) -> None:
    base = _base(job) + "?api-version=6.0-preview"
    _refused(job.client.post(base, json={"Name": "x"}), 401, "Bad authorization header")
    _refused(job.client.post(base, json={"Name": "x"}, headers={"Authorization": "Bearer nope"}), 401)
    other = actions.start_job()
    _refused(job.client.post(_base(other) + "?api-version=6.0-preview", json={"Name": "x"}, headers=_auth(job)), 400,
             "run-id does not match")  # fmt: skip
    _refused(job.client.post(_base(job), json={"Name": "x"}, headers=_auth(job)), 400)
    _refused(job.client.post(base, data=b"{not json", headers=_auth(job)), 400, "Error decode request body")
    _refused(job.client.post(base, json={"Name": "a/b"}, headers=_auth(job)), 400)
    url = _create(job, "mine")
    _refused(_put(job, url, "theirs/a.txt", b"data", "bytes 0-3/4"), 400, "Invalid artifact hash")
    _refused(_confirm(job, "nothing-here"), 404)
    job.task.running = False
    _refused(job.client.post(base, json={"Name": "x"}, headers=_auth(job)), 401)


def test_a_file_of_another_run_is_not_served(job: Job, actions: FakeActions) -> None:
    url = _create(job, "mine")
    _put(job, url, "mine/a.txt", b"data", "bytes 0-3/4")
    _confirm(job, "mine")
    file_path = _files(job, "mine")["mine/a.txt"]
    other = actions.start_job()
    item_id = file_path.rsplit("/", 2)[-2]
    _refused(other.client.get(f"{_base(other)}/{item_id}/download", headers=_auth(other)), 400)
    _refused(other.client.get(f"{_base(other)}/999999/download", headers=_auth(other)), 404)


def test_deleting_the_run_removes_rows_and_files(app: Flask, job: Job) -> None:
    url = _create(job, "gone")
    _put(job, url, "gone/a.txt", b"data", "bytes 0-3/4")
    _confirm(job, "gone")
    blobs = app.extensions["forge"].blobs
    assert list(blobs.path("artifacts/legacy").rglob("*.bin"))
    models.delete_artifacts_of_run(job.task.run_id)
    assert legacy_store.items_of_run(job.task.run_id) == []
    assert not list(blobs.path("artifacts/legacy").rglob("*.bin"))


def test_a_reupload_with_another_size_replaces_the_file(job: Job) -> None:
    url = _create(job, "again")
    _put(job, url, "again/a.txt", b"first", "bytes 0-4/5")
    _confirm(job, "again")
    _put(job, url, "again/a.txt", b"second!", "bytes 0-6/7")
    _confirm(job, "again")
    assert job.client.get(_files(job, "again")["again/a.txt"], headers=_auth(job)).get_data() == b"second!"


def test_cleanup_actions_removes_expired_v3_files_and_keeps_the_others(
    app: Flask, job: Job, actions: FakeActions
) -> None:
    url = _create(job, "old")
    _put(job, url, "old/a.txt", b"expiring", "bytes 0-7/8")
    _confirm(job, "old")
    forge = app.extensions["forge"]
    forge.config.clock.offset_seconds = 400 * 24 * 3600  # past any retention: "old" has expired
    later = actions.start_job()
    url = _create(later, "new")
    _put(later, url, "new/b.txt", b"kept", "bytes 0-3/4")
    _confirm(later, "new")
    assert len(list(forge.blobs.path("artifacts/legacy").rglob("*.bin"))) == 2
    admin = {"Authorization": f"token {ADMIN_TOKEN}"}
    assert job.client.post("/api/v1/admin/cron/cleanup_actions", headers=admin).status_code == 204
    assert legacy_store.items_of_run(job.task.run_id) == []
    assert [item.name for item in legacy_store.items_of_run(later.task.run_id)] == ["new"]
    assert len(list(forge.blobs.path("artifacts/legacy").rglob("*.bin"))) == 1, "the expired file's data stayed"

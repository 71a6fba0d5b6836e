"""Every route that takes a body has a size limit, answered with 413 and a message in its wire format.

An app with small limits (4 KiB bodies, 1 KiB artifact blocks) is sent bodies just over them: every
POST, PUT, PATCH and DELETE route of ``app.url_map`` (the app-wide limit, checked before any work), a
chunked body without a declared length (the limit holds while reading), the artifact RPCs, blocks,
append blocks and block lists (their own limits), a Git push and an LFS upload. Nothing is stored by a
refused request.
"""

from __future__ import annotations

import base64
import gzip
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_security_routes import fill, methods_of
from test_server_artifacts_support import block_id, install_fake_actions
from werkzeug.test import TestResponse

from reference_server.app import create_app
from reference_server.artifacts.blob_upload import MAX_BLOCK_LIST_BYTES
from reference_server.artifacts.twirp import MAX_RPC_BODY
from reference_server.config import Config, Limits

BODY_LIMIT = 4096
BLOCK_LIMIT = 1024
ADMIN = "fedcba9876543210fedcba9876543210fedcba98"
HEADERS = {"Authorization": f"token {ADMIN}"}
TWIRP = "/twirp/"


@pytest.fixture
def small(tmp_path: Path) -> Iterator[Flask]:
    limits = Limits(max_request_body_bytes=BODY_LIMIT, max_block_bytes=BLOCK_LIMIT)
    app = create_app(
        Config(data_dir=tmp_path / "data", base_url="http://forge.test/", admin_token=ADMIN, limits=limits)
    )
    app.testing = True
    yield app
    app.extensions["forge"].db.close()


def _message(answer: TestResponse) -> str:
    """The refusal's text in whichever wire format the route speaks (REST, Twirp, Connect, LFS)."""
    body = answer.get_json(silent=True) or {}
    return str(body.get("message") or body.get("msg") or "")


def _too_large(answer: TestResponse, what: str) -> None:
    assert answer.status_code == 413, f"{what}: {answer.status_code} {answer.get_data(as_text=True)[:200]}"
    assert _message(answer), f"{what}: a 413 carries a message"


def _json_over(limit: int) -> bytes:
    return json.dumps({"name": "x", "padding": "p" * limit}).encode()


def test_every_body_route_refuses_a_declared_body_over_the_limit(small: Flask) -> None:
    client = small.test_client()
    checked = 0
    for rule in small.url_map.iter_rules():
        if rule.rule.startswith(TWIRP):
            continue  # the artifact service has its own limits, tested below
        for method in methods_of(rule):
            if method == "GET":
                continue
            answer = client.open(fill(rule), method=method, headers=HEADERS, data=_json_over(BODY_LIMIT))
            _too_large(answer, f"{method} {rule.rule}")
            checked += 1
    assert checked > 150


def test_a_chunked_json_body_over_the_limit_is_refused_and_nothing_is_stored(small: Flask) -> None:
    client = small.test_client()
    answer = client.post(
        "/api/v1/user/repos",
        headers={**HEADERS, "Transfer-Encoding": "chunked", "Content-Type": "application/json"},
        input_stream=io.BytesIO(_json_over(BODY_LIMIT)),
        environ_overrides={"wsgi.input_terminated": True},
    )
    _too_large(answer, "chunked JSON")
    assert client.get("/api/v1/repos/forge_admin/x", headers=HEADERS).status_code == 404


def test_artifact_bodies_have_their_own_limits(small: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    job = install_fake_actions(small, monkeypatch).start_job()
    _too_large(job.call("CreateArtifact", {"name": "a", "padding": "p" * MAX_RPC_BODY}), "RPC")
    url = job.create("big")
    _too_large(job.put_block(url, block_id(0), b"b" * (BLOCK_LIMIT + 1)), "block")
    chunked = job.client.put(
        url.split("forge.test", 1)[-1] + f"&comp=block&blockid={block_id(1)}",
        input_stream=io.BytesIO(b"b" * (BLOCK_LIMIT + 1)),
        headers={"Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )
    _too_large(chunked, "chunked block")
    append = job.client.put(url.split("forge.test", 1)[-1] + "&comp=appendBlock", data=b"a" * (BLOCK_LIMIT + 1))
    _too_large(append, "append block")
    _too_large(job.put_block_list(url, b"<BlockList>" + b" " * MAX_BLOCK_LIST_BYTES + b"</BlockList>"), "block list")
    staged = [path for path in (small.extensions["forge"].config.data_dir / "blobs").rglob("*") if path.is_file()]
    assert not staged, f"a refused upload left data: {staged}"
    assert job.put_block(url, block_id(2), b"b" * BLOCK_LIMIT).status_code == 201, "a block at the limit is fine"


def test_runner_protocol_bodies_and_gzip_bombs(small: Flask) -> None:
    client = small.test_client()
    path = "/api/actions/runner.v1.RunnerService/Register"
    answer = client.post(path, data=_json_over(BODY_LIMIT), content_type="application/json")
    _too_large(answer, "runner protocol body")
    assert answer.get_json()["code"] == "resource_exhausted"
    bomb = gzip.compress(json.dumps({"name": "r", "token": "t", "padding": "0" * (BODY_LIMIT * 10)}).encode())
    assert len(bomb) < BODY_LIMIT
    inflated = client.post(path, data=bomb, content_type="application/json", headers={"Content-Encoding": "gzip"})
    _too_large(inflated, "gzip bomb")


def test_git_push_and_lfs_upload(small: Flask) -> None:
    client: FlaskClient = small.test_client()
    assert client.post("/api/v1/user/repos", headers=HEADERS, json={"name": "r", "auto_init": True}).status_code == 201
    basic = {"Authorization": "Basic " + base64.b64encode(f"forge_admin:{ADMIN}".encode()).decode()}
    before = client.get("/api/v1/repos/forge_admin/r/branches", headers=HEADERS).get_json()
    push = client.post(
        "/forge_admin/r.git/git-receive-pack",
        headers={**basic, "Transfer-Encoding": "chunked", "Content-Type": "application/x-git-receive-pack-request"},
        input_stream=io.BytesIO(b"0" * (BODY_LIMIT + 1)),
        environ_overrides={"wsgi.input_terminated": True},
    )
    _too_large(push, "chunked git push")
    assert client.get("/api/v1/repos/forge_admin/r/branches", headers=HEADERS).get_json() == before
    oid = "a" * 64
    lfs = f"/forge_admin/r.git/info/lfs/objects/{oid}/{BODY_LIMIT + 1}"
    _too_large(client.put(lfs, headers=basic, data=b"x"), "LFS object declared over the limit")
    batch = client.post(
        "/forge_admin/r.git/info/lfs/objects/batch",
        headers={**basic, "Accept": "application/vnd.git-lfs+json", "Content-Type": "application/vnd.git-lfs+json"},
        json={"operation": "upload", "objects": [{"oid": oid, "size": BODY_LIMIT + 1}]},
    )
    [entry] = batch.get_json()["objects"]
    assert entry["error"]["code"] == 422, "the batch answers per object, as Gitea (422 Size must be...)"
    stored = [
        path for path in (small.extensions["forge"].config.data_dir / "blobs" / "lfs").rglob("*") if path.is_file()
    ]
    assert not stored

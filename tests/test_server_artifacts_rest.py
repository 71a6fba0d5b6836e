"""REST artifacts: lists, get, delete, the 302 to the signed raw ZIP, and what may and may not read it."""

from __future__ import annotations

import base64
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_server_artifacts_support import FakeActions, Job, actions, app_context, path_of, with_query

from reference_server.artifacts import models, store

API = "/api/v1"

__all__ = ["actions", "app_context"]


def make_repo(client: FlaskClient, headers: dict[str, str], name: str, *, private: bool = False) -> dict[str, Any]:
    response = client.post(f"{API}/user/repos", json={"name": name, "private": private}, headers=headers)
    assert response.status_code == 201, response.get_data(as_text=True)
    repo: dict[str, Any] = response.get_json()
    return repo


def make_user(client: FlaskClient, admin_headers: dict[str, str], name: str) -> dict[str, dict[str, str]]:
    """A new user with a full-access token and a read-only one: {"all": header, "read": header}."""
    password = "correct horse battery staple"
    body = {"username": name, "email": f"{name}@example.test", "password": password, "must_change_password": False}
    assert client.post(f"{API}/admin/users", json=body, headers=admin_headers).status_code == 201
    basic = "Basic " + base64.b64encode(f"{name}:{password}".encode()).decode()
    tokens: dict[str, dict[str, str]] = {}
    for label, scopes in (("all", ["all"]), ("read", ["read:repository"])):
        response = client.post(
            f"{API}/users/{name}/tokens", json={"name": label, "scopes": scopes}, headers={"Authorization": basic}
        )
        assert response.status_code == 201, response.get_data(as_text=True)
        tokens[label] = {"Authorization": f"token {response.get_json()['sha1']}"}
    return tokens


@pytest.fixture
def repo(client: FlaskClient, admin_headers: dict[str, str]) -> dict[str, Any]:
    return make_repo(client, admin_headers, "builds")


@pytest.fixture
def job(actions: FakeActions, repo: dict[str, Any]) -> Job:
    return actions.start_job(repo_id=repo["id"])


def base(repo: dict[str, Any]) -> str:
    return f"{API}/repos/{repo['full_name']}/actions"


def test_repository_list_in_id_order_with_total(
    client: FlaskClient, admin_headers: dict[str, str], actions: FakeActions, repo: dict[str, Any], job: Job
) -> None:
    first = job.upload("one", b"1")
    job.create("pending")
    second = job.upload("two", b"22")
    third = actions.start_job(repo_id=repo["id"]).upload("one", b"333")
    other = make_repo(client, admin_headers, "elsewhere")
    actions.start_job(repo_id=other["id"]).upload("foreign", b"x")
    response = client.get(f"{base(repo)}/artifacts", headers=admin_headers)
    assert response.status_code == 200
    body = response.get_json()
    assert body["total_count"] == 3
    assert [item["id"] for item in body["artifacts"]] == [first, second, third]
    assert response.headers["X-Total-Count"] == "3"
    named = client.get(f"{base(repo)}/artifacts?name=one", headers=admin_headers).get_json()
    assert [item["id"] for item in named["artifacts"]] == [first, third]
    assert named["total_count"] == 2
    paged = client.get(f"{base(repo)}/artifacts?limit=2&page=2", headers=admin_headers).get_json()
    assert [item["id"] for item in paged["artifacts"]] == [third]
    assert paged["total_count"] == 3


def test_artifact_shape(client: FlaskClient, admin_headers: dict[str, str], repo: dict[str, Any], job: Job) -> None:
    artifact_id = job.upload("shape", b"12345")
    body = client.get(f"{base(repo)}/artifacts/{artifact_id}", headers=admin_headers).get_json()
    url = f"http://forge.test/api/v1/repos/{repo['full_name']}/actions/artifacts/{artifact_id}"
    assert body["id"] == artifact_id
    assert body["name"] == "shape"
    assert body["size_in_bytes"] == 5
    assert body["url"] == url
    assert body["archive_download_url"] == url + "/zip"
    assert body["expired"] is False
    run = job.task.run_id
    assert body["workflow_run"] == {"id": run, "repository_id": repo["id"], "head_sha": store_head_sha(job)}
    for key in ("created_at", "updated_at", "expires_at"):
        assert body[key].endswith("+00:00")


def store_head_sha(job: Job) -> str:
    import reference_server.actions.models as actions_models

    run = actions_models.get_run(job.task.run_id)
    assert run is not None
    return run.head_sha


def test_run_list_takes_the_run_id(
    client: FlaskClient, admin_headers: dict[str, str], actions: FakeActions, repo: dict[str, Any], job: Job
) -> None:
    mine = job.upload("mine", b"m")
    actions.start_job(repo_id=repo["id"]).upload("theirs", b"t")
    body = client.get(f"{base(repo)}/runs/{job.task.run_id}/artifacts", headers=admin_headers).get_json()
    assert [item["id"] for item in body["artifacts"]] == [mine]
    assert body["total_count"] == 1
    filtered = client.get(f"{base(repo)}/runs/{job.task.run_id}/artifacts?name=nope", headers=admin_headers)
    assert filtered.get_json() == {"artifacts": [], "total_count": 0}


def test_run_of_another_repository_or_unknown_is_404(
    client: FlaskClient, admin_headers: dict[str, str], actions: FakeActions, repo: dict[str, Any]
) -> None:
    other = make_repo(client, admin_headers, "other")
    foreign = actions.start_job(repo_id=other["id"])
    foreign.upload("foreign", b"f")
    assert client.get(f"{base(repo)}/runs/{foreign.task.run_id}/artifacts", headers=admin_headers).status_code == 404
    assert client.get(f"{base(repo)}/runs/999999/artifacts", headers=admin_headers).status_code == 404
    assert client.get(f"{base(repo)}/runs/abc/artifacts", headers=admin_headers).status_code == 404
    assert client.get(f"{base(repo)}/runs/{2**64}/artifacts", headers=admin_headers).status_code == 404


def test_artifact_of_another_repository_or_pending_is_404(
    client: FlaskClient, admin_headers: dict[str, str], actions: FakeActions, repo: dict[str, Any], job: Job
) -> None:
    other = make_repo(client, admin_headers, "other")
    foreign = actions.start_job(repo_id=other["id"]).upload("foreign", b"f")
    job.create("pending")
    pending = store.find_by_name(job.task.run_id, "pending")
    assert pending is not None
    for artifact_id in (foreign, pending.id, 424242, 2**64):
        response = client.get(f"{base(repo)}/artifacts/{artifact_id}", headers=admin_headers)
        assert response.status_code == 404
        assert set(response.get_json()) == {"message", "url"}
        assert client.get(f"{base(repo)}/artifacts/{artifact_id}/zip", headers=admin_headers).status_code == 404


def test_read_access_rules(client: FlaskClient, admin_headers: dict[str, str], actions: FakeActions) -> None:
    public = make_repo(client, admin_headers, "public")
    private = make_repo(client, admin_headers, "private", private=True)
    actions.start_job(repo_id=public["id"]).upload("p", b"p")
    actions.start_job(repo_id=private["id"]).upload("s", b"s")
    assert client.get(f"{base(public)}/artifacts").get_json()["total_count"] == 1
    assert client.get(f"{base(private)}/artifacts").status_code == 404
    outsider = make_user(client, admin_headers, "outsider")
    assert client.get(f"{base(private)}/artifacts", headers=outsider["read"]).status_code == 404
    assert client.get(f"{base(private)}/artifacts", headers=admin_headers).status_code == 200


def test_delete_needs_write_and_removes_the_artifact(
    client: FlaskClient, admin_headers: dict[str, str], actions: FakeActions, app: Flask
) -> None:
    owner = make_user(client, admin_headers, "owner")
    repo = make_repo(client, owner["all"], "mine")
    job = actions.start_job(repo_id=repo["id"])
    artifact_id = job.upload("doomed", b"bytes")
    row = store.find_by_id(artifact_id)
    assert row is not None
    blob = app.extensions["forge"].blobs.path(row.blob_key)
    assert blob.is_dir()
    url = f"{base(repo)}/artifacts/{artifact_id}"
    assert client.delete(url, headers=owner["read"]).status_code == 403
    assert client.get(url, headers=owner["read"]).status_code == 200
    assert client.delete(url).status_code == 401
    response = client.delete(url, headers=owner["all"])
    assert response.status_code == 204
    assert response.data == b""
    assert client.get(url, headers=owner["all"]).status_code == 404
    assert client.delete(url, headers=owner["all"]).status_code == 404
    assert not blob.exists()
    assert job.listed() == []


def follow_zip(client: FlaskClient, headers: dict[str, str], repo: dict[str, Any], artifact_id: int) -> str:
    response = client.get(f"{base(repo)}/artifacts/{artifact_id}/zip", headers=headers)
    assert response.status_code == 302
    location = response.headers["Location"]
    parts = urlsplit(location)
    assert parts.netloc == "forge.test"
    assert parts.path == f"{base(repo)}/artifacts/{artifact_id}/zip/raw"
    assert set(parse_qs(parts.query)) == {"sig", "expires"}
    return location


def test_zip_redirects_to_a_signed_raw_url_that_needs_no_token(
    client: FlaskClient, admin_headers: dict[str, str], repo: dict[str, Any], job: Job
) -> None:
    artifact_id = job.upload("bundle", b"PK\x05\x06" + b"\x00" * 18)
    raw = client.get(path_of(follow_zip(client, admin_headers, repo, artifact_id)))
    assert raw.status_code == 200
    assert raw.headers["Content-Type"] == "application/zip"
    assert raw.data == b"PK\x05\x06" + b"\x00" * 18
    assert 'filename="bundle.zip"' in raw.headers["Content-Disposition"]


def test_raw_of_a_single_file_artifact_is_the_file_as_stored(
    client: FlaskClient, admin_headers: dict[str, str], repo: dict[str, Any], job: Job
) -> None:
    """Gitea serves a non-zip artifact's bytes with its own type, inline under its name: no ZIP around it."""
    data = b"line\n" * 1000
    artifact_id = job.upload("report.txt", data, block_size=1024, mime_type="text/plain")
    raw = client.get(path_of(follow_zip(client, admin_headers, repo, artifact_id)))
    assert raw.status_code == 200
    assert raw.headers["Content-Type"].startswith("text/plain")
    assert raw.headers["Content-Length"] == str(len(data))
    assert raw.data == data
    assert raw.headers["Content-Disposition"].startswith("inline;")
    assert 'filename="report.txt"' in raw.headers["Content-Disposition"]
    assert raw.headers["X-Content-Type-Options"] == "nosniff"


def test_raw_without_signature_is_401_even_with_an_account_token(
    client: FlaskClient, admin_headers: dict[str, str], repo: dict[str, Any], job: Job
) -> None:
    artifact_id = job.upload("guarded", b"g")
    raw = f"{base(repo)}/artifacts/{artifact_id}/zip/raw"
    for headers in ({}, admin_headers):
        response = client.get(raw, headers=headers)
        assert response.status_code == 401
        assert set(response.get_json()) == {"message", "url"}
    assert client.get(f"{API}/repos/nobody/nothing/actions/artifacts/1/zip/raw").status_code == 401


def test_raw_signature_rules(
    client: FlaskClient, admin_headers: dict[str, str], repo: dict[str, Any], job: Job, app: Flask
) -> None:
    first = job.upload("first", b"1")
    second = job.upload("second", b"2")
    location = follow_zip(client, admin_headers, repo, first)
    sig = parse_qs(urlsplit(location).query)["sig"][0]
    tampered = ("A" if sig[0] != "A" else "B") + sig[1:]
    assert client.get(with_query(location, sig=tampered)).status_code == 401
    assert client.get(with_query(location, sig=sig + "=")).status_code == 401
    assert client.get(with_query(location, sig=sig[:-3])).status_code == 401
    expires = parse_qs(urlsplit(location).query)["expires"][0]
    assert client.get(with_query(location, expires=str(int(expires) + 60))).status_code == 401
    moved = path_of(location).replace(f"/artifacts/{first}/", f"/artifacts/{second}/")
    assert client.get(moved).status_code == 401
    assert client.get(path_of(location)).status_code == 200
    app.extensions["forge"].config.clock.offset_seconds = 4000
    assert client.get(path_of(location)).status_code == 401


def test_raw_of_a_deleted_artifact_is_404(
    client: FlaskClient, admin_headers: dict[str, str], repo: dict[str, Any], job: Job
) -> None:
    artifact_id = job.upload("brief", b"b")
    location = follow_zip(client, admin_headers, repo, artifact_id)
    assert client.delete(f"{base(repo)}/artifacts/{artifact_id}", headers=admin_headers).status_code == 204
    assert client.get(path_of(location)).status_code == 404


def test_expired_artifact_is_listed_as_expired_and_not_downloadable(
    client: FlaskClient, admin_headers: dict[str, str], repo: dict[str, Any], job: Job, app: Flask
) -> None:
    from datetime import UTC, datetime, timedelta

    soon = (datetime.now(UTC) + timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M:%SZ")
    url = job.create("short-lived", expires_at=soon)
    job.put_block(url, "QUFBQQ==", b"x")
    short = int(job.finalize("short-lived", 1).get_json()["artifactId"])
    location = follow_zip(client, admin_headers, repo, short)
    app.extensions["forge"].config.clock.offset_seconds = 45 * 60
    body = client.get(f"{base(repo)}/artifacts/{short}", headers=admin_headers).get_json()
    assert body["expired"] is True
    listed = client.get(f"{base(repo)}/artifacts", headers=admin_headers).get_json()
    assert [item["expired"] for item in listed["artifacts"]] == [True]
    response = client.get(f"{base(repo)}/artifacts/{short}/zip", headers=admin_headers)
    assert response.status_code == 404
    assert response.get_json()["message"] == "Artifact has expired"
    assert client.get(path_of(location)).status_code == 404


def test_repository_deletion_drops_its_artifacts(
    client: FlaskClient, admin_headers: dict[str, str], actions: FakeActions, app: Flask
) -> None:
    doomed = make_repo(client, admin_headers, "doomed")
    kept = make_repo(client, admin_headers, "kept")
    gone = actions.start_job(repo_id=doomed["id"]).upload("gone", b"g")
    stays = actions.start_job(repo_id=kept["id"]).upload("stays", b"s")
    gone_row = store.find_by_id(gone)
    assert gone_row is not None
    blob = app.extensions["forge"].blobs.path(gone_row.blob_key)
    assert blob.is_dir()
    assert client.delete(f"{API}/repos/{doomed['full_name']}", headers=admin_headers).status_code == 204
    assert store.find_by_id(gone) is None
    assert not blob.exists()
    assert store.find_by_id(stays) is not None


def test_delete_artifacts_of_run_drops_rows_and_blobs(actions: FakeActions, repo: dict[str, Any], app: Flask) -> None:
    run_job = actions.start_job(repo_id=repo["id"])
    finalized = run_job.upload("done", b"d")
    run_job.create("pending")
    other = actions.start_job(repo_id=repo["id"]).upload("other", b"o")
    row = store.find_by_id(finalized)
    assert row is not None
    assert app.extensions["forge"].blobs.path(row.blob_key).is_dir()
    models.delete_artifacts_of_run(run_job.task.run_id)
    assert store.rows_of_run(run_job.task.run_id) == []
    assert not app.extensions["forge"].blobs.path(row.blob_key).exists()
    assert store.find_by_id(other) is not None

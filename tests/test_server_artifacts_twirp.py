"""The five artifact RPCs: success, the codecs, authentication and every refusal (Twirp JSON errors)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from forge_proto import artifact_pb2 as pb
from test_server_artifacts_support import (
    SERVICE,
    FakeActions,
    Job,
    actions,
    app_context,
    block_id,
    block_list_xml,
    install_fake_actions,
    job,
    path_of,
    sha,
    twirp_error,
)

from reference_server.artifacts import store

__all__ = ["actions", "app_context", "job"]


def test_create_answers_an_absolute_signed_upload_url(job: Job) -> None:
    answer = job.ok("CreateArtifact", {"name": "build-output", "version": 4})
    assert answer["ok"] is True
    url = urlsplit(answer["signedUploadUrl"])
    assert (url.scheme, url.netloc) == ("http", "forge.test")
    assert url.path == SERVICE + "UploadArtifact"
    query = parse_qs(url.query)
    assert set(query) == {"sig", "expires", "artifactName", "taskID", "artifactID"}
    assert query["artifactName"] == ["build-output"]
    assert query["taskID"] == [str(job.task.id)]
    assert "=" not in query["sig"][0]
    assert url.query.count("=") == 5


def test_create_url_stays_at_origin_root_under_a_sub_path(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    from reference_server.app import create_app
    from reference_server.config import Config

    app = create_app(Config(data_dir=Path(str(tmp_path)) / "sub", base_url="https://forge.test:8443/git/"))
    try:
        job = install_fake_actions(app, monkeypatch).start_job()
        url = urlsplit(job.create("x"))
        assert (url.scheme, url.netloc, url.path) == ("https", "forge.test:8443", SERVICE + "UploadArtifact")
    finally:
        app.extensions["forge"].db.close()


def test_create_accepts_camel_case_numbers_and_unknown_fields(job: Job) -> None:
    body = {
        "workflowRunBackendId": str(job.task.run_id),
        "workflowJobRunBackendId": str(job.task.job_id),
        "name": "camel",
        "version": "7",
        "mimeType": "text/plain",
        "someFutureField": {"nested": True},
    }
    response = job.client.post(SERVICE + "CreateArtifact", json=body, headers={"Authorization": f"Bearer {job.token}"})
    assert response.status_code == 200, response.get_data(as_text=True)
    row = store.find_by_name(job.task.run_id, "camel")
    assert row is not None
    assert (row.version, row.content_type, row.file_name) == (7, "text/plain", "camel")


def test_binary_protobuf_in_and_out(job: Job) -> None:
    request = pb.CreateArtifactRequest(
        workflow_run_backend_id=str(job.task.run_id),
        workflow_job_run_backend_id=str(job.task.job_id),
        name="binary",
        version=4,
    )
    response = job.client.post(
        SERVICE + "CreateArtifact",
        data=request.SerializeToString(),
        headers={"Authorization": f"Bearer {job.token}", "Content-Type": "application/protobuf"},
    )
    assert response.status_code == 200
    assert response.mimetype == "application/protobuf"
    answer = pb.CreateArtifactResponse.FromString(response.data)
    assert answer.ok is True
    assert "/UploadArtifact?" in answer.signed_upload_url


def test_binary_garbage_is_malformed(job: Job) -> None:
    response = job.client.post(
        SERVICE + "CreateArtifact",
        data=b"\xff\xff\xff\xff",
        headers={"Authorization": f"Bearer {job.token}", "Content-Type": "application/protobuf"},
    )
    twirp_error(response, 400, "malformed")


@pytest.mark.parametrize("body", [b"{not json", b"[]", b'{"name": 5}', b'{"version": "four"}', b"\xff\xfe"])
def test_malformed_json_is_malformed(job: Job, body: bytes) -> None:
    response = job.client.post(
        SERVICE + "CreateArtifact",
        data=body,
        headers={"Authorization": f"Bearer {job.token}", "Content-Type": "application/json"},
    )
    twirp_error(response, 400, "malformed")


@pytest.mark.parametrize(
    "header", [None, "", "Bearer", "Bearer not-a-jwt", "token abc", "Basic Zm9vOmJhcg=="], ids=repr
)
def test_missing_or_invalid_runtime_token_is_unauthenticated(job: Job, header: str | None) -> None:
    headers = {} if header is None else {"Authorization": header}
    response = job.client.post(SERVICE + "ListArtifacts", json=job.ids, headers=headers)
    twirp_error(response, 401, "unauthenticated")


def test_token_signed_by_another_instance_is_unauthenticated(job: Job) -> None:
    from reference_server.signing import Signer

    forged = Signer(b"another secret" * 3).issue_runtime_token(
        task_id=job.task.id,
        run_id=job.task.run_id,
        job_id=job.task.job_id,
        now=datetime.now(UTC).timestamp(),
        lifetime=60,
    )
    twirp_error(job.call("ListArtifacts", token=forged), 401, "unauthenticated")


def test_token_of_a_finished_task_is_unauthenticated(job: Job) -> None:
    job.task.running = False
    msg = twirp_error(job.call("ListArtifacts"), 401, "unauthenticated")
    assert "not running" in msg


def test_run_id_of_another_run_is_permission_denied(job: Job, actions: FakeActions) -> None:
    other = actions.start_job()
    response = job.call("ListArtifacts", {"workflow_run_backend_id": str(other.task.run_id)})
    twirp_error(response, 403, "permission_denied")


def test_job_id_of_another_job_is_permission_denied(job: Job, actions: FakeActions) -> None:
    sibling = actions.start_job(actions.runs[job.task.run_id])
    response = job.call("CreateArtifact", {"name": "a", "workflow_job_run_backend_id": str(sibling.task.job_id)})
    twirp_error(response, 403, "permission_denied")
    assert store.find_by_name(job.task.run_id, "a") is None


@pytest.mark.parametrize("value", ["", "abc", "-1", "1.5"])
def test_run_id_that_is_not_a_number_is_invalid(job: Job, value: str) -> None:
    twirp_error(job.call("ListArtifacts", {"workflow_run_backend_id": value}), 400, "invalid_argument")


def test_unknown_method_and_wrong_http_method_are_bad_route(job: Job) -> None:
    headers = {"Authorization": f"Bearer {job.token}"}
    twirp_error(job.client.post(SERVICE + "Nope", json=job.ids, headers=headers), 404, "bad_route")
    twirp_error(job.client.get(SERVICE + "ListArtifacts", headers=headers), 404, "bad_route")
    twirp_error(job.client.put(SERVICE + "CreateArtifact", json=job.ids, headers=headers), 404, "bad_route")
    twirp_error(job.client.post("/twirp/other.Service/Call", json={}), 404, "bad_route")


def test_unsupported_content_type_is_bad_route(job: Job) -> None:
    response = job.client.post(
        SERVICE + "ListArtifacts",
        data="x",
        headers={"Authorization": f"Bearer {job.token}", "Content-Type": "text/plain"},
    )
    twirp_error(response, 404, "bad_route")


@pytest.mark.parametrize(("sent", "recorded"), [(None, 4), (0, 4), (4, 4), (7, 7)])
def test_version_absent_reads_as_4_and_newer_is_recorded(job: Job, sent: int | None, recorded: int) -> None:
    body = {"name": "v"} if sent is None else {"name": "v", "version": sent}
    assert job.ok("CreateArtifact", body)["ok"] is True
    row = store.find_by_name(job.task.run_id, "v")
    assert row is not None and row.version == recorded


@pytest.mark.parametrize("version", [1, 2, 3, -1])
def test_versions_of_the_older_protocol_are_refused(job: Job, version: int) -> None:
    twirp_error(job.call("CreateArtifact", {"name": "v", "version": version}), 400, "invalid_argument")
    assert store.find_by_name(job.task.run_id, "v") is None


@pytest.mark.parametrize(
    "name",
    [
        "",
        ".",
        "..",
        "a..b",
        "../etc",
        "a/b",
        "a\\b",
        'a"b',
        "a:b",
        "a<b",
        "a>b",
        "a|b",
        "a*b",
        "a?b",
        "a\x00b",
        "a\nb",
        "a\rb",
        "a\tb",
        "a\x7fb",
        "é" * 128,
        "\uff0e\uff0e\uff0f\uff0essh\uff0fauthorized_keys",  # fullwidth: "../.ssh/authorized_keys" once normalised
        "\uff0e\uff0e",
        "a\uff3cb",
    ],
    ids=repr,
)
def test_bad_names_are_invalid_argument(job: Job, name: str) -> None:
    twirp_error(job.call("CreateArtifact", {"name": name, "version": 4}), 400, "invalid_argument")


def test_name_of_255_bytes_is_accepted(job: Job) -> None:
    assert job.ok("CreateArtifact", {"name": "é" * 127 + "x", "version": 4})["ok"] is True


@pytest.mark.parametrize(
    ("name", "mime", "content_type", "file_name"),
    [
        ("plain", None, "application/zip", "plain.zip"),
        ("already.zip", None, "application/zip", "already.zip"),
        ("bundle", "application/zip", "application/zip", "bundle.zip"),
        ("report.json", "application/json", "application/json", "report.json"),
        ("notes.txt", "Text/Plain; charset=utf-8", "text/plain", "notes.txt"),
        ("odd", "zip", "application/zip", "odd.zip"),
        ("empty-mime", "", "application/zip", "empty-mime.zip"),
    ],
)
def test_content_type_and_file_name(job: Job, name: str, mime: str | None, content_type: str, file_name: str) -> None:
    extra = {} if mime is None else {"mime_type": mime}
    job.create(name, **extra)
    row = store.find_by_name(job.task.run_id, name)
    assert row is not None
    assert (row.content_type, row.file_name) == (content_type, file_name)


@pytest.mark.parametrize("mime", ["text/pl ain", "text/plain\r\nX-Evil: 1", "/", "a/"])
def test_malformed_media_type_is_invalid_argument(job: Job, mime: str) -> None:
    twirp_error(job.call("CreateArtifact", {"name": "m", "mime_type": mime}), 400, "invalid_argument")


def test_expires_at_is_kept_and_a_past_one_refused(job: Job) -> None:
    soon = datetime.now(UTC) + timedelta(days=2)
    job.create("kept", expires_at=soon.strftime("%Y-%m-%dT%H:%M:%SZ"))
    row = store.find_by_name(job.task.run_id, "kept")
    assert row is not None and row.expires == int(soon.timestamp())
    past = (datetime.now(UTC) - timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    twirp_error(job.call("CreateArtifact", {"name": "late", "expires_at": past}), 400, "invalid_argument")


def test_default_retention_is_the_configured_days(job: Job, app: Flask) -> None:
    job.create("default")
    row = store.find_by_name(job.task.run_id, "default")
    days = app.extensions["forge"].config.limits.artifact_retention_days
    assert row is not None and row.expires - row.created == days * 86400


def test_same_name_as_a_finalized_artifact_of_the_run_already_exists(job: Job, actions: FakeActions) -> None:
    job.upload("dup", b"payload")
    twirp_error(job.call("CreateArtifact", {"name": "dup"}), 409, "already_exists")
    sibling = actions.start_job(actions.runs[job.task.run_id])
    twirp_error(sibling.call("CreateArtifact", {"name": "dup"}), 409, "already_exists")
    other_run = actions.start_job()
    assert other_run.upload("dup", b"other run") != 0


def test_same_name_as_a_pending_artifact_restarts_it(job: Job) -> None:
    first = job.create("again")
    assert job.put_block(first, block_id(0), b"old data").status_code == 201
    second = job.create("again")
    assert parse_qs(urlsplit(first).query)["artifactID"] == parse_qs(urlsplit(second).query)["artifactID"]
    twirp_error(job.finalize("again", 8), 412, "failed_precondition")
    assert job.put_block(second, block_id(0), b"new").status_code == 201
    assert job.finalize("again", 3, sha(b"new")).status_code == 200


def test_finalize_checks_size_and_hash(job: Job) -> None:
    url = job.create("checked")
    assert job.put_block(url, block_id(0), b"abcdef").status_code == 201
    twirp_error(job.finalize("checked", 5), 400, "invalid_argument")
    twirp_error(job.finalize("checked", 6, sha(b"abcdeg")), 400, "invalid_argument")
    for bad in ("md5:abc", "sha256:xyz", "sha256:" + "0" * 63, "abc"):
        twirp_error(job.finalize("checked", 6, bad), 400, "invalid_argument")
    twirp_error(job.finalize("checked", -1), 400, "invalid_argument")
    assert job.listed() == []
    upper = "sha256:" + sha(b"abcdef").removeprefix("sha256:").upper()
    answer = job.finalize("checked", 6, upper)
    assert answer.status_code == 200
    assert answer.get_json()["ok"] is True


def test_finalize_without_hash_skips_the_check(job: Job) -> None:
    url = job.create("nohash")
    job.put_block(url, block_id(0), b"xyz")
    assert job.finalize("nohash", 3).status_code == 200


def test_finalize_without_any_data_is_failed_precondition(job: Job) -> None:
    job.create("nothing")
    twirp_error(job.finalize("nothing", 0), 412, "failed_precondition")
    assert job.listed() == []


def test_empty_block_list_finalizes_a_zero_byte_artifact(job: Job) -> None:
    url = job.create("empty")
    assert (
        job.put_block_list(url, b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><BlockList/>').status_code
        == 201
    )
    answer = job.call("FinalizeArtifact", {"name": "empty", "hash": sha(b"")})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    [item] = job.listed()
    assert item["name"] == "empty"
    assert int(item.get("size", "0")) == 0


def test_finalize_of_unknown_name_is_not_found(job: Job) -> None:
    twirp_error(job.finalize("missing", 1), 404, "not_found")


def test_finalize_retry_is_idempotent_but_not_with_other_values(job: Job) -> None:
    artifact_id = job.upload("twice", b"0123456789")
    again = job.finalize("twice", 10, sha(b"0123456789"))
    assert again.status_code == 200
    assert int(again.get_json()["artifactId"]) == artifact_id
    twirp_error(job.finalize("twice", 11), 412, "failed_precondition")


def test_list_shows_finalized_artifacts_of_the_run_in_id_order(job: Job, actions: FakeActions) -> None:
    first = job.upload("first", b"1111")
    job.create("pending-one")
    second = job.upload("second", b"22")
    actions.start_job().upload("other-run", b"x")
    items = job.listed()
    assert [item["name"] for item in items] == ["first", "second"]
    assert [int(item["databaseId"]) for item in items] == [first, second]
    assert [int(item["size"]) for item in items] == [4, 2]
    for item in items:
        assert item["workflowRunBackendId"] == str(job.task.run_id)
        assert item["workflowJobRunBackendId"] == str(job.task.job_id)
        datetime.fromisoformat(item["createdAt"].replace("Z", "+00:00"))


def test_list_filters_by_name_and_database_id(job: Job) -> None:
    job.upload("alpha", b"a")
    beta = job.upload("beta", b"b")
    assert [item["name"] for item in job.listed(name_filter="alpha")] == ["alpha"]
    assert [item["name"] for item in job.listed(nameFilter="beta")] == ["beta"]
    assert [item["name"] for item in job.listed(id_filter=str(beta))] == ["beta"]
    assert [item["name"] for item in job.listed(idFilter=beta)] == ["beta"]
    assert job.listed(name_filter="gamma") == []
    assert job.listed(name_filter="alpha", id_filter=str(beta)) == []


def test_a_sibling_job_sees_the_runs_artifacts(job: Job, actions: FakeActions) -> None:
    job.upload("shared", b"s")
    sibling = actions.start_job(actions.runs[job.task.run_id])
    assert [item["name"] for item in sibling.listed()] == ["shared"]


def test_expired_artifacts_are_not_listed_nor_signed(job: Job, app: Flask) -> None:
    soon = (datetime.now(UTC) + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    url = job.create("brief", expires_at=soon)
    job.put_block(url, block_id(0), b"x")
    assert job.finalize("brief", 1).status_code == 200
    forge = app.extensions["forge"]
    job.token = forge.signer.issue_runtime_token(
        task_id=job.task.id, run_id=job.task.run_id, job_id=job.task.job_id, now=forge.now(), lifetime=86400
    )
    forge.config.clock.offset_seconds = 7200
    assert job.listed() == []
    twirp_error(job.call("GetSignedArtifactURL", {"name": "brief"}), 404, "not_found")


def test_signed_download_url_of_a_finalized_artifact(job: Job) -> None:
    job.upload("dl", b"download me", mime_type="text/plain")
    url = job.signed_url("dl")
    parts = urlsplit(url)
    assert parts.netloc == "forge.test"
    assert parts.path == SERVICE + "DownloadArtifact"
    assert set(parse_qs(parts.query)) == {"sig", "expires", "artifactName", "taskID", "artifactID"}
    response = job.client.get(path_of(url))
    assert response.status_code == 200
    assert response.data == b"download me"


def test_signed_url_of_pending_or_unknown_artifact_is_not_found(job: Job) -> None:
    job.create("pending")
    twirp_error(job.call("GetSignedArtifactURL", {"name": "pending"}), 404, "not_found")
    twirp_error(job.call("GetSignedArtifactURL", {"name": "unknown"}), 404, "not_found")


def test_delete_removes_row_and_blob(job: Job, app: Flask) -> None:
    artifact_id = job.upload("gone", b"bytes")
    row = store.find_by_id(artifact_id)
    assert row is not None
    blob = app.extensions["forge"].blobs.path(row.blob_key)
    assert [(blob / part).read_bytes() for part in row.parts] == [b"byte", b"s"]
    answer = job.ok("DeleteArtifact", {"name": "gone"})
    assert answer["ok"] is True and int(answer["artifactId"]) == artifact_id
    assert not blob.exists()
    assert job.listed() == []
    twirp_error(job.call("GetSignedArtifactURL", {"name": "gone"}), 404, "not_found")
    twirp_error(job.call("DeleteArtifact", {"name": "gone"}), 404, "not_found")
    assert job.upload("gone", b"again") != artifact_id


def test_delete_of_a_pending_artifact_drops_its_staged_blocks(job: Job, app: Flask) -> None:
    url = job.create("half")
    job.put_block(url, block_id(0), b"data")
    row = store.find_by_name(job.task.run_id, "half")
    assert row is not None
    staged = app.extensions["forge"].blobs.path(f"artifacts/staging/{row.id}")
    assert staged.is_dir()
    job.ok("DeleteArtifact", {"name": "half"})
    assert not staged.exists()
    twirp_error(job.client.put(path_of(url) + "&comp=block&blockid=" + block_id(1), data=b"x"), 404, "not_found")


def test_ok_is_never_false_and_errors_are_json(job: Job) -> None:
    for method, body in [
        ("CreateArtifact", {"name": "a/b"}),
        ("FinalizeArtifact", {"name": "none", "size": "1"}),
        ("GetSignedArtifactURL", {"name": "none"}),
        ("DeleteArtifact", {"name": "none"}),
    ]:
        response = job.call(method, body)
        assert response.status_code >= 400
        assert response.mimetype == "application/json"
        assert set(response.get_json()) == {"code", "msg"}


def test_block_list_order_decides_content(job: Job) -> None:
    url = job.create("ordered")
    assert job.put_block(url, block_id(2), b"CC").status_code == 201
    assert job.put_block(url, block_id(0), b"AA").status_code == 201
    assert job.put_block(url, block_id(1), b"BB").status_code == 201
    assert job.put_block_list(url, block_list_xml([block_id(0), block_id(1), block_id(2)])).status_code == 201
    assert job.finalize("ordered", 6, sha(b"AABBCC")).status_code == 200
    assert job.client.get(path_of(job.signed_url("ordered"))).data == b"AABBCC"

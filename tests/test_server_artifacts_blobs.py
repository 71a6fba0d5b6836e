"""Signed upload (block, block list, append) and signed download (headers, ranges), and their signatures."""

from __future__ import annotations

import dataclasses
import io
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from test_server_artifacts_support import (
    Job,
    actions,
    app_context,
    block_id,
    block_list_xml,
    job,
    path_of,
    sha,
    twirp_error,
    with_query,
)

from reference_server.artifacts import prehash, staging, store

__all__ = ["actions", "app_context", "job"]


def download(job: Job, name: str) -> bytes:
    response = job.client.get(path_of(job.signed_url(name)))
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_data()


def test_blocks_in_any_order_follow_the_block_list(job: Job) -> None:
    data = b"The quick brown fox jumps over the lazy dog"
    assert job.upload("fox", data, block_size=5) > 0
    assert download(job, "fox") == data


def test_every_upload_answer_is_exactly_201(job: Job) -> None:
    url = job.create("status")
    block = job.put_block(url, block_id(0), b"x")
    listed = job.put_block_list(url, block_list_xml([block_id(0)]))
    appended = job.client.put(with_query(url, comp="appendBlock"), data=b"")
    assert [block.status_code, listed.status_code, appended.status_code] == [201, 201, 201]


def test_reputting_a_block_replaces_it(job: Job) -> None:
    url = job.create("replace")
    job.put_block(url, block_id(0), b"first version")
    job.put_block(url, block_id(0), b"second")
    job.put_block_list(url, block_list_xml([block_id(0)]))
    assert job.finalize("replace", 6, sha(b"second")).status_code == 200
    assert download(job, "replace") == b"second"


@pytest.mark.parametrize("tag", ["Latest", "Committed", "Uncommitted"])
def test_block_list_entry_kinds(job: Job, tag: str) -> None:
    url = job.create("kinds")
    job.put_block(url, block_id(1), b"two")
    job.put_block(url, block_id(0), b"one")
    assert job.put_block_list(url, block_list_xml([block_id(0), block_id(1)], tag)).status_code == 201
    assert job.finalize("kinds", 6, sha(b"onetwo")).status_code == 200
    assert download(job, "kinds") == b"onetwo"


def test_a_block_may_appear_twice_in_the_list(job: Job) -> None:
    url = job.create("twice")
    job.put_block(url, block_id(0), b"ab")
    job.put_block_list(url, block_list_xml([block_id(0), block_id(0)]))
    assert job.finalize("twice", 4, sha(b"abab")).status_code == 200


def test_url_safe_block_ids_are_accepted(job: Job) -> None:
    url = job.create("urlsafe")
    ident = "ab-_cd-_"
    assert job.put_block(url, ident, b"u").status_code == 201
    job.put_block_list(url, block_list_xml([ident]))
    assert job.finalize("urlsafe", 1).status_code == 200


def test_single_block_without_a_list(job: Job) -> None:
    url = job.create("single")
    job.put_block(url, block_id(0), b"only block")
    assert job.finalize("single", 10, sha(b"only block")).status_code == 200
    assert download(job, "single") == b"only block"


def test_several_blocks_without_a_list_cannot_be_ordered(job: Job) -> None:
    url = job.create("unordered")
    job.put_block(url, block_id(0), b"a")
    job.put_block(url, block_id(1), b"b")
    twirp_error(job.finalize("unordered", 2), 412, "failed_precondition")


def test_append_mode_concatenates_in_arrival_order(job: Job) -> None:
    url = job.create("appended")
    for piece in (b"one,", b"two,", b"three"):
        assert job.client.put(with_query(url, comp="appendBlock"), data=piece).status_code == 201
    assert job.finalize("appended", 13, sha(b"one,two,three")).status_code == 200
    assert download(job, "appended") == b"one,two,three"


def test_a_block_list_naming_an_unknown_block_changes_nothing(job: Job) -> None:
    url = job.create("unknown-block")
    job.put_block(url, block_id(0), b"kept")
    assert job.put_block_list(url, block_list_xml([block_id(0)])).status_code == 201
    response = job.put_block_list(url, block_list_xml([block_id(0), block_id(9)]))
    msg = twirp_error(response, 400, "invalid_argument")
    assert block_id(9) in msg
    assert job.finalize("unknown-block", 4, sha(b"kept")).status_code == 200


@pytest.mark.parametrize(
    "body",
    [
        b"<BlockList><Latest>abc",
        b"<Other/>",
        b"<BlockList><Mystery>QUJD</Mystery></BlockList>",
        b"<BlockList><Latest>../etc</Latest></BlockList>",
        b'<!DOCTYPE x [<!ENTITY a "b">]><BlockList><Latest>&a;</Latest></BlockList>',
        b"not xml at all",
    ],
)
def test_bad_block_lists_are_refused(job: Job, body: bytes) -> None:
    url = job.create("bad-list")
    twirp_error(job.put_block_list(url, body), 400, "invalid_argument")
    row = store.find_by_name(job.task.run_id, "bad-list")
    assert row is not None and row.block_list is None


@pytest.mark.parametrize(
    "ident",
    ["", "..", "../../etc/passwd", "/../myfile", "a\x00b", "a\nb", "abc$", "a b", "Zm9v" * 26, "abcde"],
    ids=repr,
)
def test_bad_block_ids_are_refused_and_nothing_is_written(job: Job, app: Flask, ident: str) -> None:
    url = job.create("bad-id")
    twirp_error(job.put_block(url, ident, b"evil"), 400, "invalid_argument")
    data_dir: Path = app.extensions["forge"].config.data_dir
    assert not any(p.is_file() and p.read_bytes() == b"evil" for p in data_dir.rglob("*"))


def test_traversal_in_an_accepted_block_id_stays_inside_staging(job: Job, app: Flask) -> None:
    url = job.create("inside")
    ident = "Li4vLi4vZXRj"  # base64 of "../../etc": only the id's hash names the file
    assert job.put_block(url, ident, b"contained").status_code == 201
    data_dir: Path = app.extensions["forge"].config.data_dir
    [written] = [p for p in data_dir.rglob("*") if p.is_file() and p.read_bytes() == b"contained"]
    assert "artifacts/staging" in written.as_posix()


def test_missing_or_unknown_comp_is_refused(job: Job) -> None:
    url = job.create("comp")
    twirp_error(job.client.put(path_of(url), data=b"x"), 400, "invalid_argument")
    twirp_error(job.client.put(with_query(url, comp="page"), data=b"x"), 400, "invalid_argument")


def test_x_ms_headers_are_ignored(job: Job) -> None:
    url = job.create("azure")
    headers = {"x-ms-version": "2026-04-06", "x-ms-blob-type": "BlockBlob", "x-ms-client-request-id": "u"}
    response = job.client.put(with_query(url, comp="block", blockid=block_id(0)), data=b"az", headers=headers)
    assert response.status_code == 201


def test_upload_url_of_a_finalized_artifact_is_a_conflict(job: Job) -> None:
    url = job.create("done")
    job.put_block(url, block_id(0), b"x")
    assert job.finalize("done", 1).status_code == 200
    twirp_error(job.put_block(url, block_id(1), b"y"), 409, "already_exists")
    twirp_error(job.put_block_list(url, block_list_xml([block_id(1)])), 409, "already_exists")


def test_oversized_block_is_refused(job: Job, app: Flask) -> None:
    config = app.extensions["forge"].config
    config.limits = dataclasses.replace(config.limits, max_block_bytes=8)
    url = job.create("big")
    twirp_error(job.put_block(url, block_id(0), b"0123456789"), 413, "resource_exhausted")
    chunked = job.client.put(
        with_query(url, comp="block", blockid=block_id(0)),
        input_stream=io.BytesIO(b"0123456789"),
        headers={"Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )
    twirp_error(chunked, 413, "resource_exhausted")
    twirp_error(job.client.put(with_query(url, comp="appendBlock"), data=b"0123456789"), 413, "resource_exhausted")
    assert job.put_block(url, block_id(0), b"01234567").status_code == 201
    assert job.finalize("big", 8, sha(b"01234567")).status_code == 200


def test_oversized_rpc_body_is_too_large(job: Job) -> None:
    twirp_error(job.call("ListArtifacts", {"padding": "x" * (1024 * 1024)}), 413, "resource_exhausted")


def test_blocks_above_the_app_body_limit_are_accepted(job: Job, app: Flask) -> None:
    url = job.create("large")
    app.config["MAX_CONTENT_LENGTH"] = 16
    data = bytes(range(256)) * 4
    assert job.put_block(url, block_id(0), data).status_code == 201
    assert job.call("ListArtifacts", {"padding": "x" * 64}).status_code == 200
    assert job.finalize("large", len(data), sha(data)).status_code == 200


def tamper(value: str) -> str:
    return ("A" if value[0] != "A" else "B") + value[1:]


SIGNATURE_CASES: dict[str, Callable[[dict[str, str]], dict[str, str | None]]] = {
    "tampered sig": lambda q: {"sig": tamper(q["sig"])},
    "padded sig": lambda q: {"sig": q["sig"] + "="},
    "truncated sig": lambda q: {"sig": q["sig"][:-4]},
    "missing sig": lambda q: {"sig": None},
    "empty sig": lambda q: {"sig": ""},
    "undecodable sig": lambda q: {"sig": "!!!!"},
    "missing expires": lambda q: {"expires": None},
    "non-numeric expires": lambda q: {"expires": "soon"},
    "later expires": lambda q: {"expires": str(int(q["expires"]) + 3600)},
    "other artifact id": lambda q: {"artifactID": str(int(q["artifactID"]) + 1)},
    "missing artifact id": lambda q: {"artifactID": None},
    "other name": lambda q: {"artifactName": q["artifactName"] + "x"},
    "other task": lambda q: {"taskID": str(int(q["taskID"]) + 1)},
}


def _query(url: str) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlsplit(url).query).items()}


@pytest.mark.parametrize("case", list(SIGNATURE_CASES))
def test_bad_upload_signatures_are_401(job: Job, case: str) -> None:
    url = job.create("signed")
    changed = with_query(url, **SIGNATURE_CASES[case](_query(url)), comp="block", blockid=block_id(0))
    twirp_error(job.client.put(changed, data=b"x"), 401, "unauthenticated")
    row = store.find_by_name(job.task.run_id, "signed")
    assert row is not None
    assert job.finalize("signed", 1).status_code == 412


@pytest.mark.parametrize("case", list(SIGNATURE_CASES))
def test_bad_download_signatures_are_401(job: Job, case: str) -> None:
    job.upload("signed", b"secret")
    url = job.signed_url("signed")
    twirp_error(job.client.get(with_query(url, **SIGNATURE_CASES[case](_query(url)))), 401, "unauthenticated")


def test_expired_signed_urls_are_401(job: Job, app: Flask) -> None:
    job.upload("old", b"content")
    upload_url = job.create("later")
    download_url = job.signed_url("old")
    app.extensions["forge"].config.clock.offset_seconds = 4000
    msg = twirp_error(job.client.get(path_of(download_url)), 401, "unauthenticated")
    assert "expired" in msg
    twirp_error(job.put_block(upload_url, block_id(0), b"x"), 401, "unauthenticated")


def test_download_is_valid_after_the_task_finished(job: Job) -> None:
    job.upload("kept", b"still here")
    url = job.signed_url("kept")
    job.task.running = False
    assert job.client.get(path_of(url)).data == b"still here"


def test_download_of_a_deleted_artifact_is_404(job: Job) -> None:
    job.upload("deleted", b"x")
    url = job.signed_url("deleted")
    job.ok("DeleteArtifact", {"name": "deleted"})
    twirp_error(job.client.get(path_of(url)), 404, "not_found")


def test_download_headers(job: Job) -> None:
    job.upload("report.html", b"<h1>hi</h1>", mime_type="text/html")
    response = job.client.get(path_of(job.signed_url("report.html")))
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/html"
    assert response.headers["Content-Disposition"] == 'inline; filename="report.html"'
    assert response.headers["Content-Length"] == "11"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Accept-Ranges"] == "bytes"
    assert response.headers["Last-Modified"]


def test_zip_artifacts_download_as_name_dot_zip(job: Job) -> None:
    job.upload("bundle", b"PK\x03\x04fake")
    response = job.client.get(path_of(job.signed_url("bundle")))
    assert response.headers["Content-Type"] == "application/zip"
    assert response.headers["Content-Disposition"] == 'inline; filename="bundle.zip"'


def test_non_ascii_file_names_get_filename_star(job: Job) -> None:
    job.upload("résumé.txt", b"cv", mime_type="text/plain")
    disposition = job.client.get(path_of(job.signed_url("résumé.txt"))).headers["Content-Disposition"]
    assert disposition == "inline; filename=\"resume.txt\"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt"


def test_head_of_a_download(job: Job) -> None:
    job.upload("head", b"12345", mime_type="text/plain")
    response = job.client.head(path_of(job.signed_url("head")))
    assert response.status_code == 200
    assert response.headers["Content-Length"] == "5"
    assert response.data == b""


@pytest.mark.parametrize(
    ("header", "body", "content_range"),
    [
        ("bytes=0-3", b"0123", "bytes 0-3/10"),
        ("bytes=4-", b"456789", "bytes 4-9/10"),
        ("bytes=-2", b"89", "bytes 8-9/10"),
        ("bytes=8-100", b"89", "bytes 8-9/10"),
    ],
)
def test_single_range_is_206(job: Job, header: str, body: bytes, content_range: str) -> None:
    job.upload("ranged", b"0123456789", mime_type="text/plain")
    response = job.client.get(path_of(job.signed_url("ranged")), headers={"Range": header})
    assert response.status_code == 206
    assert response.data == body
    assert response.headers["Content-Range"] == content_range
    assert response.headers["Content-Length"] == str(len(body))


def test_unsatisfiable_range_is_416(job: Job) -> None:
    job.upload("ranged", b"0123456789", mime_type="text/plain")
    response = job.client.get(path_of(job.signed_url("ranged")), headers={"Range": "bytes=20-30"})
    assert response.status_code == 416
    assert response.headers["Content-Range"] == "bytes */10"


@pytest.mark.parametrize("name", ["with space", "a+b=c&d", "100%", "名前 ✓", "#hash"])
def test_names_needing_url_encoding_survive_the_signed_urls(job: Job, name: str) -> None:
    upload_url = job.create(name, mime_type="text/plain")
    assert " " not in upload_url and "=" not in _query(upload_url)["sig"]
    assert job.put_block(upload_url, block_id(0), b"encoded").status_code == 201
    assert job.finalize(name, 7, sha(b"encoded")).status_code == 200
    assert _query(job.signed_url(name))["artifactName"] == name
    assert download(job, name) == b"encoded"


def test_finalize_after_hashing_ahead_and_a_replaced_block(job: Job, app: Flask) -> None:
    count = prehash.LOOKAHEAD + 5
    blocks = [bytes([index]) * 70_000 for index in range(count)]
    url = job.create("hashed-ahead")
    for index in reversed(range(count)):
        assert job.put_block(url, block_id(index), blocks[index]).status_code == 201
    row = store.find_by_name(job.task.run_id, "hashed-ahead")
    assert row is not None
    folder = app.extensions["forge"].blobs.path(staging.staging_prefix(row.id))
    ids = [block_id(index) for index in range(count)]
    deadline = time.monotonic() + 10
    while prehash.resume_point(folder, row.id, ids).count < count - prehash.LOOKAHEAD and time.monotonic() < deadline:
        time.sleep(0.01)
    assert prehash.resume_point(folder, row.id, ids).count == count - prehash.LOOKAHEAD
    blocks[2] = b"a different third block"
    assert job.put_block(url, block_id(2), blocks[2]).status_code == 201
    assert job.put_block_list(url, block_list_xml(ids)).status_code == 201
    data = b"".join(blocks)
    assert job.finalize("hashed-ahead", len(data), sha(data)).status_code == 200
    assert download(job, "hashed-ahead") == data

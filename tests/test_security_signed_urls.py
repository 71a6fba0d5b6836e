"""Signed URLs are bound to their path and every query parameter, and their MACs are compared in constant time.

For each of the three signed URLs (the Azure-style upload, the Twirp download and the REST zip), the
untouched URL works, and changing, removing or repeating any parameter, adding one, or moving the
query to another path makes it a 401, before anything is read or written.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_server_artifacts_rest import follow_zip, make_repo
from test_server_artifacts_support import FakeActions, Job, actions, app_context, block_id, path_of

from reference_server.signing import Signer, UrlCheck, stray_parameter

__all__ = ["actions", "app_context"]


def _pairs(url: str) -> list[tuple[str, str]]:
    return parse_qsl(urlsplit(url).query, keep_blank_values=True)


def _rebuilt(url: str, pairs: list[tuple[str, str]], path: str | None = None) -> str:
    return f"{path or urlsplit(url).path}?{urlencode(pairs)}"


def _changed(value: str) -> str:
    """A different value of the same shape (a digit or letter flipped at the end)."""
    last = value[-1:] or "a"
    return value[:-1] + ("1" if last == "0" else "0" if last.isdigit() else "B" if last == "A" else "A")


def tampered(url: str) -> dict[str, str]:
    """Every way of altering ``url``'s query, by a readable name."""
    pairs = _pairs(url)
    variants: dict[str, str] = {}
    for index, (key, value) in enumerate(pairs):
        others = pairs[:index] + pairs[index + 1 :]
        variants[f"change {key}"] = _rebuilt(url, [*others[:index], (key, _changed(value)), *others[index:]])
        variants[f"remove {key}"] = _rebuilt(url, others)
        variants[f"repeat {key}"] = _rebuilt(url, [*pairs, (key, _changed(value))])
    variants["add a parameter"] = _rebuilt(url, [*pairs, ("extra", "1")])
    variants["add a token"] = _rebuilt(url, [*pairs, ("token", "0" * 40)])
    return variants


@pytest.fixture
def uploaded(app: Flask, actions: FakeActions, client: FlaskClient, admin_headers: dict[str, str]) -> dict[str, Any]:
    """A finalized artifact of a job in a real repository: its ids, its signed download and zip URLs."""
    repo = make_repo(client, admin_headers, "signed")
    job = actions.start_job(repo_id=repo["id"])
    artifact_id = job.upload("bundle", b"signed bytes")
    return {
        "job": job,
        "download": path_of(job.signed_url("bundle")),
        "zip": path_of(follow_zip(client, admin_headers, repo, artifact_id)),
        "repo": repo,
    }


def test_the_untouched_urls_work(client: FlaskClient, uploaded: dict[str, Any]) -> None:
    assert client.get(uploaded["download"]).status_code == 200
    assert client.get(uploaded["zip"]).status_code == 200


@pytest.mark.parametrize("which", ["download", "zip"])
def test_any_change_to_a_signed_download_is_401(client: FlaskClient, uploaded: dict[str, Any], which: str) -> None:
    variants = tampered(uploaded[which])
    assert len(variants) >= 8
    for name, url in variants.items():
        answer = client.get(url)
        assert answer.status_code == 401, f"{which}, {name}: {answer.status_code} {answer.get_data(as_text=True)}"


def test_a_signed_query_does_not_open_another_path(
    client: FlaskClient, admin_headers: dict[str, str], uploaded: dict[str, Any]
) -> None:
    download = uploaded["download"]
    as_upload = download.replace("/DownloadArtifact?", "/UploadArtifact?") + f"&comp=block&blockid={block_id(0)}"
    assert client.put(as_upload, data=b"x").status_code == 401, "a download signature is no upload signature"
    zip_url = uploaded["zip"]
    other_id = int(zip_url.split("/artifacts/")[1].split("/")[0]) + 1
    moved = zip_url.replace(f"/artifacts/{other_id - 1}/", f"/artifacts/{other_id}/")
    assert client.get(moved).status_code == 401, "the zip signature names its artifact"
    other = make_repo(client, admin_headers, "other")
    elsewhere = zip_url.replace(f"/repos/{uploaded['repo']['full_name']}/", f"/repos/{other['full_name']}/")
    assert client.get(elsewhere).status_code == 401, "the zip signature names its repository"


def test_any_change_to_a_signed_upload_is_401_and_stores_nothing(app: Flask, actions: FakeActions) -> None:
    job: Job = actions.start_job()
    url = path_of(job.create("pending"))
    for name, changed in tampered(url).items():
        answer = job.client.put(f"{changed}&comp=block&blockid={block_id(1)}", data=b"block")
        assert answer.status_code == 401, f"upload, {name}: {answer.get_data(as_text=True)}"
    staging = app.extensions["forge"].blobs.root
    assert not [path for path in staging.rglob("*") if path.is_file()], "a refused upload left data behind"
    assert job.put_block(url, block_id(1), b"block").status_code == 201, "the protocol's own comp/blockid are fine"


def test_stray_parameters_are_found() -> None:
    signed = ("sig", "expires", "a")
    assert stray_parameter([("sig", "s"), ("expires", "1"), ("a", "x")], signed) is None
    assert stray_parameter([("sig", "s"), ("comp", "block")], signed, ("comp",)) is None
    assert stray_parameter([("sig", "s"), ("sig", "t")], signed) == "sig"
    assert stray_parameter([("sig", "s"), ("b", "1")], signed) == "b"


def test_signatures_are_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The MAC check goes through ``hmac.compare_digest`` (and never short-circuits on a wrong signature)."""
    calls: list[tuple[object, object]] = []
    real: Callable[[Any, Any], bool] = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr("reference_server.signing.hmac.compare_digest", spy)
    signer = Signer(b"k" * 32)
    query = signer.sign("DownloadArtifact", {"artifactID": "1"}, now=1000, lifetime=60)
    assert signer.check("DownloadArtifact", query, now=1001) is UrlCheck.OK
    forged = {**query, "sig": query["sig"][:-1] + ("A" if query["sig"][-1] != "A" else "B")}
    assert signer.check("DownloadArtifact", forged, now=1001) is UrlCheck.BAD_SIGNATURE
    assert len(calls) == 2 and calls[1][0] == forged["sig"]


def test_an_expired_signature_is_refused_even_when_it_matches() -> None:
    signer = Signer(b"k" * 32)
    query = signer.sign("ArtifactZip", {"artifactID": "1", "repoID": "1"}, now=1000, lifetime=3600)
    assert signer.check("ArtifactZip", query, now=4600) is UrlCheck.OK
    assert signer.check("ArtifactZip", query, now=4601) is UrlCheck.EXPIRED
    assert signer.check("Other", query, now=1001) is UrlCheck.BAD_SIGNATURE, "the purpose (the path) is signed"

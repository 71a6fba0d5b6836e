"""Releases family: releases, their assets and downloads, Git tags, tag protection, and removal with the repository."""

from __future__ import annotations

import base64
import io
from dataclasses import replace

import pytest
from flask import Flask
from flask.testing import FlaskClient

API = "/api/v1"
PASSWORD = "correct-horse-battery"
REPO = f"{API}/repos/ann/demo"


def _basic(user: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{PASSWORD}".encode()).decode()}


def _user(client: FlaskClient, admin: dict[str, str], name: str) -> dict[str, str]:
    body = {"username": name, "email": f"{name}@example.com", "password": PASSWORD, "must_change_password": False}
    assert client.post(f"{API}/admin/users", headers=admin, json=body).status_code == 201
    return _basic(name)


@pytest.fixture
def ann(client: FlaskClient, admin_headers: dict[str, str]) -> dict[str, str]:
    """Ann, owner of the public ``ann/demo`` with one commit on ``main``."""
    headers = _user(client, admin_headers, "ann")
    created = client.post(f"{API}/user/repos", headers=headers, json={"name": "demo", "auto_init": True})
    assert created.status_code == 201
    return headers


def _release(client: FlaskClient, ann: dict[str, str], **fields: object) -> dict[str, object]:
    answer = client.post(f"{REPO}/releases", headers=ann, json=fields)
    assert answer.status_code == 201, answer.json
    return answer.json or {}


def test_a_release_creates_its_missing_tag_from_the_default_branch(client: FlaskClient, ann: dict[str, str]) -> None:
    release = _release(client, ann, tag_name="v1.0", name="First", body="notes")
    assert release["target_commitish"] == "main"
    assert release["html_url"] == "http://forge.test/ann/demo/releases/tag/v1.0"
    assert release["upload_url"] == f"http://forge.test{REPO}/releases/{release['id']}/assets"
    tag = client.get(f"{REPO}/tags/v1.0").json or {}
    branch = client.get(f"{REPO}/branches/main").json or {}
    assert tag["commit"]["sha"] == branch["commit"]["id"] == tag["id"]


def test_a_draft_has_no_tag_until_published(client: FlaskClient, ann: dict[str, str]) -> None:
    release = _release(client, ann, tag_name="v2", draft=True)
    assert client.get(f"{REPO}/tags/v2").status_code == 404
    edited = client.patch(f"{REPO}/releases/{release['id']}", headers=ann, json={"draft": False})
    assert edited.status_code == 200
    assert client.get(f"{REPO}/tags/v2").status_code == 200


def test_duplicates_and_missing_fields_are_refused(client: FlaskClient, ann: dict[str, str]) -> None:
    _release(client, ann, tag_name="v1")
    again = client.post(f"{REPO}/releases", headers=ann, json={"tag_name": "V1"})
    assert again.status_code == 409
    assert (again.json or {})["message"] == "Release is has no Tag"
    assert client.post(f"{REPO}/releases", headers=ann, json={"name": "x"}).status_code == 422
    missing = client.post(f"{REPO}/releases", headers=ann, json={"tag_name": "v9", "target_commitish": "nowhere"})
    assert missing.status_code == 404


def test_drafts_are_listed_for_writers_only_and_filters_apply(client: FlaskClient, ann: dict[str, str]) -> None:
    _release(client, ann, tag_name="v1")
    _release(client, ann, tag_name="v2", prerelease=True)
    _release(client, ann, tag_name="v3", draft=True)
    mine = client.get(f"{REPO}/releases", headers=ann)
    assert [item["tag_name"] for item in mine.json or []] == ["v3", "v2", "v1"]
    assert mine.headers["X-Total-Count"] == "3"
    anonymous = client.get(f"{REPO}/releases")
    assert [item["tag_name"] for item in anonymous.json or []] == ["v2", "v1"]
    only_pre = client.get(f"{REPO}/releases?pre-release=true", headers=ann)
    assert [item["tag_name"] for item in only_pre.json or []] == ["v2"]
    paged = client.get(f"{REPO}/releases?limit=1&page=2", headers=ann)
    assert [item["tag_name"] for item in paged.json or []] == ["v2"]
    assert 'rel="next"' in paged.headers["Link"]
    assert (client.get(f"{REPO}/releases/latest").json or {})["tag_name"] == "v1"


def test_deleting_a_release_by_tag_keeps_the_git_tag(client: FlaskClient, ann: dict[str, str]) -> None:
    _release(client, ann, tag_name="v1")
    assert client.delete(f"{REPO}/tags/v1", headers=ann).status_code == 409
    assert client.delete(f"{REPO}/releases/tags/v1", headers=ann).status_code == 204
    assert client.get(f"{REPO}/releases/tags/v1").status_code == 404
    assert client.get(f"{REPO}/tags/v1").status_code == 200
    assert client.delete(f"{REPO}/tags/v1", headers=ann).status_code == 204
    assert client.get(f"{REPO}/tags/v1").status_code == 404


def test_assets_upload_download_rename_delete(client: FlaskClient, ann: dict[str, str]) -> None:
    release = _release(client, ann, tag_name="v1")
    path = f"{REPO}/releases/{release['id']}/assets"
    upload = client.post(
        path + "?name=tool.bin",
        headers=ann,
        data={"attachment": (io.BytesIO(b"\x00binary bytes"), "local.bin")},
        content_type="multipart/form-data",
    )
    assert upload.status_code == 201, upload.json
    asset = upload.json or {}
    assert asset["name"] == "tool.bin"
    assert asset["size"] == len(b"\x00binary bytes")
    download = client.get(str(asset["browser_download_url"]).removeprefix("http://forge.test"))
    assert download.status_code == 200
    assert download.data == b"\x00binary bytes"
    assert (client.get(f"{path}/{asset['id']}").json or {})["download_count"] == 1
    renamed = client.patch(f"{path}/{asset['id']}", headers=ann, json={"name": "renamed.bin"})
    assert renamed.status_code == 201
    assert [item["name"] for item in client.get(path).json or []] == ["renamed.bin"]
    assert client.delete(f"{path}/{asset['id']}", headers=ann).status_code == 204
    assert client.get(f"{path}/{asset['id']}").status_code == 404


def test_an_asset_over_the_limit_is_refused_and_nothing_is_stored(
    app: Flask, client: FlaskClient, ann: dict[str, str]
) -> None:
    config = app.extensions["forge"].config
    config.limits = replace(config.limits, release_attachment_max_bytes=4)
    release = _release(client, ann, tag_name="v1")
    path = f"{REPO}/releases/{release['id']}/assets"
    upload = client.post(
        path, headers=ann, data={"attachment": (io.BytesIO(b"too large"), "a.bin")}, content_type="multipart/form-data"
    )
    assert upload.status_code == 413
    assert client.get(path).json == []
    blobs = app.extensions["forge"].config.data_dir / "blobs" / "attachments"
    assert not any(item.is_file() for item in blobs.rglob("*")) if blobs.exists() else True


def test_private_assets_need_read_permission(
    client: FlaskClient, ann: dict[str, str], admin_headers: dict[str, str]
) -> None:
    assert client.post(f"{API}/user/repos", headers=ann, json={"name": "secret", "private": True, "auto_init": True})
    secret = f"{API}/repos/ann/secret"
    release = client.post(f"{secret}/releases", headers=ann, json={"tag_name": "v1"}).json or {}
    asset = (
        client.post(
            f"{secret}/releases/{release['id']}/assets?name=a.txt",
            headers=ann,
            data=b"hidden",
            content_type="application/octet-stream",
        ).json
        or {}
    )
    url = str(asset["browser_download_url"]).removeprefix("http://forge.test")
    assert client.get(url).status_code == 404
    bob = _user(client, admin_headers, "bob")
    assert client.get(url, headers=bob).status_code == 404
    assert client.get(url, headers=ann).data == b"hidden"


def test_tags_annotated_and_lightweight(client: FlaskClient, ann: dict[str, str]) -> None:
    light = client.post(f"{REPO}/tags", headers=ann, json={"tag_name": "light"})
    assert light.status_code == 201
    heavy = client.post(f"{REPO}/tags", headers=ann, json={"tag_name": "heavy", "message": "Release notes"})
    assert heavy.status_code == 201
    light_tag, heavy_tag = light.json or {}, heavy.json or {}
    assert light_tag["id"] == light_tag["commit"]["sha"]
    assert heavy_tag["id"] != heavy_tag["commit"]["sha"]
    assert heavy_tag["message"] == "Release notes"
    annotated = client.get(f"{REPO}/git/tags/{heavy_tag['id']}").json or {}
    assert annotated["tag"] == "heavy"
    assert annotated["object"]["sha"] == heavy_tag["commit"]["sha"]
    assert annotated["tagger"]["email"] == "ann@example.com"
    assert client.get(f"{REPO}/git/tags/{light_tag['id']}").status_code == 400
    assert client.post(f"{REPO}/tags", headers=ann, json={"tag_name": "light"}).status_code == 409
    listed = client.get(f"{REPO}/tags")
    assert listed.headers["X-Total-Count"] == "2"
    assert {item["name"] for item in listed.json or []} == {"light", "heavy"}


def test_tag_protection_applies_to_tags_and_releases(
    client: FlaskClient, ann: dict[str, str], admin_headers: dict[str, str]
) -> None:
    bob = _user(client, admin_headers, "bob")
    assert client.put(f"{REPO}/collaborators/bob", headers=ann, json={"permission": "write"}).status_code == 204
    rule = {"name_pattern": "v*", "whitelist_usernames": ["ann"]}
    assert client.post(f"{REPO}/tag_protections", headers=ann, json=rule).status_code == 201
    refused = client.post(f"{REPO}/tags", headers=bob, json={"tag_name": "v1"})
    assert refused.status_code == 422
    assert (refused.json or {})["message"] == "user not allowed to create protected tag"
    assert client.post(f"{REPO}/releases", headers=bob, json={"tag_name": "v1"}).status_code == 422
    assert client.post(f"{REPO}/tags", headers=ann, json={"tag_name": "v1"}).status_code == 201
    assert client.delete(f"{REPO}/tags/v1", headers=bob).status_code == 422
    assert client.post(f"{REPO}/tags", headers=bob, json={"tag_name": "free"}).status_code == 201


def test_readers_cannot_write(client: FlaskClient, ann: dict[str, str], admin_headers: dict[str, str]) -> None:
    bob = _user(client, admin_headers, "bob")
    assert client.post(f"{REPO}/releases", headers=bob, json={"tag_name": "v1"}).status_code == 403
    assert client.post(f"{REPO}/tags", headers=bob, json={"tag_name": "v1"}).status_code == 403
    assert client.post(f"{REPO}/releases", json={"tag_name": "v1"}).status_code == 401


def test_releases_and_assets_go_with_the_repository(app: Flask, client: FlaskClient, ann: dict[str, str]) -> None:
    release = _release(client, ann, tag_name="v1")
    client.post(
        f"{REPO}/releases/{release['id']}/assets?name=a",
        headers=ann,
        data=b"x",
        content_type="application/octet-stream",
    )
    assert client.delete(REPO, headers=ann).status_code == 204
    db = app.extensions["forge"].db
    with app.app_context():
        assert db.scalar("SELECT COUNT(*) FROM release") == 0
        assert db.scalar("SELECT COUNT(*) FROM release_attachment") == 0


def test_a_draft_is_published_when_it_leaves_draft(client: FlaskClient, ann: dict[str, str]) -> None:
    release = _release(client, ann, tag_name="v1", draft=True)
    assert release["published_at"] is None
    edited = client.patch(f"{REPO}/releases/{release['id']}", headers=ann, json={"draft": False}).json or {}
    assert edited["published_at"] is not None


def test_a_deleted_publisher_becomes_the_ghost(
    client: FlaskClient, ann: dict[str, str], admin_headers: dict[str, str]
) -> None:
    bob = _user(client, admin_headers, "bob")
    assert client.put(f"{REPO}/collaborators/bob", headers=ann, json={"permission": "write"}).status_code == 204
    assert client.post(f"{REPO}/releases", headers=bob, json={"tag_name": "v1"}).status_code == 201
    assert client.delete(f"{API}/admin/users/bob", headers=admin_headers).status_code == 204
    listed = client.get(f"{REPO}/releases")
    assert listed.status_code == 200
    assert [item["author"]["login"] for item in listed.json or []] == ["Ghost"]


def test_an_asset_is_downloaded_by_tag_and_name(client: FlaskClient, ann: dict[str, str]) -> None:
    release = _release(client, ann, tag_name="v1")
    path = f"{REPO}/releases/{release['id']}/assets?name=tool.bin"
    client.post(path, headers=ann, data=b"tool", content_type="application/octet-stream")
    assert client.get("/ann/demo/releases/download/v1/tool.bin").data == b"tool"
    assert client.get("/ann/demo/releases/download/v1/other.bin").status_code == 404
    draft = _release(client, ann, tag_name="v2", draft=True)
    client.post(
        f"{REPO}/releases/{draft['id']}/assets?name=d.bin",
        headers=ann,
        data=b"d",
        content_type="application/octet-stream",
    )
    assert client.get("/ann/demo/releases/download/v2/d.bin").status_code == 404
    assert client.get("/ann/demo/releases/download/v2/d.bin", headers=ann).data == b"d"


def test_an_unparsable_filter_is_no_filter(client: FlaskClient, ann: dict[str, str]) -> None:
    _release(client, ann, tag_name="v1")
    listed = client.get(f"{REPO}/releases?draft=maybe&pre-release=perhaps")
    assert listed.status_code == 200
    assert len(listed.json or []) == 1

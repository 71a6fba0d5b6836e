"""LFS: batch answers, uploads verified while they stream (nothing kept on a mismatch), downloads, the
short-lived transfer tokens of batch actions, deploy-token access and file locks."""

from __future__ import annotations

import base64
import hashlib
import os
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_server_repos import create_repo, make_user

from reference_server.lfs.models import TRANSFER_LIFETIME, blob_key

MEDIA = "application/vnd.git-lfs+json"
CONTENT = os.urandom(3 * 1024 * 1024 + 17)
OID = hashlib.sha256(CONTENT).hexdigest()


def lfs_headers(auth: dict[str, str] | None = None) -> dict[str, str]:
    return {"Accept": MEDIA, "Content-Type": MEDIA, **(auth or {})}


def basic_token(token: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"x:{token}".encode()).decode()}


def js(response: Any) -> Any:
    """The JSON body of a test response (typed loosely for the assertions)."""
    return response.json


def batch(client: FlaskClient, repo: str, operation: str, auth: dict[str, str] | None, *, oid: str = OID) -> Any:
    body = {"operation": operation, "transfers": ["basic"], "objects": [{"oid": oid, "size": len(CONTENT)}]}
    return client.post(f"/{repo}.git/info/lfs/objects/batch", headers=lfs_headers(auth), json=body)


def action(answer: Any, name: str) -> dict[str, Any]:
    assert answer.status_code == 200, answer.data
    assert answer.content_type == MEDIA
    found: dict[str, Any] = js(answer)["objects"][0]["actions"][name]
    return found


def relative(href: str) -> str:
    return href.removeprefix("http://forge.test")


def upload(client: FlaskClient, auth: dict[str, str], repo: str = "lena/media", data: bytes = CONTENT) -> Any:
    put = action(batch(client, repo, "upload", auth), "upload")
    return client.put(relative(put["href"]), headers=put["header"], data=data)


@pytest.fixture
def owner(client: FlaskClient, admin_headers: dict[str, str]) -> dict[str, str]:
    headers = make_user(client, admin_headers, "lena")
    create_repo(client, headers, name="media", auto_init=True, private=True)
    create_repo(client, headers, name="other", auto_init=True, private=True)
    return headers


def stored(app: Flask) -> tuple[bool, int]:
    forge = app.extensions["forge"]
    rows = forge.db.scalar("SELECT COUNT(*) FROM lfs_meta_object")
    return forge.blobs.exists(blob_key(OID)), int(rows)


def test_upload_verify_and_download_round_trip(app: Flask, client: FlaskClient, owner: dict[str, str]) -> None:
    answer = batch(client, "lena/media", "upload", owner)
    put = action(answer, "upload")
    assert put["href"] == f"http://forge.test/lena/media.git/info/lfs/objects/{OID}/{len(CONTENT)}"
    assert put["header"]["Authorization"].startswith("Bearer lfs.")
    assert js(answer)["objects"][0]["actions"]["verify"]["header"]["Accept"] == MEDIA
    assert put["expires_in"] == TRANSFER_LIFETIME
    assert client.put(relative(put["href"]), headers=put["header"], data=CONTENT).status_code == 200
    verify = js(answer)["objects"][0]["actions"]["verify"]
    checked = client.post(relative(verify["href"]), headers=verify["header"], json={"oid": OID, "size": len(CONTENT)})
    assert checked.status_code == 200
    assert batch(client, "lena/media", "upload", owner).json["objects"][0].get("actions") is None
    get = action(batch(client, "lena/media", "download", owner), "download")
    downloaded = client.get(relative(get["href"]), headers=get["header"])
    assert downloaded.status_code == 200 and downloaded.data == CONTENT
    ranged = client.get(relative(get["href"]), headers={**get["header"], "Range": "bytes=10-19"})
    assert ranged.status_code == 206 and ranged.data == CONTENT[10:20]
    assert stored(app) == (True, 1)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (CONTENT[:-1], "size does not match"),
        (CONTENT + b"x", "size does not match"),
        (bytes([CONTENT[0] ^ 0xFF]) + CONTENT[1:], "hash does not match"),  # always differs from CONTENT
    ],
)
def test_mismatched_upload_is_422_and_keeps_nothing(
    app: Flask, client: FlaskClient, owner: dict[str, str], data: bytes, message: str
) -> None:
    refused = upload(client, owner, data=data)
    assert refused.status_code == 422 and refused.content_type == MEDIA
    assert message in js(refused)["message"]
    assert stored(app) == (False, 0)
    assert not any(app.extensions["forge"].blobs.tmp.iterdir())
    missing = batch(client, "lena/media", "download", owner).json["objects"][0]
    assert missing["error"]["code"] == 404


def test_objects_are_served_only_by_repositories_that_hold_them(client: FlaskClient, owner: dict[str, str]) -> None:
    assert upload(client, owner).status_code == 200
    assert batch(client, "lena/other", "download", owner).json["objects"][0]["error"]["code"] == 404
    verify = client.post(
        "/lena/other.git/info/lfs/verify", headers=lfs_headers(owner), json={"oid": OID, "size": len(CONTENT)}
    )
    assert verify.status_code == 404
    assert client.get(f"/lena/other.git/info/lfs/objects/{OID}", headers=owner).status_code == 404


def test_bad_requests(client: FlaskClient, owner: dict[str, str]) -> None:
    url = "/lena/media.git/info/lfs/objects/batch"
    body = {"operation": "download", "objects": []}
    assert client.post(url, headers={**owner, "Accept": "application/json"}, json=body).status_code == 415
    assert client.post(url, headers=lfs_headers(owner), json={"operation": "delete", "objects": []}).status_code == 422
    assert client.post(url, headers=lfs_headers(owner), data=b"{nope").status_code == 400
    other = {"operation": "upload", "transfers": ["tus"], "objects": []}
    assert client.post(url, headers=lfs_headers(owner), json=other).status_code == 422
    invalid = batch(client, "lena/media", "upload", owner, oid="ABC").json["objects"][0]
    assert invalid["error"]["code"] == 422 and "actions" not in invalid
    assert client.put(f"/lena/media.git/info/lfs/objects/{OID}/-1", headers=owner, data=b"").status_code in (404, 422)
    assert batch(client, "lena/nothere", "download", owner).status_code == 404


def test_credentials_and_transfer_tokens(
    app: Flask, client: FlaskClient, owner: dict[str, str], admin_headers: dict[str, str]
) -> None:
    anonymous = batch(client, "lena/media", "download", None)
    assert anonymous.status_code == 401 and anonymous.headers["LFS-Authenticate"].startswith("Basic")
    stranger = make_user(client, admin_headers, "mo")
    assert batch(client, "lena/media", "download", stranger).status_code == 401
    put = action(batch(client, "lena/media", "upload", owner), "upload")
    moved = relative(put["href"]).replace("/lena/media.git/", "/lena/other.git/")
    assert client.put(moved, headers=put["header"], data=CONTENT).status_code == 401
    forged = {"Authorization": put["header"]["Authorization"][:-3] + "abc"}
    assert client.put(relative(put["href"]), headers=forged, data=CONTENT).status_code == 401
    client.put("/api/v1/-/reference/clock", headers=admin_headers, json={"offset_seconds": TRANSFER_LIFETIME + 5})
    assert client.put(relative(put["href"]), headers=put["header"], data=CONTENT).status_code == 401
    assert stored(app) == (False, 0)


def test_deploy_tokens_reach_lfs(client: FlaskClient, owner: dict[str, str]) -> None:
    def deploy_token(title: str, read_only: bool) -> dict[str, str]:
        body = {"title": title, "read_only": read_only}
        created = client.post("/api/v1/repos/lena/media/keys/tokens", headers=owner, json=body)
        return basic_token(js(created)["key"])

    reader, writer = deploy_token("reader", True), deploy_token("writer", False)
    assert batch(client, "lena/media", "upload", reader).status_code == 401
    assert upload(client, writer).status_code == 200
    get = action(batch(client, "lena/media", "download", reader), "download")
    assert client.get(relative(get["href"]), headers=get["header"]).data == CONTENT
    assert batch(client, "lena/other", "download", writer).status_code == 401


def test_locks(client: FlaskClient, owner: dict[str, str], admin_headers: dict[str, str]) -> None:
    reader_only = make_user(client, admin_headers, "wes")
    locks = "/lena/media.git/info/lfs/locks"
    created = client.post(
        locks, headers=lfs_headers(owner), json={"path": "assets/big.bin", "ref": {"name": "refs/heads/main"}}
    )
    assert created.status_code == 201
    lock = js(created)["lock"]
    assert lock["path"] == "assets/big.bin" and lock["owner"] == {"name": "lena"} and lock["id"].isdigit()
    again = client.post(locks, headers=lfs_headers(admin_headers), json={"path": "/assets/big.bin"})
    assert again.status_code == 409 and js(again)["lock"]["id"] == lock["id"]
    assert client.get(locks, headers=lfs_headers(owner)).json == {"locks": [lock], "next_cursor": ""}
    assert js(client.get(f"{locks}?path=assets/big.bin", headers=lfs_headers(owner)))["locks"] == [lock]
    assert client.get(f"{locks}?id=999", headers=lfs_headers(owner)).status_code == 404
    mine = client.post(f"{locks}/verify", headers=lfs_headers(owner), json={})
    assert mine.json == {"ours": [lock], "theirs": [], "next_cursor": ""}
    theirs = client.post(f"{locks}/verify", headers=lfs_headers(admin_headers), json={})
    assert js(theirs)["theirs"] == [lock] and js(theirs)["ours"] == []
    assert client.post(f"{locks}/verify", headers=lfs_headers(reader_only), json={}).status_code == 401
    refused = client.post(f"{locks}/{lock['id']}/unlock", headers=lfs_headers(admin_headers), json={})
    assert refused.status_code == 403
    forced = client.post(f"{locks}/{lock['id']}/unlock", headers=lfs_headers(admin_headers), json={"force": True})
    assert forced.status_code == 200 and js(forced)["lock"] == lock
    assert js(client.get(locks, headers=lfs_headers(owner)))["locks"] == []
    assert client.post(f"{locks}/{lock['id']}/unlock", headers=lfs_headers(owner), json={}).status_code == 404


def test_deleting_the_repository_drops_unshared_objects(app: Flask, client: FlaskClient, owner: dict[str, str]) -> None:
    assert upload(client, owner).status_code == 200
    assert upload(client, owner, repo="lena/other").status_code == 200
    assert client.delete("/api/v1/repos/lena/media", headers=owner).status_code == 204
    assert stored(app) == (True, 1)
    assert client.delete("/api/v1/repos/lena/other", headers=owner).status_code == 204
    assert stored(app) == (False, 0)


def test_media_serves_the_lfs_object_a_pointer_names(app: Flask, client: FlaskClient, owner: dict[str, str]) -> None:
    assert upload(client, owner).status_code == 200
    pointer = f"version https://git-lfs.github.com/spec/v1\noid sha256:{OID}\nsize {len(CONTENT)}\n"
    for path, text in (("big.bin", pointer), ("plain.txt", "just text\n")):
        body = {"content": base64.b64encode(text.encode()).decode(), "message": f"add {path}"}
        assert client.post(f"/api/v1/repos/lena/media/contents/{path}", headers=owner, json=body).status_code == 201
    media = client.get("/api/v1/repos/lena/media/media/big.bin", headers=owner)
    assert media.status_code == 200 and media.data == CONTENT
    assert client.get("/api/v1/repos/lena/media/media/plain.txt", headers=owner).data == b"just text\n"
    elsewhere = client.get("/api/v1/repos/lena/media/media/big.bin?ref=nope", headers=owner)
    assert elsewhere.status_code == 404 and set(js(elsewhere)) == {"message", "url"}
    assert client.get("/api/v1/repos/lena/media/media/missing.bin", headers=owner).status_code == 404
    assert client.get("/api/v1/repos/lena/media/media/big.bin").status_code == 404


def test_raw_serves_the_lfs_object_a_pointer_names(client: FlaskClient, owner: dict[str, str]) -> None:
    """``/raw`` resolves an LFS pointer to the stored object as Gitea's GetRawFile does (``/media`` too)."""
    assert upload(client, owner).status_code == 200
    pointer = f"version https://git-lfs.github.com/spec/v1\noid sha256:{OID}\nsize {len(CONTENT)}\n"
    unknown = "version https://git-lfs.github.com/spec/v1\noid sha256:" + "b" * 64 + "\nsize 10\n"
    for path, text in (("big.bin", pointer), ("unknown.bin", unknown)):
        body = {"content": base64.b64encode(text.encode()).decode(), "message": f"add {path}"}
        assert client.post(f"/api/v1/repos/lena/media/contents/{path}", headers=owner, json=body).status_code == 201
    raw = client.get("/api/v1/repos/lena/media/raw/big.bin", headers=owner)
    assert raw.status_code == 200 and raw.data == CONTENT
    assert raw.headers["ETag"] == f'"{OID}"' and raw.headers["X-Content-Type-Options"] == "nosniff"
    ranged = client.get("/api/v1/repos/lena/media/raw/big.bin", headers={**owner, "Range": "bytes=0-9"})
    assert ranged.status_code == 206 and ranged.data == CONTENT[:10]
    not_held = client.get("/api/v1/repos/lena/media/raw/unknown.bin", headers=owner)
    assert not_held.status_code == 200 and not_held.data == unknown.encode()

"""Avatars family: decoding and re-encoding pictures, upload and delete routes, serving, and cleanup."""

from __future__ import annotations

import base64
import io

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from reference_server.avatars import images
from reference_server.avatars.errors import NotAnImage
from reference_server.errors import BadRequest, PayloadTooLarge

API = "/api/v1"
PASSWORD = "correct-horse-battery"


def picture(width: int, height: int, fmt: str = "PNG") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (10, 200, 30)).save(out, format=fmt)
    return out.getvalue()


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _user(client: FlaskClient, admin: dict[str, str], name: str) -> dict[str, str]:
    body = {"username": name, "email": f"{name}@example.com", "password": PASSWORD, "must_change_password": False}
    assert client.post(f"{API}/admin/users", headers=admin, json=body).status_code == 201
    return {"Authorization": "Basic " + base64.b64encode(f"{name}:{PASSWORD}".encode()).decode()}


@pytest.mark.parametrize(
    ("fmt", "size", "stored"), [("PNG", (600, 400), 256), ("JPEG", (90, 120), 90), ("GIF", (40, 40), 40)]
)
def test_pictures_are_cropped_square_shrunk_and_stored_as_png(fmt: str, size: tuple[int, int], stored: int) -> None:
    result = Image.open(io.BytesIO(images.prepare_avatar(picture(*size, fmt=fmt))))
    assert (result.format, result.size) == ("PNG", (stored, stored))


def test_what_is_no_accepted_picture_is_refused() -> None:
    with pytest.raises(NotAnImage, match="not a valid image"):
        images.prepare_avatar(b"hello, world")
    with pytest.raises(NotAnImage, match="unsupported"):
        images.prepare_avatar(picture(8, 8, fmt="BMP"))
    with pytest.raises(NotAnImage, match="larger than"):
        images.prepare_avatar(picture(4097, 1))
    with pytest.raises(PayloadTooLarge):
        images.prepare_avatar(b"\x89PNG" + b"0" * images.MAX_AVATAR_BYTES)


def test_base64_is_checked_strictly() -> None:
    assert images.decode_base64("aGVs\nbG8=") == b"hello"
    with pytest.raises(BadRequest):
        images.decode_base64("not base64!")


def test_default_avatars_are_drawn_from_the_seed() -> None:
    first = images.default_avatar("abc")
    assert first == images.default_avatar("abc") and first != images.default_avatar("abd")
    assert Image.open(io.BytesIO(first)).size == (images.AVATAR_SIZE, images.AVATAR_SIZE)


def test_user_upload_serve_and_delete(app: Flask, client: FlaskClient, admin_headers: dict[str, str]) -> None:
    ann = _user(client, admin_headers, "ann")
    default = (client.get(f"{API}/user", headers=ann).json or {})["avatar_url"]
    assert client.get(default.removeprefix("http://forge.test")).status_code == 200  # the drawn default
    assert client.post(f"{API}/user/avatar", headers=ann, json={"image": b64(picture(300, 300))}).status_code == 204
    uploaded = (client.get(f"{API}/user", headers=ann).json or {})["avatar_url"]
    assert uploaded != default and uploaded.startswith("http://forge.test/avatars/")
    served = client.get(uploaded.removeprefix("http://forge.test"))
    assert served.status_code == 200 and served.content_type == "image/png"
    assert (client.get(f"{API}/users/ann").json or {})["avatar_url"] == uploaded
    assert client.post(f"{API}/user/avatar", headers=ann, json={"image": b64(picture(20, 20))}).status_code == 204
    replaced = (client.get(f"{API}/user", headers=ann).json or {})["avatar_url"]
    assert replaced != uploaded and client.get(uploaded.removeprefix("http://forge.test")).status_code == 404
    assert client.delete(f"{API}/user/avatar", headers=ann).status_code == 204
    assert (client.get(f"{API}/user", headers=ann).json or {})["avatar_url"] == default
    assert client.get(replaced.removeprefix("http://forge.test")).status_code == 404
    blobs = app.extensions["forge"].config.data_dir / "blobs" / "avatars"
    assert not [path for path in blobs.rglob("*") if path.is_file()]


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"image": "%%% not base64"}, 400, "illegal base64"),
        ({}, 422, "[Image]: Required"),
        ({"image": b64(b"plain text")}, 422, "not a valid image"),
        ({"image": 42}, 422, "must be a string"),
    ],
)
def test_bad_uploads_leave_the_avatar_as_it_was(
    client: FlaskClient, admin_headers: dict[str, str], body: dict[str, object], status: int, message: str
) -> None:
    ann = _user(client, admin_headers, "ann")
    assert client.post(f"{API}/user/avatar", headers=ann, json={"image": b64(picture(30, 30))}).status_code == 204
    before = (client.get(f"{API}/user", headers=ann).json or {})["avatar_url"]
    refused = client.post(f"{API}/user/avatar", headers=ann, json=body)
    assert refused.status_code == status and message in (refused.json or {})["message"]
    assert (client.get(f"{API}/user", headers=ann).json or {})["avatar_url"] == before


def test_repository_avatars_need_an_admin_and_go_with_the_repository(
    app: Flask, client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    ann = _user(client, admin_headers, "ann")
    bob = _user(client, admin_headers, "bob")
    assert client.post(f"{API}/user/repos", headers=ann, json={"name": "demo"}).status_code == 201
    assert (client.get(f"{API}/repos/ann/demo", headers=ann).json or {})["avatar_url"] == ""
    image = {"image": b64(picture(64, 64))}
    assert client.post(f"{API}/repos/ann/demo/avatar", headers=bob, json=image).status_code == 403
    assert client.post(f"{API}/repos/ann/demo/avatar", json=image).status_code == 401
    assert client.post(f"{API}/repos/ann/demo/avatar", headers=ann, json=image).status_code == 204
    url = (client.get(f"{API}/repos/ann/demo", headers=ann).json or {})["avatar_url"]
    assert url.startswith("http://forge.test/repo-avatars/")
    assert client.get(url.removeprefix("http://forge.test")).status_code == 200
    assert client.get("/repo-avatars/1-" + "0" * 64).status_code == 404
    assert client.delete(f"{API}/repos/ann/demo", headers=ann).status_code == 204
    assert client.get(url.removeprefix("http://forge.test")).status_code == 404
    with app.app_context():
        assert app.extensions["forge"].db.scalar("SELECT COUNT(*) FROM avatar") == 0


def test_organization_avatars_need_an_owner(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    ann = _user(client, admin_headers, "ann")
    bob = _user(client, admin_headers, "bob")
    assert client.post(f"{API}/orgs", headers=ann, json={"username": "acme"}).status_code == 201
    image = {"image": b64(picture(64, 64))}
    assert client.post(f"{API}/orgs/acme/avatar", headers=bob, json=image).status_code == 403
    assert client.post(f"{API}/orgs/nope/avatar", headers=ann, json=image).status_code == 404
    assert client.post(f"{API}/orgs/acme/avatar", headers=ann, json=image).status_code == 204
    url = (client.get(f"{API}/orgs/acme").json or {})["avatar_url"]
    assert client.get(url.removeprefix("http://forge.test")).status_code == 200
    assert client.delete(f"{API}/orgs/acme/avatar", headers=ann).status_code == 204
    assert (client.get(f"{API}/orgs/acme").json or {})["avatar_url"] != url


def test_unknown_picture_paths_are_404(client: FlaskClient) -> None:
    assert client.get("/avatars/" + "f" * 64).status_code == 404
    assert client.get("/avatars/not-a-hash").status_code == 404
    assert client.get("/repo-avatars/nonsense").status_code == 404

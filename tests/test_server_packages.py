"""The package registry: generic uploads and downloads, blobs shared by SHA-256, Gitea's package API."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from test_server_orgs_support import API, assert_error, basic, make_org, make_user

from reference_server.cli import build_parser

GENERIC = "/api/packages/{owner}/generic"


def _generic(owner: str, name: str = "tool", version: str = "1.0.0", filename: str = "") -> str:
    path = f"{GENERIC.format(owner=owner)}/{name}/{version}"
    return f"{path}/{filename}" if filename else path


def _blob_files(app: Flask) -> list[Path]:
    root: Path = app.extensions["forge"].config.data_dir / "blobs" / "packages"
    return [item for item in root.rglob("*") if item.is_file()] if root.exists() else []


def test_upload_download_and_the_files_hashes(app: Flask, client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "olga")
    body = b"\x00binary\xffpayload" * 100
    upload = client.put(_generic("olga", filename="tool.bin"), headers=basic("olga"), data=body)
    assert upload.status_code == 201 and upload.data == b""
    download = client.get(_generic("olga", filename="tool.bin"))
    assert download.status_code == 200 and download.data == body
    assert download.headers["Content-Type"] == "application/octet-stream"
    assert download.headers["Content-Disposition"].startswith('attachment; filename="tool.bin"')
    files = client.get(f"{API}/packages/olga/generic/tool/1.0.0/files", headers=basic("olga")).get_json()
    assert files[0]["size"] == len(body) and files[0]["name"] == "tool.bin"
    assert files[0]["sha256"] == hashlib.sha256(body).hexdigest()
    assert files[0]["sha512"] == hashlib.sha512(body).hexdigest()
    assert files[0]["md5"] == hashlib.md5(body, usedforsecurity=False).hexdigest()
    assert files[0]["sha1"] == hashlib.sha1(body, usedforsecurity=False).hexdigest()
    package = client.get(f"{API}/packages/olga/generic/tool/1.0.0", headers=basic("olga")).get_json()
    assert package["owner"]["login"] == "olga" and package["creator"]["login"] == "olga"
    assert package["repository"] is None and package["type"] == "generic" and package["version"] == "1.0.0"
    assert package["html_url"] == "http://forge.test/olga/-/packages/generic/tool/1.0.0"


def test_duplicates_names_and_limits(app: Flask, client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "olga")
    path = _generic("olga", filename="a.txt")
    assert client.put(path, headers=basic("olga"), data=b"one").status_code == 201
    again = client.put(_generic("olga", filename="A.TXT"), headers=basic("olga"), data=b"two")
    assert again.status_code == 409 and again.get_data(as_text=True) == "package file already exists"
    assert client.get(path).data == b"one"
    for name, version, filename, message in (
        ("bad/name", "1", "f", None),
        ("..", "1", "f", "invalid package name"),
        ("-", "1", "f", "invalid package name"),
        ("tool", "1", " padded", "invalid filename"),
        ("tool", " 1", "f", "invalid package version"),
    ):
        answer = client.put(_generic("olga", name, version, filename), headers=basic("olga"), data=b"x")
        if message is None:
            assert answer.status_code == 404
        else:
            assert answer.status_code == 400 and answer.get_data(as_text=True) == message
    config = app.extensions["forge"].config
    config.limits = replace(config.limits, package_generic_max_bytes=4)
    too_big = client.put(_generic("olga", filename="big.bin"), headers=basic("olga"), data=b"12345")
    assert too_big.status_code == 403 and too_big.get_data(as_text=True) == "maximum allowed package type size exceeded"
    assert client.get(_generic("olga", filename="big.bin")).status_code == 404
    assert len(_blob_files(app)) == 1


def test_blobs_are_shared_and_removed_with_their_last_file(
    app: Flask, client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    make_user(client, admin_headers, "olga")
    for version in ("1.0.0", "2.0.0"):
        answer = client.put(_generic("olga", version=version, filename="same.bin"), headers=basic("olga"), data=b"same")
        assert answer.status_code == 201
    assert len(_blob_files(app)) == 1
    deleted = client.delete(_generic("olga", version="1.0.0", filename="same.bin"), headers=basic("olga"))
    assert deleted.status_code == 204
    assert client.get(f"{API}/packages/olga/generic/tool/1.0.0", headers=basic("olga")).status_code == 404
    assert (
        len(_blob_files(app)) == 1
        and client.get(_generic("olga", version="2.0.0", filename="same.bin")).data == b"same"
    )
    assert client.delete(_generic("olga", version="2.0.0"), headers=basic("olga")).status_code == 204
    assert _blob_files(app) == []
    assert client.delete(_generic("olga", version="2.0.0"), headers=basic("olga")).status_code == 404


def test_the_surface_refuses_with_401_and_a_challenge(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    for name in ("olga", "pete"):
        make_user(client, admin_headers, name)
    anonymous = client.put(_generic("olga", filename="f"), data=b"x")
    assert anonymous.status_code == 401 and anonymous.headers["WWW-Authenticate"] == 'Basic realm="Gitea Package API"'
    assert client.put(_generic("olga", filename="f"), headers=basic("pete"), data=b"x").status_code == 401
    made = client.post(
        f"{API}/users/olga/tokens", headers=basic("olga"), json={"name": "read", "scopes": ["read:package"]}
    )
    reader = {"Authorization": f"token {made.get_json()['sha1']}"}
    assert client.put(_generic("olga", filename="f"), headers=reader, data=b"x").status_code == 401
    assert client.put(_generic("olga", filename="f"), headers=basic("olga"), data=b"x").status_code == 201
    assert client.get(_generic("olga", filename="f"), headers=reader).status_code == 200
    assert client.get(_generic("nobody", filename="f")).status_code == 404
    assert client.get("/api/packages/olga/npm/tool").status_code == 404


def test_org_members_write_by_their_team(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    for name in ("olga", "pete", "rosa"):
        make_user(client, admin_headers, name)
    make_org(client, "olga", "acme")
    team = client.post(
        f"{API}/orgs/acme/teams",
        headers=basic("olga"),
        json={"name": "pkg", "permission": "read", "units_map": {"repo.code": "read", "repo.packages": "write"}},
    ).get_json()
    assert client.put(f"{API}/teams/{team['id']}/members/pete", headers=basic("olga")).status_code == 204
    assert client.put(_generic("acme", filename="f"), headers=basic("pete"), data=b"x").status_code == 201
    assert client.put(_generic("acme", filename="g"), headers=basic("rosa"), data=b"x").status_code == 401
    assert_error(client.delete(f"{API}/packages/acme/generic/tool", headers=basic("rosa")), 403, "specific permission")
    listed = client.get(f"{API}/packages/acme", headers=basic("rosa")).get_json()
    assert [item["creator"]["login"] for item in listed] == ["pete"]


def test_listing_paging_latest_link_and_delete(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "olga")
    for name, version in (("tool", "1.0.0"), ("tool", "1.1.0"), ("other", "0.1")):
        answer = client.put(_generic("olga", name, version, "f.bin"), headers=basic("olga"), data=version.encode())
        assert answer.status_code == 201
    page = client.get(f"{API}/packages/olga?limit=2", headers=basic("olga"))
    assert page.headers["X-Total-Count"] == "3" and 'rel="next"' in page.headers["Link"]
    assert [item["name"] for item in page.get_json()] == ["other", "tool"]
    found = client.get(f"{API}/packages/olga?q=TOO&type=generic", headers=basic("olga")).get_json()
    assert [item["version"] for item in found] == ["1.1.0", "1.0.0"]
    assert client.get(f"{API}/packages/olga?type=npm", headers=basic("olga")).get_json() == []
    latest = client.get(f"{API}/packages/olga/generic/tool/-/latest", headers=basic("olga")).get_json()
    assert latest["version"] == "1.1.0"
    assert client.post(f"{API}/user/repos", headers=basic("olga"), json={"name": "app"}).status_code == 201
    link = f"{API}/packages/olga/generic/tool/-/link/app"
    assert client.post(link, headers=basic("olga")).status_code == 201
    assert_error(client.post(link, headers=basic("olga")), 400)
    linked = client.get(f"{API}/packages/olga/generic/tool/1.0.0", headers=basic("olga")).get_json()
    assert linked["repository"]["full_name"] == "olga/app"
    assert client.post(f"{API}/packages/olga/generic/tool/-/unlink", headers=basic("olga")).status_code == 204
    assert_error(client.post(f"{API}/packages/olga/generic/tool/-/unlink", headers=basic("olga")), 400)
    assert_error(client.post(f"{API}/packages/olga/generic/tool/-/link/none", headers=basic("olga")), 404)
    assert client.delete(f"{API}/packages/olga/generic/tool", headers=basic("olga")).status_code == 204
    assert_error(client.get(f"{API}/packages/olga/generic/tool", headers=basic("olga")), 404)
    assert client.get(f"{API}/packages/olga", headers=basic("olga")).headers["X-Total-Count"] == "1"
    assert client.delete(f"{API}/packages/olga/generic/other/0.1", headers=basic("olga")).status_code == 204
    assert_error(client.get(f"{API}/packages/olga"), 401)


def test_a_deleted_account_takes_its_packages_and_their_bytes(
    app: Flask, client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    for name in ("olga", "pete"):
        make_user(client, admin_headers, name)
    assert client.put(_generic("olga", filename="f"), headers=basic("olga"), data=b"shared").status_code == 201
    assert client.put(_generic("pete", filename="f"), headers=basic("pete"), data=b"shared").status_code == 201
    assert client.put(_generic("olga", filename="g"), headers=basic("olga"), data=b"own").status_code == 201
    assert len(_blob_files(app)) == 2
    assert client.delete(f"{API}/admin/users/olga?purge=true", headers=admin_headers).status_code == 204
    assert len(_blob_files(app)) == 1 and client.get(_generic("pete", filename="f")).data == b"shared"


def test_a_deleted_repository_unlinks_its_packages(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "olga")
    assert client.put(_generic("olga", filename="f"), headers=basic("olga"), data=b"x").status_code == 201
    assert client.post(f"{API}/user/repos", headers=basic("olga"), json={"name": "app"}).status_code == 201
    assert client.post(f"{API}/packages/olga/generic/tool/-/link/app", headers=basic("olga")).status_code == 201
    assert client.delete(f"{API}/repos/olga/app", headers=basic("olga")).status_code == 204
    package = client.get(f"{API}/packages/olga/generic/tool/1.0.0", headers=basic("olga")).get_json()
    assert package["repository"] is None
    assert client.post(f"{API}/packages/olga/generic/tool/-/unlink", headers=basic("olga")).status_code == 400


def test_the_command_sets_the_generic_size_limit() -> None:
    assert build_parser().parse_args([]).package_generic_max_bytes == -1
    assert build_parser().parse_args(["--package-generic-max-bytes", "10"]).package_generic_max_bytes == 10

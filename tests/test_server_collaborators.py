"""Repository collaborators: management by repository admins, the access they give, the permission route."""

from __future__ import annotations

from flask.testing import FlaskClient
from test_server_orgs_support import API, assert_error, basic, make_org, make_user

BASE = f"{API}/repos/olga/vault/collaborators"


def setup(client: FlaskClient, admin: dict[str, str]) -> None:
    for name in ("olga", "pete", "rosa"):
        make_user(client, admin, name)
    body = {"name": "vault", "private": True, "auto_init": True}
    assert client.post(f"{API}/user/repos", headers=basic("olga"), json=body).status_code == 201


def write_file(client: FlaskClient, who: str) -> int:
    body = {"content": "aGVsbG8K", "message": "add"}
    return client.post(f"{API}/repos/olga/vault/contents/{who}.txt", headers=basic(who), json=body).status_code


def test_read_and_write_collaborators(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    assert_error(client.get(f"{API}/repos/olga/vault", headers=basic("pete")), 404)
    assert client.put(f"{BASE}/pete", headers=basic("olga"), json={"permission": "read"}).status_code == 204
    assert client.get(f"{API}/repos/olga/vault/contents/README.md", headers=basic("pete")).status_code == 200
    assert write_file(client, "pete") == 403
    assert client.put(f"{BASE}/pete", headers=basic("olga"), json={"permission": "write"}).status_code == 204
    assert write_file(client, "pete") == 201
    assert client.get(f"{BASE}/pete", headers=basic("olga")).status_code == 204
    listed = client.get(BASE, headers=basic("pete"))
    assert [user["login"] for user in listed.get_json()] == ["pete"] and listed.headers["X-Total-Count"] == "1"
    # only repository admins manage collaborators
    assert_error(client.put(f"{BASE}/rosa", headers=basic("pete"), json={}), 403, "admin")
    assert client.put(f"{BASE}/rosa", headers=basic("olga"), json={}).status_code == 204
    permission = client.get(f"{BASE}/rosa/permission", headers=basic("rosa")).get_json()
    assert (permission["permission"], permission["role_name"], permission["user"]["login"]) == (
        "write",
        "write",
        "rosa",
    )
    assert client.delete(f"{BASE}/rosa", headers=basic("olga")).status_code == 204
    assert_error(client.get(f"{BASE}/rosa", headers=basic("olga")), 404)
    assert_error(client.get(f"{API}/repos/olga/vault", headers=basic("rosa")), 404)


def test_admin_collaborator_and_permissions(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    client.put(f"{BASE}/pete", headers=basic("olga"), json={"permission": "admin"})
    assert client.put(f"{BASE}/rosa", headers=basic("pete"), json={"permission": "read"}).status_code == 204
    assert client.get(f"{API}/repos/olga/vault", headers=basic("pete")).get_json()["permissions"]["admin"] is True
    owner = client.get(f"{BASE}/olga/permission", headers=basic("pete")).get_json()
    assert owner["permission"] == "owner"
    assert_error(client.get(f"{BASE}/pete/permission", headers=basic("rosa")), 403, "Only admins")
    assert client.get(f"{BASE}/rosa/permission", headers=basic("rosa")).get_json()["permission"] == "read"
    site_admin_view = client.get(f"{BASE}/pete/permission", headers=admin_headers).get_json()
    assert site_admin_view["permission"] == "admin" and site_admin_view["user"]["login"] == "pete"


def test_bad_collaborators(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    make_org(client, "olga", "guild")
    assert_error(client.put(f"{BASE}/nobody", headers=basic("olga"), json={}), 422, "user does not exist")
    assert_error(client.get(f"{BASE}/nobody", headers=basic("olga")), 422, "user does not exist")
    assert_error(client.delete(f"{BASE}/nobody", headers=basic("olga")), 422, "user does not exist")
    assert_error(client.get(f"{BASE}/nobody/permission", headers=basic("olga")), 404)
    assert_error(client.put(f"{BASE}/guild", headers=basic("olga"), json={}), 422, "organization")
    assert_error(client.put(f"{BASE}/pete", headers=basic("olga"), json={"permission": "owner"}), 422, "Permission")
    assert_error(client.get(BASE), 401)
    assert_error(client.get(f"{API}/repos/olga/nothing/collaborators", headers=basic("olga")), 404)
    assert_error(client.get(BASE, headers=basic("pete")), 404)
    assert client.get(BASE, headers=basic("olga")).get_json() == []

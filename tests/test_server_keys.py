"""Users' SSH keys, GPG keys and e-mail addresses: Gitea's answers, refusals and who may do what."""

from __future__ import annotations

import base64
import hashlib
import struct

from flask.testing import FlaskClient
from test_server_orgs_support import API, assert_error, basic, make_user

from conformance.gpgkeys import make_key


def _ed25519(seed: bytes) -> tuple[str, str]:
    """An SSH Ed25519 key line and its fingerprint."""
    blob = b"".join(struct.pack(">I", len(part)) + part for part in (b"ssh-ed25519", hashlib.sha256(seed).digest()))
    fingerprint = "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")
    return f"ssh-ed25519 {base64.b64encode(blob).decode()} someone@host", fingerprint


def setup(client: FlaskClient, admin: dict[str, str]) -> None:
    for name in ("olga", "pete"):
        make_user(client, admin, name)
    body = {"name": "vault", "private": True}
    assert client.post(f"{API}/user/repos", headers=basic("pete"), json=body).status_code == 201


def test_ssh_keys(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    line, fingerprint = _ed25519(b"one")
    created = client.post(f"{API}/user/keys", headers=basic("olga"), json={"title": "laptop", "key": line})
    assert created.status_code == 201, created.get_data(as_text=True)
    key = created.get_json()
    assert key["fingerprint"] == fingerprint and key["key"] == line.rsplit(" ", 1)[0]
    assert key["key_type"] == "user" and key["read_only"] is False and key["user"]["login"] == "olga"
    assert key["url"] == f"http://forge.test/api/v1/user/keys/{key['id']}"
    # the same key again, for anyone, or as a deploy key: refused; the same title for the owner too
    assert_error(
        client.post(f"{API}/user/keys", headers=basic("pete"), json={"title": "x", "key": line}),
        422,
        "Key content has been used as non-deploy key",
    )
    deploy = {"title": "ci", "key": line, "read_only": True}
    assert_error(
        client.post(f"{API}/repos/pete/vault/keys", headers=basic("pete"), json=deploy),
        422,
        "Key content has been used as non-deploy key",
    )
    other, _ = _ed25519(b"two")
    assert_error(
        client.post(f"{API}/user/keys", headers=basic("olga"), json={"title": "laptop", "key": other}),
        422,
        "Key title has been used",
    )
    assert_error(
        client.post(f"{API}/user/keys", headers=basic("olga"), json={"title": "t", "key": "ssh-ed25519 !!"}),
        422,
        "Invalid key content",
    )
    # another's view omits the private fields; the fingerprint filter of /user/keys searches everyone
    seen = client.get(f"{API}/users/olga/keys", headers=basic("pete"))
    assert seen.headers["X-Total-Count"] == "1" and "user" not in seen.get_json()[0]
    found = client.get(f"{API}/user/keys?fingerprint={fingerprint}", headers=basic("pete")).get_json()
    assert [item["id"] for item in found] == [key["id"]]
    assert client.get(f"{API}/users/pete/keys?fingerprint={fingerprint}", headers=basic("pete")).get_json() == []
    assert_error(client.delete(f"{API}/user/keys/{key['id']}", headers=basic("pete")), 403, "You do not have access")
    assert_error(client.delete(f"{API}/admin/users/pete/keys/{key['id']}", headers=admin_headers), 403)
    assert client.delete(f"{API}/admin/users/olga/keys/{key['id']}", headers=admin_headers).status_code == 204
    assert_error(client.get(f"{API}/user/keys/{key['id']}", headers=basic("olga")), 404)
    # a deploy key's fingerprint cannot become an account's key
    assert (
        client.post(f"{API}/repos/pete/vault/keys", headers=basic("pete"), json={**deploy, "key": other}).status_code
        == 201
    )
    assert_error(
        client.post(f"{API}/admin/users/olga/keys", headers=admin_headers, json={"title": "t", "key": other}),
        422,
        "Key content has been used as non-deploy key",
    )


def test_emails(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    added = client.post(f"{API}/user/emails", headers=basic("olga"), json={"emails": ["Work@Example.test"]})
    assert added.status_code == 201
    assert [(e["email"], e["primary"], e["verified"]) for e in added.get_json()] == [
        ("olga@example.test", True, True),
        ("Work@Example.test", False, True),
    ]
    assert_error(
        client.post(f"{API}/user/emails", headers=basic("pete"), json={"emails": ["work@example.TEST"]}),
        422,
        "Email address has been used: work@example.TEST",
    )
    assert_error(
        client.post(f"{API}/user/emails", headers=basic("pete"), json={"emails": ["p2@x.test", "nope"]}),
        422,
        'Email address "nope" invalid',
    )
    assert len(client.get(f"{API}/user/emails", headers=basic("pete")).get_json()) == 1
    assert_error(client.post(f"{API}/user/emails", headers=basic("pete"), json={"emails": []}), 422, "Email list empty")
    assert_error(
        client.delete(f"{API}/user/emails", headers=basic("olga"), json={"emails": ["olga@example.test"]}),
        422,
        "Primary email address cannot be deleted",
    )
    assert_error(
        client.delete(f"{API}/user/emails", headers=basic("olga"), json={"emails": ["work@example.test", "x@y.test"]}),
        404,
        "Email address does not exist",
    )
    assert len(client.get(f"{API}/user/emails", headers=basic("olga")).get_json()) == 2
    assert (
        client.delete(f"{API}/user/emails", headers=basic("olga"), json={"emails": ["work@example.test"]}).status_code
        == 204
    )
    assert len(client.get(f"{API}/user/emails", headers=basic("olga")).get_json()) == 1


def test_gpg_keys(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    pair = make_key("Olga", ["olga@example.test", "elsewhere@example.test"])
    created = client.post(
        f"{API}/user/gpg_keys", headers=basic("olga"), json={"armored_public_key": pair.armored_public}
    )
    assert created.status_code == 201, created.get_data(as_text=True)
    key = created.get_json()
    assert key["key_id"] == pair.key_id and key["verified"] is False and key["primary_key_id"] == ""
    assert key["emails"] == [{"email": "olga@example.test", "verified": True}]
    assert key["can_sign"] and key["can_certify"] and not key["can_encrypt_comms"]
    assert key["expires_at"] == "0001-01-01T00:00:00Z"
    [sub] = key["subkeys"]
    assert sub["key_id"] == pair.subkey_ids[0] and sub["primary_key_id"] == pair.key_id
    assert sub["can_encrypt_storage"] and not sub["can_sign"] and sub["emails"] is None
    assert_error(
        client.post(f"{API}/user/gpg_keys", headers=basic("pete"), json={"armored_public_key": pair.armored_public}),
        404,
        "None of the emails attached to the GPG key could be found",
    )
    assert_error(
        client.post(f"{API}/user/gpg_keys", headers=basic("olga"), json={"armored_public_key": pair.armored_public}),
        422,
        "A key with the same id already exists",
    )
    assert_error(
        client.post(f"{API}/user/gpg_keys", headers=basic("olga"), json={"armored_public_key": "junk"}),
        422,
        "failed to parse gpg key",
    )
    # verification: a signature of the token by the key, not by another
    token = client.get(f"{API}/user/gpg_key_token", headers=basic("olga")).get_data(as_text=True)
    assert len(token) == 64
    stranger = make_key("Stranger", ["stranger@example.test"])
    wrong = {"key_id": pair.key_id, "armored_signature": stranger.sign(token)}
    assert_error(client.post(f"{API}/user/gpg_key_verify", headers=basic("olga"), json=wrong), 422, token)
    right = {"key_id": pair.key_id, "armored_signature": pair.sign(token)}
    assert_error(client.post(f"{API}/user/gpg_key_verify", headers=basic("pete"), json=right), 404)
    verified = client.post(f"{API}/user/gpg_key_verify", headers=basic("olga"), json=right)
    assert verified.status_code == 200 and verified.get_json()["verified"] is True
    # a signed import needs no matching address and is verified at once
    pete_token = client.get(f"{API}/user/gpg_key_token", headers=basic("pete")).get_data(as_text=True)
    body = {"armored_public_key": stranger.armored_public, "armored_signature": stranger.sign(pete_token)}
    signed = client.post(f"{API}/user/gpg_keys", headers=basic("pete"), json=body)
    assert signed.status_code == 201 and signed.get_json()["verified"] is True and signed.get_json()["emails"] == []
    listed = client.get(f"{API}/users/olga/gpg_keys", headers=basic("pete"))
    assert listed.headers["X-Total-Count"] == "1" and listed.get_json()[0]["id"] == key["id"]
    assert_error(client.get(f"{API}/user/gpg_keys/{key['id']}", headers=basic("pete")), 404)
    assert_error(client.delete(f"{API}/user/gpg_keys/{key['id']}", headers=basic("pete")), 403)
    assert client.delete(f"{API}/user/gpg_keys/{key['id']}", headers=basic("olga")).status_code == 204
    assert client.delete(f"{API}/user/gpg_keys/{key['id']}", headers=basic("olga")).status_code == 204
    assert client.get(f"{API}/user/gpg_keys", headers=basic("olga")).get_json() == []


def test_admin_lists_added_addresses_and_filters_users(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    assert (
        client.post(f"{API}/user/emails", headers=basic("olga"), json={"emails": ["second@x.test"]}).status_code == 201
    )
    found = client.get(f"{API}/admin/emails/search?q=olga", headers=admin_headers).get_json()
    assert [(e["email"], e["primary"]) for e in found] == [("olga@example.test", True), ("second@x.test", False)]
    edit = {"login_name": "olga", "source_id": 0, "active": False}
    assert client.patch(f"{API}/admin/users/olga", headers=admin_headers, json=edit).status_code == 200
    inactive = client.get(f"{API}/admin/users?is_active=false", headers=admin_headers).get_json()
    assert [user["login"] for user in inactive] == ["olga"]
    by_login = client.get(f"{API}/admin/users?login_name=pete", headers=admin_headers).get_json()
    assert [user["login"] for user in by_login] == ["pete"]
    assert client.get(f"{API}/admin/users?is_2fa_enabled=true", headers=admin_headers).get_json() == []
    admins = client.get(f"{API}/admin/users?is_admin=true&q=o", headers=admin_headers).get_json()
    assert all(user["is_admin"] for user in admins) and "olga" not in [user["login"] for user in admins]


def test_deleted_account_takes_its_keys_and_addresses(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    line, _ = _ed25519(b"gone")
    pair = make_key("Olga", ["olga@example.test"])
    assert client.post(f"{API}/user/keys", headers=basic("olga"), json={"title": "t", "key": line}).status_code == 201
    body = {"armored_public_key": pair.armored_public}
    assert client.post(f"{API}/user/gpg_keys", headers=basic("olga"), json=body).status_code == 201
    assert client.post(f"{API}/user/emails", headers=basic("olga"), json={"emails": ["o2@x.test"]}).status_code == 201
    assert client.delete(f"{API}/admin/users/olga", headers=admin_headers).status_code == 204
    # the key, the GPG key id and the address are free again
    assert client.post(f"{API}/user/keys", headers=basic("pete"), json={"title": "t", "key": line}).status_code == 201
    assert client.post(f"{API}/user/emails", headers=basic("pete"), json={"emails": ["o2@x.test"]}).status_code == 201
    signed = {
        **body,
        "armored_signature": pair.sign(
            client.get(f"{API}/user/gpg_key_token", headers=basic("pete")).get_data(as_text=True)
        ),
    }
    assert client.post(f"{API}/user/gpg_keys", headers=basic("pete"), json=signed).status_code == 201

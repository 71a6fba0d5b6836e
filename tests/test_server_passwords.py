"""Password hashing cost, the verified-password cache, and the admin listings the janitor reads."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from reference_server.app import create_app
from reference_server.config import Config
from reference_server.passwords import (
    FAST_COST,
    STANDARD_COST,
    VerifiedPasswordCache,
    hash_password,
    verify_password,
)

PASSWORD = "correct-horse-battery"


def _basic(user: str, password: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


def test_the_default_cost_is_the_standard_one() -> None:
    assert Config(data_dir=Path("unused")).password_cost == STANDARD_COST
    assert STANDARD_COST.n == 2**14
    assert hash_password(PASSWORD).startswith("scrypt$16384$8$1$")


def test_a_hash_carries_its_cost_so_either_cost_verifies_the_other() -> None:
    fast = hash_password(PASSWORD, FAST_COST)
    assert fast.startswith(f"scrypt${FAST_COST.n}$")
    assert verify_password(PASSWORD, fast)
    assert not verify_password(PASSWORD + "x", fast)
    assert verify_password(PASSWORD, hash_password(PASSWORD, STANDARD_COST))


@pytest.mark.parametrize("stored", ["", "plain", "scrypt$x$8$1$00$00", "scrypt$16$8$1$zz$00", "bcrypt$1$2$3$4$5"])
def test_a_malformed_stored_hash_never_verifies(stored: str) -> None:
    assert not verify_password(PASSWORD, stored)


def test_the_cache_answers_a_verified_pair_until_it_expires() -> None:
    now = [100.0]
    cache = VerifiedPasswordCache(ttl_seconds=60, clock=lambda: now[0])
    stored = hash_password(PASSWORD, FAST_COST)
    assert cache.verify(PASSWORD, stored)
    assert len(cache._entries) == 1
    now[0] += 59
    assert cache.verify(PASSWORD, stored)
    now[0] += 2
    assert cache.verify(PASSWORD, stored)  # expired: verified again with scrypt, then cached afresh
    assert list(cache._entries.values()) == [now[0] + 60]


def test_the_cache_keeps_no_failure_and_no_password() -> None:
    cache = VerifiedPasswordCache()
    stored = hash_password(PASSWORD, FAST_COST)
    assert not cache.verify("wrong-password", stored)
    assert not cache._entries
    assert cache.verify(PASSWORD, stored)
    (fingerprint,) = cache._entries
    assert PASSWORD.encode() not in fingerprint
    assert not cache.verify(PASSWORD, hash_password("another-password", FAST_COST))


def test_the_cache_holds_at_most_its_size() -> None:
    cache = VerifiedPasswordCache(size=2)
    for password in ("one-password", "two-password", "three-password"):
        assert cache.verify(password, hash_password(password, FAST_COST))
    assert len(cache._entries) == 2


def test_a_server_with_the_fast_cost_stores_fast_hashes_and_checks_basic_auth(tmp_path: Path) -> None:
    token = "ab" * 20
    app = create_app(
        Config(data_dir=tmp_path / "d", base_url="http://forge.test/", admin_token=token, password_cost=FAST_COST)
    )
    client = app.test_client()
    admin = {"Authorization": f"token {token}"}
    body = {"username": "carol", "email": "carol@example.com", "password": PASSWORD, "must_change_password": False}
    assert client.post("/api/v1/admin/users", headers=admin, json=body).status_code == 201
    stored = app.extensions["forge"].db.scalar("SELECT password_hash FROM accounts WHERE lower_name = 'carol'")
    assert str(stored).startswith(f"scrypt${FAST_COST.n}$")
    assert client.get("/api/v1/user", headers=_basic("carol", PASSWORD)).status_code == 200
    assert client.get("/api/v1/user", headers=_basic("carol", PASSWORD)).status_code == 200
    assert client.get("/api/v1/user", headers=_basic("carol", "wrong-password")).status_code == 401
    app.extensions["forge"].db.close()


def _list(response: TestResponse) -> list[dict[str, Any]]:
    body = response.json
    assert isinstance(body, list), body
    return body


def _make(client: FlaskClient, admin: dict[str, str], name: str) -> None:
    body = {"username": name, "email": f"{name}@example.com", "password": PASSWORD}
    assert client.post("/api/v1/admin/users", headers=admin, json=body).status_code == 201


def test_admin_users_lists_and_searches_oldest_first_with_a_total(
    client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    for name in ("ckaaaaaa-1-alice", "ckaaaaaa-2-bob", "other_user"):
        _make(client, admin_headers, name)
    response = client.get("/api/v1/admin/users?q=CKAAAAAA-&limit=1", headers=admin_headers)
    assert response.status_code == 200
    assert response.headers["X-Total-Count"] == "2"
    assert [user["login"] for user in _list(response)] == ["ckaaaaaa-1-alice"]
    assert _list(response)[0]["created"]
    second = client.get("/api/v1/admin/users?q=ckaaaaaa-&limit=1&page=2", headers=admin_headers)
    assert [user["login"] for user in _list(second)] == ["ckaaaaaa-2-bob"]
    everyone = client.get("/api/v1/admin/users", headers=admin_headers)
    assert {"ckaaaaaa-1-alice", "ckaaaaaa-2-bob", "other_user"} <= {user["login"] for user in _list(everyone)}
    assert _list(client.get("/api/v1/admin/users?q=%25", headers=admin_headers)) == []


def test_admin_listings_are_for_site_admins_only(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    _make(client, admin_headers, "plain")
    for path in ("/api/v1/admin/users", "/api/v1/admin/orgs"):
        assert client.get(path).status_code == 401
        assert client.get(path, headers=_basic("plain", PASSWORD)).status_code == 403


def test_admin_orgs_lists_every_organization(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    _make(client, admin_headers, "owner")
    for name in ("ckbbbbbb-1-acme", "zeta"):
        created = client.post("/api/v1/orgs", headers=_basic("owner", PASSWORD), json={"username": name})
        assert created.status_code == 201, created.json
    response = client.get("/api/v1/admin/orgs", headers=admin_headers)
    assert response.status_code == 200
    assert response.headers["X-Total-Count"] == "2"
    assert [org["username"] for org in _list(response)] == ["ckbbbbbb-1-acme", "zeta"]

"""Branch and tag protection rules over REST: shapes, priority order, the priority route and errors."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from test_server_repos import assert_error, create_repo, make_user

BRANCHES = "/api/v1/repos/pat/code/branch_protections"
TAGS = "/api/v1/repos/pat/code/tag_protections"


def _json(response: Any) -> Any:
    """The JSON body of a test-client response (asserted present)."""
    assert response.json is not None, response.data
    return response.json


def _setup(client: FlaskClient, admin: dict[str, str]) -> dict[str, str]:
    pat = make_user(client, admin, "pat")
    create_repo(client, pat, name="code", auto_init=True)
    return pat


def _create(client: FlaskClient, headers: dict[str, str], **body: Any) -> dict[str, Any]:
    response = client.post(BRANCHES, headers=headers, json=body)
    assert response.status_code == 201, response.json
    created = response.json
    assert isinstance(created, dict)
    return created


def test_created_rule_returns_every_field_and_its_id(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    pat = _setup(client, admin_headers)
    rule = _create(
        client,
        pat,
        rule_name="main",
        enable_push=True,
        enable_push_whitelist=True,
        push_whitelist_usernames=["pat"],
        required_approvals=2,
        status_check_contexts=["ci/test"],
        protected_file_patterns="*.lock",
    )
    assert rule["id"] > 0 and rule["rule_name"] == "main" and rule["branch_name"] == "main"
    assert rule["priority"] == 1
    assert rule["push_whitelist_usernames"] == ["pat"]
    assert rule["required_approvals"] == 2 and rule["status_check_contexts"] == ["ci/test"]
    assert rule["enable_force_push"] is False and rule["approvals_whitelist_username"] == []
    glob = _create(client, pat, rule_name="release/*")
    assert glob["branch_name"] == "" and glob["priority"] == 2
    fetched = _json(client.get(f"{BRANCHES}/release/*", headers=pat))
    assert fetched is not None and fetched["id"] == glob["id"]


def test_list_order_priority_then_plain_names_then_creation(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    pat = _setup(client, admin_headers)
    _create(client, pat, rule_name="feature/*", priority=5)
    _create(client, pat, rule_name="dev", priority=5)
    _create(client, pat, rule_name="main", priority=1)
    listed = _json(client.get(BRANCHES, headers=pat))
    assert [rule["rule_name"] for rule in listed] == ["main", "dev", "feature/*"]


def test_priority_route_renumbers_in_place(app: Flask, client: FlaskClient, admin_headers: dict[str, str]) -> None:
    pat = _setup(client, admin_headers)
    first, second, third = (_create(client, pat, rule_name=name) for name in ("a", "b", "c"))
    app.extensions["forge"].config.clock.offset_seconds += 100
    response = client.post(f"{BRANCHES}/priority", headers=pat, json={"ids": [third["id"], first["id"], second["id"]]})
    assert response.status_code == 204
    listed = _json(client.get(BRANCHES, headers=pat))
    assert [(rule["rule_name"], rule["priority"]) for rule in listed] == [("c", 1), ("a", 2), ("b", 3)]
    before = {rule["id"]: rule["created_at"] for rule in (first, second, third)}
    assert {rule["id"]: rule["created_at"] for rule in listed} == before


def test_priority_route_refuses_foreign_ids_and_changes_nothing(
    client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    pat = _setup(client, admin_headers)
    create_repo(client, pat, name="other", auto_init=True)
    mine = _create(client, pat, rule_name="main")
    theirs = client.post("/api/v1/repos/pat/other/branch_protections", headers=pat, json={"rule_name": "main"}).json
    assert theirs is not None
    refused = client.post(f"{BRANCHES}/priority", headers=pat, json={"ids": [theirs["id"], mine["id"]]})
    assert_error(refused, 422, str(theirs["id"]))
    assert _json(client.get(f"{BRANCHES}/main", headers=pat))["priority"] == 1
    assert_error(client.post(f"{BRANCHES}/priority", headers=pat, json={"ids": [mine["id"], mine["id"]]}), 422)
    assert_error(client.post(f"{BRANCHES}/priority", headers=pat, json={"ids": "x"}), 422)


def test_branch_rule_errors(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    pat = _setup(client, admin_headers)
    quin = make_user(client, admin_headers, "quin")
    assert_error(client.post(BRANCHES, headers=pat, json={}), 400, "both rule_name and branch_name are empty")
    _create(client, pat, branch_name="main")
    assert_error(client.post(BRANCHES, headers=pat, json={"rule_name": "main"}), 403, "Branch protection already exist")
    unknown = client.post(BRANCHES, headers=pat, json={"rule_name": "dev", "push_whitelist_usernames": ["nobody"]})
    assert_error(unknown, 422, "user does not exist")
    assert client.get(f"{BRANCHES}/dev", headers=pat).status_code == 404
    assert_error(client.post(BRANCHES, headers=pat, json={"rule_name": "x", "enable_push": "yes"}), 422)
    assert_error(client.get(BRANCHES, headers=quin), 403)
    assert_error(client.patch(f"{BRANCHES}/nope", headers=pat, json={}), 404)
    assert_error(client.delete(f"{BRANCHES}/nope", headers=pat), 404)


def test_whitelist_drops_users_without_write_access_and_edit_changes_given_fields(
    client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    pat = _setup(client, admin_headers)
    make_user(client, admin_headers, "quin")
    rule = _create(client, pat, rule_name="main", enable_push=True, enable_push_whitelist=True,
                   push_whitelist_usernames=["quin", "pat"])  # fmt: skip
    assert rule["push_whitelist_usernames"] == ["pat"]
    edited = client.patch(f"{BRANCHES}/main", headers=pat, json={"enable_force_push": True, "priority": 7}).json
    assert edited is not None
    assert edited["enable_force_push"] is True and edited["priority"] == 7
    assert edited["push_whitelist_usernames"] == ["pat"] and edited["enable_push_whitelist"] is True
    off = client.patch(f"{BRANCHES}/main", headers=pat, json={"enable_push": False}).json
    assert off is not None and off["enable_push"] is False and off["enable_push_whitelist"] is False
    assert client.delete(f"{BRANCHES}/main", headers=pat).status_code == 204
    assert _json(client.get(BRANCHES, headers=pat)) == []


def test_tag_protection_crud_and_errors(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    pat = _setup(client, admin_headers)
    created = client.post(TAGS, headers=pat, json={"name_pattern": "v*", "whitelist_usernames": ["pat"]})
    assert created.status_code == 201
    rule = created.json
    assert rule is not None
    assert set(rule) == {"id", "name_pattern", "whitelist_usernames", "whitelist_teams", "created_at", "updated_at"}
    assert rule["whitelist_usernames"] == ["pat"] and rule["whitelist_teams"] == []
    assert_error(client.post(TAGS, headers=pat, json={"whitelist_usernames": ["pat"]}), 400, "name_pattern are empty")
    assert_error(client.post(TAGS, headers=pat, json={"name_pattern": "x"}), 400, "both whitelist_usernames")
    duplicate = client.post(TAGS, headers=pat, json={"name_pattern": "v*", "whitelist_usernames": ["pat"]})
    assert_error(duplicate, 403, "Tag protection already exist")
    unknown = client.post(TAGS, headers=pat, json={"name_pattern": "r*", "whitelist_usernames": ["ghost"]})
    assert_error(unknown, 422, "user does not exist")
    bad_regex = client.post(TAGS, headers=pat, json={"name_pattern": "/([/", "whitelist_usernames": ["pat"]})
    assert_error(bad_regex, 422)
    edited = client.patch(f"{TAGS}/{rule['id']}", headers=pat, json={"name_pattern": "/^v[0-9]+$/"}).json
    assert edited is not None and edited["name_pattern"] == "/^v[0-9]+$/" and edited["whitelist_usernames"] == ["pat"]
    assert len(_json(client.get(TAGS, headers=pat))) == 1
    assert_error(client.get(f"{TAGS}/999999", headers=pat), 404)
    assert_error(client.get(f"{TAGS}/abc", headers=pat), 404)
    assert client.delete(f"{TAGS}/{rule['id']}", headers=pat).status_code == 204
    assert _json(client.get(TAGS, headers=pat)) == []


def test_rules_of_a_deleted_repository_are_dropped(
    app: Flask, client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    pat = _setup(client, admin_headers)
    _create(client, pat, rule_name="main")
    client.post(TAGS, headers=pat, json={"name_pattern": "v*", "whitelist_usernames": ["pat"]})
    assert client.delete("/api/v1/repos/pat/code", headers=pat).status_code == 204
    with app.app_context():
        db = app.extensions["forge"].db
        assert db.scalar("SELECT COUNT(*) FROM protected_branch") == 0
        assert db.scalar("SELECT COUNT(*) FROM protected_tag") == 0

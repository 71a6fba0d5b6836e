"""Regression tests of the outside review's holes (issue 13) that no other module holds: SSRF targets at
creation, unknown hook events, a registration token of a pseudo-user, and a public-only token's lists.
The job-token and token-kind rules are in ``test_security_token_kinds.py``, outgoing connections in
``test_security_outgoing.py``, lone surrogates in ``test_fuzz_regressions.py``."""

from __future__ import annotations

import base64

import pytest
from flask import Flask
from flask.testing import FlaskClient
from forge_proto import runner_pb2
from test_server_actions_support import World, connect_error, world

from reference_server.actions import runner_store
from reference_server.actions.runners import hash_token
from reference_server.actions.secrets import seal
from reference_server.context import forge

__all__ = ["world"]

HOOK = {"type": "gitea", "config": {"content_type": "json"}, "events": ["push"]}


@pytest.mark.parametrize(
    "url",
    ["http://169.254.169.254/latest", "http://10.0.0.1/h", "http://[fd00::1]/h", "http://0.0.0.0/h",
     "http://metadata.google.internal/x", "http://100.64.0.1/h"],
)  # fmt: skip
def test_a_hook_to_a_refused_host_is_not_stored(world: World, url: str) -> None:
    """The unit tests' app allows ``external,loopback``: private, link-local and shared ranges stay refused."""
    world.repo("ann", "app")
    body = {**HOOK, "config": {**HOOK["config"], "url": url}}  # type: ignore[dict-item]
    refused = world.api("POST", "repos/ann/app/hooks", "ann", json=body)
    assert refused.status_code == 422, refused.get_data(as_text=True)
    assert "allowed HTTP servers" in refused.get_json()["message"]
    assert world.api("GET", "repos/ann/app/hooks", "ann").get_json() == []


def test_unknown_hook_events_are_refused(world: World) -> None:
    world.repo("ann", "app")
    body = {**HOOK, "config": {**HOOK["config"], "url": "http://hooks.example.com/h"}, "events": ["push", "pushh"]}  # type: ignore[dict-item]
    refused = world.api("POST", "repos/ann/app/hooks", "ann", json=body)
    assert refused.status_code == 422 and "pushh" in refused.get_json()["message"]


def test_a_migration_from_a_private_network_is_refused(world: World) -> None:
    world.user("ann")
    body = {"clone_addr": "http://192.168.1.1/x.git", "repo_name": "stolen"}
    refused = world.api("POST", "repos/migrate", "ann", json=body)
    assert refused.status_code == 422
    assert refused.get_json()["message"] == "You can not import from disallowed hosts."


def test_a_registration_token_of_a_pseudo_user_registers_no_runner(world: World, app: Flask) -> None:
    """A token stored for the Actions user (as the old hole made them) is refused by Register."""
    with app.app_context(), forge().db.transaction():
        runner_store.insert_registration_token(hash_token("p" * 40), seal("p" * 40), -2, 0, 1)
    request = runner_pb2.RegisterRequest(name="stolen", token="p" * 40, version="v0", labels=["x"])
    status, code, _ = connect_error(world.call("Register", request))
    assert (status, code) == (404, "not_found")


def test_a_public_only_token_sees_no_private_repository_of_its_own(world: World, client: FlaskClient) -> None:
    world.repo("ann", "hidden", private=True)
    world.repo("ann", "shown")
    public_only = world.token("ann", ["public-only", "read:user", "read:repository"])
    listed = client.get("/api/v1/user/repos", headers=public_only)
    assert [repo["name"] for repo in listed.get_json()] == ["shown"]
    assert listed.headers["X-Total-Count"] == "1"
    for path in ("/api/v1/user/actions/runs", "/api/v1/user/actions/jobs", "/api/v1/user/actions/runners"):
        refused = client.get(path, headers=public_only)
        assert refused.status_code == 403 and "public-only" in refused.get_json()["message"], path


def test_a_token_as_the_password_never_manages_tokens(world: World, client: FlaskClient) -> None:
    world.user("ann")
    token = world.token("ann", ["all"])["Authorization"].split(" ", 1)[1]
    basic = {"Authorization": "Basic " + base64.b64encode(f"ann:{token}".encode()).decode()}
    made = client.post("/api/v1/users/ann/tokens", headers=basic, json={"name": "minted", "scopes": ["all"]})
    assert made.status_code == 401 and made.get_json()["message"] == "auth required"

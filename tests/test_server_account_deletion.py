"""Deleting a user (purge) or an organization drops its runners, registration tokens, secrets and variables.

``AccountDeletedEvent`` is published inside the deleting transaction, before the account row goes;
the actions family listens. The owner's empty directory under ``<data>/git`` goes too.
"""

from __future__ import annotations

from typing import Any

from forge_proto import runner_pb2
from test_server_actions_support import World, world

from reference_server.context import forge
from reference_server.events import AccountDeletedEvent

__all__ = ["world"]


def _register_at(world: World, prefix: str, caller: str | None) -> int:
    """Register a runner with the registration token of an owner scope (``user/actions`` or ``orgs/x/actions``)."""
    response = world.api("POST", f"{prefix}/runners/registration-token", caller)
    assert response.status_code == 200, response.get_data(as_text=True)
    request = runner_pb2.RegisterRequest(
        name=f"runner-{next(world.names)}", token=response.get_json()["token"], version="v0.0.1", labels=["x"]
    )
    return int(world.reply(world.call("Register", request), runner_pb2.RegisterResponse).runner.id)


def _configure(world: World, prefix: str, caller: str | None) -> None:
    assert world.api("PUT", f"{prefix}/secrets/TOKEN", caller, json={"data": "s3cret"}).status_code == 201
    assert world.api("POST", f"{prefix}/variables/COLOUR", caller, json={"value": "blue"}).status_code == 201


def _rows(world: World, owner_id: int) -> dict[str, int]:
    """How many rows of each owner table still name the account."""
    tables = ("action_runner", "action_runner_token", "action_secret", "action_variable")
    counts: dict[str, int] = {}
    with world.app.app_context():
        for table in tables:
            count = forge().db.scalar(f"SELECT COUNT(*) FROM {table} WHERE owner_id = ?", (owner_id,))  # noqa: S608
            assert isinstance(count, int)
            counts[table] = count
    return counts


def _account_id(world: World, name: str) -> int:
    response = world.api("GET", f"users/{name}", headers=world.admin_headers)
    assert response.status_code == 200, response.get_data(as_text=True)
    return int(response.get_json()["id"])


def test_purging_a_user_drops_its_runners_tokens_secrets_and_variables(world: World) -> None:
    world.repo("carol", "app")
    _register_at(world, "user/actions", "carol")
    _configure(world, "user/actions", "carol")
    carol = _account_id(world, "carol")
    assert all(count >= 1 for count in _rows(world, carol).values()), _rows(world, carol)
    with world.app.app_context():
        owner_dir = forge().config.data_dir / "git" / "carol"
    assert owner_dir.is_dir()
    response = world.api("DELETE", "admin/users/carol", headers=world.admin_headers, query_string={"purge": "true"})
    assert response.status_code == 204, response.get_data(as_text=True)
    assert _rows(world, carol) == dict.fromkeys(_rows(world, carol), 0)
    assert not owner_dir.exists()


def test_deleting_an_organization_drops_its_runners_tokens_secrets_and_variables(world: World) -> None:
    world.user("dave")
    created = world.api("POST", "orgs", "dave", json={"username": "acme"})
    assert created.status_code == 201, created.get_data(as_text=True)
    _register_at(world, "orgs/acme/actions", "dave")
    _configure(world, "orgs/acme/actions", "dave")
    acme = int(created.get_json()["id"])
    assert all(count >= 1 for count in _rows(world, acme).values()), _rows(world, acme)
    assert world.api("DELETE", "orgs/acme", "dave").status_code == 204
    assert _rows(world, acme) == dict.fromkeys(_rows(world, acme), 0)


def test_other_owners_keep_theirs(world: World) -> None:
    world.user("erin")
    world.user("frank")
    _register_at(world, "user/actions", "frank")
    _configure(world, "user/actions", "frank")
    frank = _account_id(world, "frank")
    before = _rows(world, frank)
    assert world.api("DELETE", "admin/users/erin", headers=world.admin_headers).status_code == 204
    assert _rows(world, frank) == before


def test_a_failing_listener_keeps_the_account(world: World) -> None:
    world.user("gina")
    _register_at(world, "user/actions", "gina")
    gina = _account_id(world, "gina")
    before = _rows(world, gina)

    def refuse(event: Any) -> None:
        raise RuntimeError("listener failed")

    with world.app.app_context():
        forge().events.subscribe(AccountDeletedEvent, refuse)
    response = world.api("DELETE", "admin/users/gina", headers=world.admin_headers)
    assert response.status_code == 500
    assert world.api("GET", "users/gina", headers=world.admin_headers).status_code == 200
    assert _rows(world, gina) == before

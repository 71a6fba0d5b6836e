"""The permission a route declares on the repository or organization its path names is checked before its view.

Every view is swapped for a sentinel that answers 299: a caller refused by the declaration never reaches
it (404 when it cannot see the repository or organization, 403 when it can but lacks the rest), and a
caller the declaration admits always does. So a route whose declaration is looser or stricter than its
view's needs, or whose view checks nothing itself, shows here, route by route.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from flask import Flask, Response
from flask.testing import FlaskClient
from test_security_routes import _basic, fill, methods_of
from werkzeug.routing import Rule as UrlRule

from reference_server.access import Need, OrgNeed, Rule, UserNeed
from reference_server.app import create_app, declared_endpoints
from reference_server.config import Config

ADMIN_TOKEN = "0123456789abcdef0123456789abcdef01234567"
VIEW_RAN = 299
BODY_REFUSED = 422
"""The empty body of a write fails its option model after the permission check, before the view."""
PASSWORD = "permission-password-1"
DECLARED = declared_endpoints()
REPO_ROUTES = sorted({e.operation_id: e.access for e in DECLARED if e.access.repo}.items())
ORG_ROUTES = sorted({e.operation_id: e.access for e in DECLARED if e.access.org}.items())
USER_ROUTES = sorted({e.operation_id: e.access for e in DECLARED if e.access.user}.items())
REPO_RANKS: dict[str, int] = {"reader": 1, "writer": 2, "keeper": 3}
"""What each collaborator holds on the private repository (the owner holds everything)."""
REPO_NEEDS: dict[Need, int] = {"read": 1, "write": 2, "admin": 3, "owner": 4}
ORG_RANKS: dict[str, int] = {"outsider": 1, "member": 2}
"""What each account is in the limited organization (every signed-in account sees it; the owner is everything)."""
ORG_NEEDS: dict[OrgNeed, int] = {"visible": 1, "member": 2, "owner": 3}
USER_ANSWERS: dict[UserNeed, dict[str, int]] = {
    "exists": {"stranger": VIEW_RAN, "hermit": VIEW_RAN, "owner": VIEW_RAN},
    "visible": {"stranger": 404, "hermit": VIEW_RAN, "owner": VIEW_RAN},
    "self": {"stranger": 403, "hermit": VIEW_RAN, "owner": VIEW_RAN},
}
"""Who reaches the view of a route on the private account ``hermit``, by the route's declared need."""


def _passed(status: int) -> int:
    """A caller the permission check let through reaches the view, or the body check just before it."""
    return VIEW_RAN if status == BODY_REFUSED else status


def _sentinel(**_path: object) -> Response:
    return Response("view ran", status=VIEW_RAN)


@dataclass
class World:
    app: Flask
    client: FlaskClient
    tokens: dict[str, str]
    logins: dict[str, tuple[str, str]]
    """Each caller's user name and password."""

    def call(self, method: str, path: str, who: str, *, basic: bool = False) -> tuple[int, str]:
        """The answer to ``who`` calling, with its token or (``basic``) its password."""
        headers = _basic(*self.logins[who]) if basic else {"Authorization": f"token {self.tokens[who]}"}
        answer = self.client.open(path, method=method, headers=headers)
        return _passed(answer.status_code), answer.get_data(as_text=True)


def _signed_up(client: FlaskClient, admin: dict[str, str], name: str, visibility: str = "public") -> str:
    """A new account with a token of every scope."""
    body = {"username": name, "email": f"{name}@example.com", "password": PASSWORD, "visibility": visibility}
    assert client.post("/api/v1/admin/users", headers=admin, json=body).status_code == 201
    basic = _basic(name, PASSWORD)
    made = client.post(f"/api/v1/users/{name}/tokens", headers=basic, json={"name": "all", "scopes": ["all"]})
    assert made.status_code == 201, made.get_data(as_text=True)
    return str(made.get_json()["sha1"])


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    data = tmp_path_factory.mktemp("permissions") / "data"
    app = create_app(Config(data_dir=data, base_url="http://forge.test/", admin_token=ADMIN_TOKEN))
    app.testing = True
    client = app.test_client()
    admin = {"Authorization": f"token {ADMIN_TOKEN}"}
    config = app.extensions["forge"].config
    owner = config.admin_username
    tokens = {"owner": ADMIN_TOKEN}
    for name in ("stranger", "reader", "writer", "keeper", "member", "outsider"):
        tokens[name] = _signed_up(client, admin, name)
    tokens["hermit"] = _signed_up(client, admin, "hermit", visibility="private")
    logins = {name: (name, PASSWORD) for name in tokens} | {"owner": (owner, config.admin_password)}
    made = client.post("/api/v1/user/repos", headers=admin, json={"name": "vault", "private": True})
    assert made.status_code == 201
    for name, permission in (("reader", "read"), ("writer", "write"), ("keeper", "admin")):
        added = client.put(
            f"/api/v1/repos/{owner}/vault/collaborators/{name}", headers=admin, json={"permission": permission}
        )
        assert added.status_code == 204, added.get_data(as_text=True)
    made = client.post("/api/v1/orgs", headers=admin, json={"username": "guild", "visibility": "limited"})
    assert made.status_code == 201
    team = client.post(
        "/api/v1/orgs/guild/teams", headers=admin, json={"name": "crew", "permission": "read", "units": ["repo.code"]}
    )
    assert team.status_code == 201
    assert client.put(f"/api/v1/teams/{team.get_json()['id']}/members/member", headers=admin).status_code == 204
    for endpoint in app.view_functions:
        app.view_functions[endpoint] = _sentinel
    yield World(app, client, tokens, logins)
    app.extensions["forge"].db.close()


def _url_rule(app: Flask, endpoint: str) -> UrlRule:
    return next(rule for rule in app.url_map.iter_rules() if rule.endpoint == endpoint)


@pytest.mark.parametrize(("endpoint", "rule"), REPO_ROUTES, ids=[name for name, _ in REPO_ROUTES])
def test_a_repository_route_admits_exactly_the_declared_permission(world: World, endpoint: str, rule: Rule) -> None:
    url_rule = _url_rule(world.app, endpoint)
    owner = world.app.extensions["forge"].config.admin_username
    path = fill(url_rule, {"owner": owner, "repo": "vault"})
    assert rule.repo is not None
    need = REPO_NEEDS[rule.repo]
    for method in methods_of(url_rule):
        status, body = world.call(method, path, "stranger")
        assert status == 404 and "repository does not exist" in body, f"{method} {path} stranger: {status} {body}"
        for who, rank in REPO_RANKS.items():
            status, body = world.call(method, path, who)
            expected = VIEW_RAN if rank >= need else 403
            assert status == expected, f"{method} {path} as {who} (needs {rule.repo}): {status} {body}"
        assert world.call(method, path, "owner")[0] == VIEW_RAN, f"{method} {path} owner"


@pytest.mark.parametrize(("endpoint", "rule"), ORG_ROUTES, ids=[name for name, _ in ORG_ROUTES])
def test_an_organization_route_admits_exactly_the_declared_standing(world: World, endpoint: str, rule: Rule) -> None:
    url_rule = _url_rule(world.app, endpoint)
    path = fill(url_rule, {"org": "guild"})
    assert rule.org is not None
    need = ORG_NEEDS[rule.org]
    missing = fill(url_rule, {"org": "no-such-org"})
    for method in methods_of(url_rule):
        status, body = world.call(method, missing, "owner")
        assert status == 404 and "organization does not exist" in body, f"{method} {missing}: {status} {body}"
        for who, rank in ORG_RANKS.items():
            status, body = world.call(method, path, who)
            expected = VIEW_RAN if rank >= need else 403
            assert status == expected, f"{method} {path} as {who} (needs {rule.org}): {status} {body}"
        assert world.call(method, path, "owner")[0] == VIEW_RAN, f"{method} {path} owner"


@pytest.mark.parametrize(("endpoint", "rule"), USER_ROUTES, ids=[name for name, _ in USER_ROUTES])
def test_an_account_route_admits_exactly_the_declared_need(world: World, endpoint: str, rule: Rule) -> None:
    url_rule = _url_rule(world.app, endpoint)
    assert rule.user is not None
    basic = rule.kinds == ("basic",)
    path, missing = fill(url_rule, {"username": "hermit"}), fill(url_rule, {"username": "nobody-here"})
    for method in methods_of(url_rule):
        status, body = world.call(method, missing, "owner", basic=basic)
        assert status == 404 and "user does not exist" in body, f"{method} {missing}: {status} {body}"
        for who, expected in USER_ANSWERS[rule.user].items():
            status, body = world.call(method, path, who, basic=basic)
            assert status == expected, f"{method} {path} as {who} (needs {rule.user}): {status} {body}"
        if rule.user == "self":
            organization = fill(url_rule, {"username": "guild"})
            status, body = world.call(method, organization, "owner", basic=basic)
            assert status == 404, f"{method} {organization}: an organization has no tokens ({status} {body})"

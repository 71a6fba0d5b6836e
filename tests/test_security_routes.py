"""Every route has a declared access rule, and the rule is what the route actually enforces.

Each family's ``routes.ENDPOINTS`` declares one rule per Flask endpoint (``app.declared_rules``). These tests enumerate
``app.url_map`` (so a new route without a rule fails here), then call every route with generated
path parameters against one fresh app: a token lacking each declared scope category gets 403 before
any lookup, a token holding exactly the declared categories is not refused for its scope, anonymous
callers get 401 where the rule wants credentials, and the non-token surfaces (signed URLs, the runner
protocol, the artifact service, Git and LFS) refuse account tokens or missing credentials.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.routing import Rule as UrlRule
from werkzeug.test import TestResponse

from reference_server.access import Rule
from reference_server.app import create_app, declared_rules
from reference_server.auth import CATEGORIES, READ_METHODS
from reference_server.config import Config

RULES = declared_rules()
ADMIN_TOKEN = "fedcba9876543210fedcba9876543210fedcba98"
SCOPE_REFUSAL = "token does not have at least one of required scope(s)"
TWIRP = "/twirp/github.actions.results.api.v1.ArtifactService/"
RUNNER = "/api/actions/runner.v1.RunnerService/"
PLACEHOLDER = re.compile(r"<(?:(?P<converter>[^:>]+(?:\([^)]*\))?):)?(?P<name>[^>]+)>")


def fill(rule: UrlRule, values: Mapping[str, str] | None = None) -> str:
    """The rule's path with the given ``values`` and a harmless value for every other parameter (int 1, path
    ``a/b``, the first ``any`` choice)."""

    def value(match: re.Match[str]) -> str:
        if values and match.group("name") in values:
            return values[match.group("name")]
        converter = match.group("converter") or ""
        if converter.startswith("int"):
            return "1"
        if converter.startswith("path"):
            return "a/b"
        if converter.startswith("any"):
            return str(re.findall(r'"([^"]+)"', converter)[0])
        return "x"

    return PLACEHOLDER.sub(value, rule.rule)


def methods_of(rule: UrlRule) -> list[str]:
    return sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})


def level_of(rule: Rule, method: str) -> str:
    return "read" if method in READ_METHODS and not rule.write_on_read else "write"


def _basic(user: str, password: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


@dataclass
class World:
    """One app for the whole module, an admin with tokens of every shape, and a non-admin user."""

    app: Flask
    client: FlaskClient
    admin_basic: dict[str, str]
    user_token: str = ""
    tokens: dict[tuple[str, ...], str] = field(default_factory=dict)

    def token(self, scopes: tuple[str, ...], owner: str = "admin") -> str:
        """An admin (or user) token with exactly ``scopes``, made once."""
        key = (owner, *sorted(scopes))
        if key not in self.tokens:
            auth = self.admin_basic if owner == "admin" else _basic("mallory", "mallory-password-1")
            user = self.app.extensions["forge"].config.admin_username if owner == "admin" else "mallory"
            made = self.client.post(
                f"/api/v1/users/{user}/tokens", headers=auth, json={"name": f"t{len(self.tokens)}", "scopes": scopes}
            )
            assert made.status_code == 201, made.get_data(as_text=True)
            self.tokens[key] = str(made.get_json()["sha1"])
        return self.tokens[key]

    def lacking(self, category: str) -> str:
        """An admin token with write on every category but ``category``."""
        return self.token(tuple(f"write:{c}" for c in CATEGORIES if c != category))

    def exact(self, rule: Rule, method: str) -> str:
        """A token with exactly the rule's categories at the level ``method`` needs."""
        return self.token(tuple(f"{level_of(rule, method)}:{c}" for c in rule.categories))

    def call(self, method: str, path: str, token: str | None = None, **kwargs: object) -> TestResponse:
        headers = {"Authorization": f"token {token}"} if token else {}
        return self.client.open(path, method=method, headers=headers, **kwargs)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    data = tmp_path_factory.mktemp("routes") / "data"
    app = create_app(Config(data_dir=data, base_url="http://forge.test/", admin_token=ADMIN_TOKEN, test_hooks=True))
    app.testing = True
    client = app.test_client()
    config = app.extensions["forge"].config
    built = World(app, client, _basic(config.admin_username, config.admin_password))
    admin = {"Authorization": f"token {ADMIN_TOKEN}"}
    mallory = {"username": "mallory", "email": "m@example.com", "password": "mallory-password-1"}
    assert client.post("/api/v1/admin/users", headers=admin, json=mallory).status_code == 201
    assert client.post("/api/v1/user/repos", headers=admin, json={"name": "sec", "auto_init": True}).status_code == 201
    built.user_token = built.token(("all",), owner="mallory")
    yield built
    app.extensions["forge"].db.close()


def _rules(app: Flask) -> dict[str, UrlRule]:
    return {rule.endpoint: rule for rule in app.url_map.iter_rules()}


def test_every_route_has_exactly_one_declared_rule(world: World) -> None:
    endpoints = _rules(world.app)
    missing = sorted(set(endpoints) - set(RULES))
    stale = sorted(set(RULES) - set(endpoints))
    assert not missing, f"routes without an access rule in reference_server/access.py: {missing}"
    assert not stale, f"access rules naming no route: {stale}"
    assert len(endpoints) == len(list(world.app.url_map.iter_rules())), "an endpoint serves two URL rules"


def test_every_token_rule_names_known_categories() -> None:
    for endpoint, rule in RULES.items():
        assert set(rule.categories) <= set(CATEGORIES), endpoint
        if rule.anonymous_read:
            assert rule.kinds == ("token",), f"{endpoint}: only token routes let anonymous readers through"


TOKEN_ROUTES = sorted(endpoint for endpoint, rule in RULES.items() if rule.kinds == ("token",) and rule.categories)


def _is_scope_refusal(response: TestResponse) -> bool:
    return response.status_code == 403 and SCOPE_REFUSAL in response.get_data(as_text=True)


@pytest.mark.parametrize("endpoint", TOKEN_ROUTES)
def test_a_token_lacking_a_declared_category_is_refused_before_any_lookup(world: World, endpoint: str) -> None:
    rule, url_rule = RULES[endpoint], _rules(world.app)[endpoint]
    path = fill(url_rule)
    for method in methods_of(url_rule):
        for category in rule.categories:
            answer = world.call(method, path, world.lacking(category))
            body = answer.get_data(as_text=True)
            assert answer.status_code == 403, f"{method} {path} without {category}: {answer.status_code} {body}"
            assert re.search(rf"required=\[(read|write):{category}\]", body), f"{method} {path}: {body}"


@pytest.mark.parametrize("endpoint", TOKEN_ROUTES)
def test_a_token_with_exactly_the_declared_categories_passes_the_scope_check(world: World, endpoint: str) -> None:
    rule, url_rule = RULES[endpoint], _rules(world.app)[endpoint]
    path = fill(url_rule)
    for method in methods_of(url_rule):
        answer = world.call(method, path, world.exact(rule, method))
        assert answer.status_code != 401, f"{method} {path}: {answer.get_data(as_text=True)}"
        assert not _is_scope_refusal(answer), f"{method} {path} wants more than {rule.categories}"
        assert answer.status_code < 500, f"{method} {path}: {answer.get_data(as_text=True)}"


@pytest.mark.parametrize("endpoint", TOKEN_ROUTES)
def test_anonymous_callers_pass_only_where_the_rule_allows_reading(world: World, endpoint: str) -> None:
    rule, url_rule = RULES[endpoint], _rules(world.app)[endpoint]
    path = fill(url_rule)
    for method in methods_of(url_rule):
        answer = world.call(method, path)
        if rule.anonymous_read and method == "GET":
            assert answer.status_code != 401, f"{method} {path} should let anonymous readers reach the lookup"
        else:
            assert answer.status_code == 401, f"{method} {path} anonymous: {answer.status_code}"


ADMIN_ROUTES = sorted(endpoint for endpoint, rule in RULES.items() if rule.kinds == ("admin",))


@pytest.mark.parametrize("endpoint", ADMIN_ROUTES)
def test_admin_routes_need_a_site_admin_with_admin_scope(world: World, endpoint: str) -> None:
    rule, url_rule = RULES[endpoint], _rules(world.app)[endpoint]
    path = fill(url_rule)
    for method in methods_of(url_rule):
        assert world.call(method, path).status_code == 401, f"{method} {path} anonymous"
        assert _is_scope_refusal(world.call(method, path, world.lacking("admin"))), f"{method} {path} no admin scope"
        refused = world.call(method, path, world.user_token)
        assert refused.status_code == 403, f"{method} {path} for a user who is no site admin: {refused.status_code}"
        allowed = world.call(method, path, world.exact(rule, method))
        assert allowed.status_code not in (401, 403), f"{method} {path}: {allowed.get_data(as_text=True)}"


@pytest.mark.parametrize("endpoint", sorted(e for e, r in RULES.items() if r.kinds == ("basic",)))
def test_token_management_needs_the_account_password(world: World, endpoint: str) -> None:
    url_rule = _rules(world.app)[endpoint]
    path = fill(url_rule).replace("/users/x/", "/users/forge_admin/")
    for method in methods_of(url_rule):
        assert world.call(method, path).status_code == 401
        assert world.call(method, path, ADMIN_TOKEN).status_code == 401, "a token header is not basic auth"
        for token in (ADMIN_TOKEN, world.lacking("user")):  # a token as the password proves no password
            as_password = world.client.open(path, method=method, headers=_basic("forge_admin", token))
            assert as_password.status_code == 401, f"{method} {path}: {as_password.get_data(as_text=True)}"
            assert as_password.get_json()["message"] == "auth required"
        with_password = world.client.open(path, method=method, headers=world.admin_basic, json={"name": "p"})
        assert with_password.status_code not in (401, 403), with_password.get_data(as_text=True)


def test_the_token_self_routes_need_any_valid_token(world: World) -> None:
    assert world.call("GET", "/api/v1/token").status_code == 401
    assert world.call("GET", "/api/v1/token", world.lacking("user")).status_code == 200
    assert world.call("GET", "/api/v1/token", "0" * 40).status_code == 401


@pytest.mark.parametrize("endpoint", sorted(e for e, r in RULES.items() if r.kinds == ("public",)))
def test_public_routes_answer_anonymous_callers(world: World, endpoint: str) -> None:
    url_rule = _rules(world.app)[endpoint]
    for method in methods_of(url_rule):
        assert world.call(method, fill(url_rule)).status_code not in (401, 403)


def test_the_signed_zip_url_refuses_account_tokens(world: World) -> None:
    path = "/api/v1/repos/forge_admin/sec/actions/artifacts/1/zip/raw"
    assert world.call("GET", path).status_code == 401
    assert world.call("GET", path, ADMIN_TOKEN).status_code == 401
    assert world.call("GET", path + f"?token={ADMIN_TOKEN}").status_code == 401


def test_the_artifact_service_needs_a_runtime_token_or_a_signature(world: World) -> None:
    for method in ("CreateArtifact", "FinalizeArtifact", "ListArtifacts", "GetSignedArtifactURL", "DeleteArtifact"):
        for token in (None, ADMIN_TOKEN):
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            answer = world.client.post(TWIRP + method, headers=headers, json={})
            assert answer.status_code == 401, f"{method} with {token}: {answer.get_data(as_text=True)}"
    for method, verb in (("UploadArtifact", "PUT"), ("DownloadArtifact", "GET")):
        answer = world.call(verb, TWIRP + method + "?artifactID=1&artifactName=a&taskID=1", ADMIN_TOKEN)
        assert answer.status_code == 401


def test_the_runner_protocol_refuses_account_tokens(world: World) -> None:
    for method in ("Declare", "FetchTask", "UpdateTask", "UpdateLog"):
        for headers in ({}, {"Authorization": f"token {ADMIN_TOKEN}"}, {"x-runner-uuid": "x", "x-runner-token": "y"}):
            answer = world.client.post(RUNNER + method, headers=headers, json={})
            assert answer.status_code == 401, f"{method}: {answer.get_data(as_text=True)}"
    register = world.client.post(RUNNER + "Register", json={"name": "r", "token": ADMIN_TOKEN})
    assert register.status_code == 404, "an account token is no registration token"


def test_git_and_lfs_need_credentials_with_the_repository_scope(world: World) -> None:
    refs = "/forge_admin/sec.git/info/refs?service=git-receive-pack"
    anonymous = world.call("GET", refs)
    assert anonymous.status_code == 401 and "WWW-Authenticate" in anonymous.headers
    lacking = world.client.get(refs, headers=_basic("forge_admin", world.lacking("repository")))
    assert _is_scope_refusal(lacking)
    read_only = world.client.get(refs, headers=_basic("forge_admin", world.token(("read:repository",))))
    assert _is_scope_refusal(read_only), "pushing needs write:repository"
    assert world.client.get(refs, headers=_basic("forge_admin", ADMIN_TOKEN)).status_code == 200
    batch = "/forge_admin/sec.git/info/lfs/objects/batch"
    lfs = {"Accept": "application/vnd.git-lfs+json", "Content-Type": "application/vnd.git-lfs+json"}
    body = {"operation": "upload", "objects": [{"oid": "a" * 64, "size": 1}]}
    assert world.client.post(batch, headers=lfs, json=body).status_code == 401
    refused = world.client.post(batch, headers={**lfs, **_basic("forge_admin", world.lacking("repository"))}, json=body)
    assert refused.status_code == 403


def test_the_package_registry_needs_the_package_scope(world: World) -> None:
    """The registry's own check: 401 with the challenge for a token without the category or its level."""
    path = "/api/packages/forge_admin/generic/tool/1.0.0/tool.bin"
    refused = world.call("PUT", path, world.lacking("package"), data=b"x")
    assert refused.status_code == 401 and refused.headers["WWW-Authenticate"].startswith("Basic")
    assert world.call("PUT", path, world.token(("read:package",)), data=b"x").status_code == 401
    assert world.call("PUT", path, world.token(("write:package",)), data=b"x").status_code == 201
    assert world.call("GET", path, world.lacking("package")).status_code == 401
    assert world.call("GET", path, world.token(("read:package",))).status_code == 200
    assert world.call("DELETE", path, world.token(("read:package",))).status_code == 401


def test_the_rule_table_covers_every_kind_of_surface() -> None:
    """A sanity floor, so a rewrite that empties the table cannot pass the checks above vacuously."""
    kinds = {kind for rule in RULES.values() for kind in rule.kinds}
    assert kinds == {"public", "token", "basic", "admin", "signed", "runner", "job", "git", "package"}
    assert len(TOKEN_ROUTES) > 250
    assert isinstance(next(iter(RULES.values())), Rule)


@pytest.mark.parametrize("endpoint", sorted(e for e, r in RULES.items() if r.kinds == ("job",)))
def test_the_legacy_artifact_routes_need_a_runtime_token(world: World, endpoint: str) -> None:
    """The v3 artifact protocol: no credential, an account token (as Bearer or token), or an account token's
    user and password are all refused with 401, before the run or the artifact is looked up."""
    rule = _rules(world.app)[endpoint]
    path = fill(rule, {"run_id": "1", "artifact_hash": "0" * 32, "item_id": "1"}) + "?api-version=6.0-preview"
    config = world.app.extensions["forge"].config
    for headers in (
        {},
        {"Authorization": f"Bearer {ADMIN_TOKEN}"},
        {"Authorization": f"token {ADMIN_TOKEN}"},
        _basic(config.admin_username, config.admin_password),
    ):
        for method in methods_of(rule):
            answer = world.client.open(path, method=method, headers=headers, json={})
            assert answer.status_code == 401, f"{method} {path}: {answer.get_data(as_text=True)}"

"""Run prefix, short-to-real names, placeholders, step phrases, and identities made on a real reference server."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from conformance.api import ForgeApi
from conformance.client import BasicAuth, HttpClient, Recorder, TokenAuth, json_of
from conformance.context import ScenarioContext
from conformance.identities import IdentityFactory, SetupError, make_run_prefix
from conformance.ledger import CleanupLedger
from conformance.target import EmbeddedServer, api_url_of
from steps.common import expand
from steps.parsing import phrase


def test_run_prefix_is_short_valid_and_unique() -> None:
    prefixes = {make_run_prefix() for _ in range(300)}
    assert len(prefixes) == 300
    assert all(re.fullmatch(r"ck[0-9a-z]{6}", prefix) for prefix in prefixes)


def _ctx(sequence: int = 7) -> ScenarioContext:
    admin = ForgeApi(HttpClient("http://forge.test/api/v1/"), "http://forge.test/")
    return ScenarioContext(run_prefix="ckabc123", sequence=sequence, admin=admin)


def test_real_names_carry_the_run_prefix_and_differ_per_scenario() -> None:
    assert _ctx(7).real_name("Alice") == "ckabc123-7-alice"
    assert _ctx(8).real_name("alice") != _ctx(7).real_name("alice")


def test_placeholders_expand_to_real_names_and_unknown_ones_fail_clearly() -> None:
    ctx = _ctx()
    ctx.orgs["acme"] = "ckabc123-7-acme"
    assert expand(ctx, "/orgs/{acme}/repos?x={acme}") == "/orgs/ckabc123-7-acme/repos?x=ckabc123-7-acme"
    with pytest.raises(AssertionError, match='"ghost" is neither a user nor an organization'):
        expand(ctx, "/users/{ghost}")
    with pytest.raises(AssertionError, match='Given a repository "alice/demo"'):
        expand(ctx, "/repos/{alice/demo}")


def test_quoted_arguments_stop_at_the_closing_quote() -> None:
    short = phrase('a user "{short}"')
    assert short.is_matching('a user "alice"')
    assert not short.is_matching('a user "alice" with a token scoped "read:user"')
    scoped = phrase('a user "{short}" with a token scoped "{scopes}"')
    assert scoped.parse_arguments('a user "alice" with a token scoped "read:user"') == {
        "short": "alice",
        "scopes": "read:user",
    }


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedServer]:
    """A real reference server as the suite starts it."""
    embedded = EmbeddedServer(Path(tmp_path_factory.mktemp("log")) / "server.log")
    embedded.start()
    yield embedded
    embedded.stop()


@pytest.fixture
def factory(server: EmbeddedServer) -> Iterator[IdentityFactory]:
    """An identity factory over the real server; what a test leaves is cleaned up after it."""
    api_url = api_url_of(server.base_url)
    admin = ForgeApi(HttpClient(api_url, TokenAuth(server.admin_token), recorder=Recorder()), server.base_url)
    ctx = ScenarioContext(run_prefix=make_run_prefix(), sequence=1, admin=admin)
    made = IdentityFactory(ctx, admin, CleanupLedger(admin), api_url)
    yield made
    assert made.ledger.cleanup() == []


def test_a_user_gets_a_token_with_exactly_the_asked_scopes(factory: IdentityFactory) -> None:
    alice = factory.user("alice", ["read:user", "write:repository"])
    assert alice.username == factory.ctx.real_name("alice")
    me = alice.api.users.me()
    assert me.status_code == 200 and json_of(me)["login"] == alice.username
    listed = json_of(alice.client(BasicAuth(alice.username, alice.password)).tokens.list(alice.username))
    assert sorted(listed[0]["scopes"]) == ["read:user", "write:repository"]
    assert factory.user("alice") is alice, "a second Given of the same name reuses the user"
    masked = factory.recorder.masked_values()
    assert alice.token in masked and alice.password in masked


def test_repositories_and_organizations_are_created_by_their_owner(factory: IdentityFactory) -> None:
    repo = factory.repo("bob/demo")
    assert repo.owner == factory.ctx.users["bob"].username and repo.name == factory.ctx.real_name("demo")
    body = json_of(factory.ctx.users["bob"].api.repos.get(repo.owner, repo.name))
    assert body["empty"] is False, "a Given repository has an initial commit"
    org = factory.org("acme", "bob")
    org_repo = factory.repo("acme/tools")
    assert org_repo.owner == org
    with pytest.raises(SetupError, match='"owner/name"'):
        factory.repo("no-slash")


def test_cleanup_deletes_everything_the_run_created(factory: IdentityFactory) -> None:
    repo = factory.repo("carol/demo")
    org = factory.org("guild", "carol")
    org_repo = factory.repo("guild/site")
    admin = factory.admin
    assert factory.ledger.cleanup() == []
    assert admin.repos.get(repo.owner, repo.name).status_code == 404
    assert admin.repos.get(org_repo.owner, org_repo.name).status_code == 404
    assert admin.orgs.get(org).status_code == 404
    assert admin.users.get(factory.ctx.users["carol"].username).status_code == 404
    assert factory.ledger.entries == []


def test_a_refused_creation_names_the_step_and_the_answer(factory: IdentityFactory) -> None:
    with pytest.raises(SetupError, match="could not create a token"):
        factory.user("dave", ["read:nonsense"])

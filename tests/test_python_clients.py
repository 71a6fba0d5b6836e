"""Real Python clients of Gitea against the reference, over HTTP: py-gitea's ordinary administration calls, and
gitea-api-client, generated from Gitea 1.27.3's own API description: its strict pydantic models refuse a field
of the wrong type, and the fields they declare are Gitea's full models, which every answer must carry."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import gitea  # type: ignore[import-untyped]  # py-gitea ships no type information
import gitea_api_client as client
from test_mock_runner_support import ADMIN_TOKEN, LiveForge, live_forge

__all__ = ["live_forge"]

T = TypeVar("T")


def _generated(forge: LiveForge, call: Callable[[client.ApiClient], Awaitable[T]]) -> T:
    """Run one call of the generated async client, authenticated as the admin."""
    configuration = client.Configuration(
        host=f"{forge.url}/api/v1",
        api_key={"AuthorizationHeaderToken": ADMIN_TOKEN},
        api_key_prefix={"AuthorizationHeaderToken": "token"},
    )

    async def run() -> T:
        async with client.ApiClient(configuration) as api:
            return await call(api)

    return asyncio.run(run())


OMITTED_WHEN_EMPTY = frozenset({"parent", "permissions", "internal_tracker", "external_tracker", "external_wiki"})
"""``omitempty`` pointers of Gitea's ``structs.Repository``: absent unless set (an external tracker, a parent)."""


GiteaModel = type[client.Repository] | type[client.User] | type[client.Issue] | type[client.Team]


def _missing_fields(model: GiteaModel, answer: dict[str, Any]) -> set[str]:
    """The fields of the generated model (Gitea's JSON names) that the raw answer lacks."""
    return {field.alias or name for name, field in model.model_fields.items()} - set(answer) - OMITTED_WHEN_EMPTY


def test_py_gitea_creates_a_user_an_organization_and_a_repository_and_edits_the_user(live_forge: LiveForge) -> None:
    forge = gitea.Gitea(live_forge.url, token_text=ADMIN_TOKEN, log_level="WARNING")
    assert forge.get_version().endswith("+reference")
    user = forge.create_user("client-user", "client-user@example.com", "a-long-Passw0rd!", send_notify=False)
    organization = forge.create_org(user, "client-org", "made by py-gitea")
    repository = forge.create_repo(user, "client-repo", description="made by py-gitea", autoInit=True)
    user.full_name = "Client User"
    user.website = "https://example.com/client"
    user.commit("client-user")

    edited = live_forge.api("GET", "/users/client-user").json()
    assert (edited["full_name"], edited["website"]) == ("Client User", "https://example.com/client")
    members = live_forge.api("GET", "/orgs/client-org/members").json()
    assert organization.username == "client-org" and [member["login"] for member in members] == ["client-user"]
    made = live_forge.api("GET", "/repos/client-user/client-repo").json()
    assert (repository.name, made["owner"]["login"], made["default_branch"]) == ("client-repo", "client-user", "master")
    assert made["empty"] is False  # autoInit gave it a first commit


def test_generated_client_reads_and_searches_into_gitea_models(live_forge: LiveForge) -> None:
    live_forge.create_repo("searched-tool")
    live_forge.create_repo("other-thing")

    def search(api: client.ApiClient) -> Awaitable[Any]:
        return client.RepositoryApi(api).repo_search(q="searched", limit=10)

    found = _generated(live_forge, search)
    assert found.ok is True and [repo.name for repo in found.data or []] == ["searched-tool"]
    version = _generated(live_forge, lambda api: client.MiscellaneousApi(api).get_version())
    assert str(version.version).endswith("+reference")
    me = _generated(live_forge, lambda api: client.UserApi(api).user_get_current())
    login = str(me.login)
    assert login and me.is_admin is True
    repository = _generated(live_forge, lambda api: client.RepositoryApi(api).repo_get(login, "searched-tool"))
    assert repository.full_name == f"{login}/searched-tool" and repository.permissions is not None


def test_generated_client_searches_users_issues_and_teams(live_forge: LiveForge) -> None:
    """gitea-api-client's searches: ``/users/search`` and ``/repos/issues/search`` (literal routes a parameter
    route once swallowed) and an organization's team search, each answered into Gitea's models."""
    repo = live_forge.create_repo("tracked")
    assert live_forge.api("POST", f"/repos/{repo}/issues", json={"title": "a findable issue"}).status_code == 201
    assert live_forge.api("POST", "/admin/users", json=_user("found-person")).status_code == 201
    assert live_forge.api("POST", "/orgs", json={"username": "team-org"}).status_code == 201
    team = {"name": "searchable-team", "permission": "read", "units": ["repo.code"]}
    assert live_forge.api("POST", "/orgs/team-org/teams", json=team).status_code == 201

    users = _generated(live_forge, lambda api: client.UserApi(api).user_search(q="found-person"))
    assert users.ok is True and [user.login for user in users.data or []] == ["found-person"]
    issues = _generated(live_forge, lambda api: client.IssueApi(api).issue_search_issues(q="findable"))
    assert [(issue.title, issue.repository.full_name if issue.repository else None) for issue in issues] == [
        ("a findable issue", repo)
    ]
    teams = _generated(live_forge, lambda api: client.OrganizationApi(api).team_search("team-org", q="searchable"))
    assert teams.ok is True and [found.name for found in teams.data or []] == ["searchable-team"]


def _user(name: str) -> dict[str, Any]:
    return {
        "username": name,
        "email": f"{name}@example.com",
        "password": "a-long-Passw0rd!",
        "must_change_password": False,
    }


def test_answers_carry_every_field_of_gitea_models(live_forge: LiveForge) -> None:
    repo = live_forge.create_repo("full-model")
    assert not _missing_fields(client.Repository, live_forge.api("GET", f"/repos/{repo}").json())
    assert not _missing_fields(client.User, live_forge.api("GET", "/user").json())
    issue = live_forge.api("POST", f"/repos/{repo}/issues", json={"title": "modelled", "body": "text"}).json()
    assert not _missing_fields(client.Issue, issue)
    parsed_issue = client.Issue.from_dict(issue)
    assert parsed_issue is not None and parsed_issue.content_version == 0 and parsed_issue.projects == []
    assert live_forge.api("POST", "/orgs", json={"username": "model-org"}).status_code == 201
    body = {"name": "modelled", "permission": "read", "units": ["repo.code"], "visibility": "limited"}
    team = live_forge.api("POST", "/orgs/model-org/teams", json=body).json()
    assert not _missing_fields(client.Team, team)
    parsed_team = client.Team.from_dict(team)
    assert parsed_team is not None and parsed_team.visibility == "limited"

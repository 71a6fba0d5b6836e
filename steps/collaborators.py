"""Collaborators of a repository: adding them with a permission, listing and checking them, their
permission, and what a user then sees of the repository.

Users are short names; one the scenario never created is sent as a unique name nobody has.
"""

from __future__ import annotations

from pytest_bdd import given, then, when

from conformance.api.collaborators import CollaboratorsApi
from conformance.context import ScenarioContext
from conformance.identities import IdentityFactory
from steps.actors import acting, acting_api, repo_owner
from steps.common import expect_status, response_json, user_name
from steps.parsing import phrase

__all__: list[str] = []


@given(phrase('"{user}" is a collaborator of "{repo}" with the permission "{permission}"'))
def given_collaborator(
    ctx: ScenarioContext, identities: IdentityFactory, user: str, repo: str, permission: str
) -> None:
    """The repository's owner adds the user (created if new) as a collaborator."""
    name = identities.user(user).username
    ref = ctx.repo(repo)
    response = repo_owner(ctx, repo).area(CollaboratorsApi).put(ref.owner, ref.name, name, permission)
    expect_status(response, 204, f'add "{user}" as a collaborator of "{repo}"')


@given(phrase('"{who}" added "{user}" as a collaborator of "{repo}" with an empty body'))
def given_collaborator_default(ctx: ScenarioContext, who: str, user: str, repo: str) -> None:
    """``PUT .../collaborators/{collaborator}`` with ``{}`` (Gitea then gives write)."""
    ref = ctx.repo(repo)
    response = acting(ctx, who, CollaboratorsApi).put(ref.owner, ref.name, user_name(ctx, user))
    expect_status(response, 204, f'add "{user}" as a collaborator of "{repo}"')


@when(phrase('"{who}" adds "{user}" as a collaborator of "{repo}" with the permission "{permission}"'))
def put_collaborator(ctx: ScenarioContext, who: str, user: str, repo: str, permission: str) -> None:
    """``PUT .../collaborators/{collaborator}`` with a permission."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, CollaboratorsApi).put(ref.owner, ref.name, _org_or_user(ctx, user), permission)


def _org_or_user(ctx: ScenarioContext, short: str) -> str:
    return ctx.orgs[short] if short in ctx.orgs else user_name(ctx, short)


@when(phrase('"{who}" lists the collaborators of "{repo}"'))
def list_collaborators(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``GET .../collaborators``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, CollaboratorsApi).list(ref.owner, ref.name)


@when(phrase('"{who}" checks whether "{user}" is a collaborator of "{repo}"'))
def check_collaborator(ctx: ScenarioContext, who: str, user: str, repo: str) -> None:
    """``GET .../collaborators/{collaborator}``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, CollaboratorsApi).check(ref.owner, ref.name, user_name(ctx, user))


@when(phrase('"{who}" removes the collaborator "{user}" from "{repo}"'))
def remove_collaborator(ctx: ScenarioContext, who: str, user: str, repo: str) -> None:
    """``DELETE .../collaborators/{collaborator}``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, CollaboratorsApi).remove(ref.owner, ref.name, user_name(ctx, user))


@when(phrase('"{who}" asks for the permission of "{user}" on "{repo}"'))
def collaborator_permission(ctx: ScenarioContext, who: str, user: str, repo: str) -> None:
    """``GET .../collaborators/{collaborator}/permission``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, CollaboratorsApi).permission(ref.owner, ref.name, _org_or_user(ctx, user))


@then(phrase('"{user}" does not see the repository "{repo}"'))
def then_repo_hidden(ctx: ScenarioContext, user: str, repo: str) -> None:
    """The user reads 404 for the repository."""
    ref = ctx.repo(repo)
    response = acting_api(ctx, user).repos.get(ref.owner, ref.name)
    assert response.status_code == 404, f'"{user}" should not see "{repo}": {response.status_code}'


@then(phrase('"{user}" sees the repository "{repo}"'))
def then_repo_seen(ctx: ScenarioContext, user: str, repo: str) -> None:
    """The user reads the repository."""
    ref = ctx.repo(repo)
    response = acting_api(ctx, user).repos.get(ref.owner, ref.name)
    assert response.status_code == 200, f'"{user}" should see "{repo}": {response.status_code}'


@then(phrase('the response field "permission" of the collaborator is "{mode}" for "{user}"'))
def then_collaborator_permission(ctx: ScenarioContext, mode: str, user: str) -> None:
    """A ``RepoCollaboratorPermission`` of the user with this permission and role name."""
    body = response_json(ctx)
    assert (body["permission"], body["role_name"]) == (mode, mode), f"permission {body['permission']!r}"
    assert body["user"]["login"] == user_name(ctx, user), f"the permission is of {body['user']['login']!r}"

"""Steps that find a repository by its id (``GET /repositories/{id}``, Gitea's ``repoGetByID``)."""

from __future__ import annotations

from pytest_bdd import then, when

from conformance.api.repos import ReposApi
from conformance.context import ScenarioContext
from steps.actors import acting
from steps.common import expect_status, response_json
from steps.parsing import phrase

__all__: list[str] = []

NO_SUCH_ID = 2**62
"""An id no forge has reached: within SQLite's and Gitea's 64-bit ids, so the route matches and answers 404."""


def _repo_id(ctx: ScenarioContext, repo: str) -> int:
    """The repository's id, as the admin reads it by name."""
    ref = ctx.repo(repo)
    found = expect_status(ctx.admin.repos.get(ref.owner, ref.name), 200, f'read "{repo}" by name')
    return int(found["id"])


@when(phrase('"{who}" reads the repository "{repo}" by its id'))
def when_read_by_id(ctx: ScenarioContext, who: str, repo: str) -> None:
    """One ``GET /repositories/{id}`` as ``who`` (a user, the admin or an anonymous client)."""
    repo_id = _repo_id(ctx, repo)
    ctx.response = acting(ctx, who, ReposApi).get_by_id(repo_id)


@when(phrase('"{who}" reads a repository by an id that names none'))
def when_read_missing_id(ctx: ScenarioContext, who: str) -> None:
    """``GET /repositories/{id}`` with an id no repository has."""
    ctx.response = acting(ctx, who, ReposApi).get_by_id(NO_SUCH_ID)


@then(phrase('the answer is the repository "{repo}" as its name gives it'))
def then_same_as_by_name(ctx: ScenarioContext, repo: str) -> None:
    """The same repository as ``GET /repos/{owner}/{repo}`` gives: id, names, owner, visibility, branch."""
    by_id = response_json(ctx)
    ref = ctx.repo(repo)
    by_name = expect_status(ctx.admin.repos.get(ref.owner, ref.name), 200, f'read "{repo}" by name')
    assert isinstance(by_id, dict), f"expected a Repository: {str(by_id)[:300]}"
    keys = ("id", "name", "full_name", "private", "default_branch")
    differing = {key: (by_id.get(key), by_name.get(key)) for key in keys if by_id.get(key) != by_name.get(key)}
    assert not differing, f"by id and by name differ (by id, by name): {differing}"
    assert by_id["owner"]["login"] == ref.owner, f"the owner is {by_id['owner']['login']!r}, expected {ref.owner!r}"


@then(phrase('the answer does not name the repository "{repo}"'))
def then_not_named(ctx: ScenarioContext, repo: str) -> None:
    """A refusal must not tell a stranger which repository the id belongs to."""
    ref = ctx.repo(repo)
    text = ctx.last_response().text
    assert ref.name not in text, f"the refusal names the repository: {text[:300]!r}"

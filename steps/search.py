"""Steps of the search area: ``GET /repos/search`` as a user would ask it.

A search keyword is a short word made unique for the scenario (``ctx.real_name``), so searches on a shared
target only find the scenario's own repositories, whose names, topics and descriptions carry the same word.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

from pytest_bdd import given, then, when

from conformance.api.repo_edit import RepoEditApi
from conformance.api.search import SearchApi
from conformance.context import ScenarioContext
from steps.actors import acting, repo_owner
from steps.common import comma_list, expect_status, response_json, user_name
from steps.parsing import phrase

__all__: list[str] = []


def _user_id(ctx: ScenarioContext, short: str) -> int:
    body = expect_status(ctx.admin.users.get(user_name(ctx, short)), 200, f'read the user "{short}"')
    return int(body["id"])


def _search(ctx: ScenarioContext, who: str, params: dict[str, str | int]) -> None:
    ctx.response = acting(ctx, who, SearchApi).search_repos(params)


def _query(ctx: ScenarioContext, keyword: str, extra: str) -> dict[str, str | int]:
    params: dict[str, str | int] = {"q": ctx.real_name(keyword)} if keyword else {}
    params.update(parse_qsl(extra, keep_blank_values=True))
    return params


# ---------------------------------------------------------------- Given


@given(phrase('the description of "{repo}" mentions "{word}"'))
def given_description(ctx: ScenarioContext, repo: str, word: str) -> None:
    """The owner sets a description holding the scenario's form of ``word``."""
    ref = ctx.repo(repo)
    edit = (
        repo_owner(ctx, repo)
        .area(RepoEditApi)
        .edit(ref.owner, ref.name, description=f"all about {ctx.real_name(word)}")
    )
    expect_status(edit, 200, f'describe "{repo}"')


@given(phrase('the repository "{repo}" is a template'))
def given_template(ctx: ScenarioContext, repo: str) -> None:
    """The owner marks the repository as a template (``PATCH`` with ``template: true``)."""
    ref = ctx.repo(repo)
    expect_status(repo_owner(ctx, repo).area(RepoEditApi).edit(ref.owner, ref.name, template=True), 200, "template")


# ---------------------------------------------------------------- When


@when(phrase('"{who}" searches repositories for "{keyword}"'))
@when(phrase('"{who}" searches repositories for "{keyword}" with "{extra}"'))
def search(ctx: ScenarioContext, who: str, keyword: str, extra: str = "") -> None:
    """``GET /repos/search?q=<keyword>`` plus the query ``extra`` (``includeDesc=true&limit=1``)."""
    _search(ctx, who, _query(ctx, keyword, extra))


@when(phrase('"{who}" searches the repositories of "{user}" for "{keyword}"'))
@when(phrase('"{who}" searches the repositories of "{user}" for "{keyword}" with "{extra}"'))
def search_of_user(ctx: ScenarioContext, who: str, user: str, keyword: str, extra: str = "") -> None:
    """The search with ``uid`` the user's id."""
    _search(ctx, who, {**_query(ctx, keyword, extra), "uid": _user_id(ctx, user)})


@when(phrase('"{who}" searches the repositories starred by "{user}" for "{keyword}"'))
def search_starred(ctx: ScenarioContext, who: str, user: str, keyword: str) -> None:
    """The search with ``starredBy`` the user's id."""
    _search(ctx, who, {**_query(ctx, keyword, ""), "starredBy": _user_id(ctx, user)})


# ---------------------------------------------------------------- Then


def _found(ctx: ScenarioContext) -> list[str]:
    body = response_json(ctx)
    assert isinstance(body, dict) and body.get("ok") is True, f"not a SearchResults: {str(body)[:200]}"
    return [str(item.get("full_name")) for item in body.get("data", [])]


@then(phrase('the search found exactly "{repos}"'))
def then_found(ctx: ScenarioContext, repos: str) -> None:
    """The ``data`` of the ``SearchResults`` are these repositories (short names), in this order."""
    expected = [f"{ctx.repo(short).owner}/{ctx.repo(short).name}" for short in comma_list(repos)]
    assert _found(ctx) == expected, f"found {_found(ctx)}, expected {expected}"


@then(phrase("the search found nothing"))
def then_found_nothing(ctx: ScenarioContext) -> None:
    """An empty ``data`` with ``ok`` true."""
    assert _found(ctx) == [], f"found {_found(ctx)}"

"""Dependencies and blocks: "A depends on B" made and removed from either side, the two lists, and the
timeline entries both issues get. Issues are written ``issue 1 of "dev/app"``; lists are compared as
``dev/app#1`` references (short repository names), so cross-repository links read naturally."""

from __future__ import annotations

from typing import Any

from pytest_bdd import given, then, when

from conformance.api.dependencies import DependenciesApi, issue_meta
from conformance.api.issues import IssuesApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from steps.actors import ADMIN, acting
from steps.common import expect_status, json_option
from steps.parsing import phrase

__all__: list[str] = []


def _meta(ctx: ScenarioContext, repo: str, index: int) -> dict[str, Any]:
    ref = ctx.repo(repo)
    return issue_meta(ref.owner, ref.name, index)


def _reference(ctx: ScenarioContext, issue: dict[str, Any]) -> str:
    """``dev/app#1`` for an ``Issue`` of a scenario repository (its real full name otherwise)."""
    full_name = issue["repository"]["full_name"]
    for short, ref in ctx.repos.items():
        if f"{ref.owner}/{ref.name}".lower() == full_name.lower():
            return f"{short}#{issue['number']}"
    return f"{full_name}#{issue['number']}"


def _expected(text: str) -> list[str]:
    return [] if text.strip() == "none" else [part.strip() for part in text.split(",") if part.strip()]


def _listed(ctx: ScenarioContext, repo: str, index: int, *, blocks: bool) -> list[str]:
    ref = ctx.repo(repo)
    api = acting(ctx, ADMIN, DependenciesApi)
    listing = api.list_blocks if blocks else api.list_dependencies
    body = expect_status(listing(ref.owner, ref.name, index, limit=50), 200, "list the linked issues")
    return [_reference(ctx, item) for item in body]


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" made issue {index:d} of "{repo}" depend on issue {other:d} of "{other_repo}"'))
def given_dependency(ctx: ScenarioContext, *, who: str, index: int, repo: str, other: int, other_repo: str) -> None:
    ref = ctx.repo(repo)
    response = acting(ctx, who, DependenciesApi).add_dependency(
        ref.owner, ref.name, index, _meta(ctx, other_repo, other)
    )
    expect_status(response, 201, f"make issue {index} depend on issue {other}")


# ---------------------------------------------------------------- When


@when(phrase('"{who}" makes issue {index:d} of "{repo}" depend on issue {other:d} of "{other_repo}"'))
def when_depend(ctx: ScenarioContext, *, who: str, index: int, repo: str, other: int, other_repo: str) -> None:
    ref = ctx.repo(repo)
    meta = _meta(ctx, other_repo, other)
    ctx.response = acting(ctx, who, DependenciesApi).add_dependency(ref.owner, ref.name, index, meta)


@when(phrase('"{who}" removes the dependency of issue {index:d} of "{repo}" on issue {other:d} of "{other_repo}"'))
def when_undepend(ctx: ScenarioContext, *, who: str, index: int, repo: str, other: int, other_repo: str) -> None:
    ref = ctx.repo(repo)
    meta = _meta(ctx, other_repo, other)
    ctx.response = acting(ctx, who, DependenciesApi).remove_dependency(ref.owner, ref.name, index, meta)


@when(phrase('"{who}" makes issue {index:d} of "{repo}" block issue {other:d} of "{other_repo}"'))
def when_block(ctx: ScenarioContext, *, who: str, index: int, repo: str, other: int, other_repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, DependenciesApi).add_block(
        ref.owner, ref.name, index, _meta(ctx, other_repo, other)
    )


@when(phrase('"{who}" stops issue {index:d} of "{repo}" from blocking issue {other:d} of "{other_repo}"'))
def when_unblock(ctx: ScenarioContext, *, who: str, index: int, repo: str, other: int, other_repo: str) -> None:
    ref = ctx.repo(repo)
    meta = _meta(ctx, other_repo, other)
    ctx.response = acting(ctx, who, DependenciesApi).remove_block(ref.owner, ref.name, index, meta)


@when(phrase('"{who}" adds a dependency to issue {index:d} of "{repo}" with the body'))
def when_depend_body(ctx: ScenarioContext, who: str, index: int, repo: str, docstring: str) -> None:
    ref = ctx.repo(repo)
    option = json_option(ctx, docstring)
    ctx.response = acting(ctx, who, DependenciesApi).add_dependency(ref.owner, ref.name, index, option)


@when(phrase('"{who}" lists the dependencies of issue {index:d} of "{repo}"'))
def when_list_dependencies(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, DependenciesApi).list_dependencies(ref.owner, ref.name, index)


@when(phrase('"{who}" lists the dependencies of issue {index:d} of "{repo}" with "{query}"'))
def when_list_dependencies_paged(ctx: ScenarioContext, who: str, index: int, repo: str, query: str) -> None:
    """``query`` is ``key=value&key=value`` (``page``, ``limit``)."""
    ref = ctx.repo(repo)
    params = dict(part.split("=", 1) for part in query.split("&") if part)
    ctx.response = acting(ctx, who, DependenciesApi).list_dependencies(ref.owner, ref.name, index, **params)


@when(phrase('"{who}" lists the issues blocked by issue {index:d} of "{repo}"'))
def when_list_blocks(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, DependenciesApi).list_blocks(ref.owner, ref.name, index)


# ---------------------------------------------------------------- Then


@then(phrase('the dependencies of issue {index:d} of "{repo}" are "{refs}"'))
def then_dependencies(ctx: ScenarioContext, index: int, repo: str, refs: str) -> None:
    """``refs`` like ``dev/app#1, dev/lib#1`` in link order, or ``none``."""
    found = _listed(ctx, repo, index, blocks=False)
    assert found == _expected(refs), f"issue {index} depends on {found}"


@then(phrase('the issues blocked by issue {index:d} of "{repo}" are "{refs}"'))
def then_blocks(ctx: ScenarioContext, index: int, repo: str, refs: str) -> None:
    found = _listed(ctx, repo, index, blocks=True)
    assert found == _expected(refs), f"issue {index} blocks {found}"


@then(phrase('the response lists the issues "{refs}"'))
def then_response_refs(ctx: ScenarioContext, refs: str) -> None:
    body = json_of(ctx.last_response())
    assert isinstance(body, list), "the response is not a list"
    found = [_reference(ctx, item) for item in body]
    assert found == _expected(refs), f"the response lists {found}"


LAST_ENTRY = (
    'the last timeline entry of issue {index:d} of "{repo}" is a "{kind}" by "{who}" '
    'about issue {other:d} of "{other_repo}"'
)


@then(phrase(LAST_ENTRY))
def then_entry(
    ctx: ScenarioContext, *, index: int, repo: str, kind: str, who: str, other: int, other_repo: str
) -> None:
    """The entry's type, author and ``dependent_issue`` (the other issue of the link)."""
    ref = ctx.repo(repo)
    entries = expect_status(
        acting(ctx, ADMIN, IssuesApi).timeline(ref.owner, ref.name, index), 200, "read the timeline"
    )
    assert entries, "the timeline is empty"
    last = entries[-1]
    assert last["type"] == kind, f"the last entry is a {last['type']!r}"
    assert last["user"]["login"] == ctx.owner_name(who), f"the last entry is by {last['user']['login']}"
    dependent = last.get("dependent_issue")
    assert isinstance(dependent, dict), f"the entry's dependent_issue is {dependent!r}"
    assert _reference(ctx, dependent) == f"{other_repo}#{other}", f"the entry is about {_reference(ctx, dependent)}"

"""Reactions to issues and comments: reacting, removing a reaction, and the reactions listed. The comment
is the one the scenario's last Given step made (:class:`steps.issues.IssueNotes`); checks read with the
admin's token."""

from __future__ import annotations

from typing import Any

from pytest_bdd import given, then, when

from conformance.api.reactions import ReactionsApi
from conformance.context import ScenarioContext
from steps.actors import ADMIN, acting
from steps.common import comma_list, expect_status, response_json, user_name
from steps.issues import IssueNotes
from steps.parsing import phrase

__all__: list[str] = []


def _shown(ctx: ScenarioContext, listed: list[dict[str, Any]]) -> list[str]:
    """``user:content`` of each reaction, users by their short names."""
    shorts = {user_name(ctx, short): short for short in ctx.users}
    logins = [str(item["user"]["login"]) for item in listed]
    return [f"{shorts.get(login, login)}:{item['content']}" for login, item in zip(logins, listed, strict=True)]


def _expected(text: str) -> list[str]:
    return [] if text == "nothing" else [entry.replace(" ", "") for entry in comma_list(text)]


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" reacted "{content}" to issue {index:d} of "{repo}"'))
def given_issue_reaction(ctx: ScenarioContext, who: str, content: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    expect_status(acting(ctx, who, ReactionsApi).add(ref.owner, ref.name, content, index=index), 201, content)


@given(phrase('"{who}" reacted "{content}" to the comment of "{repo}"'))
def given_comment_reaction(ctx: ScenarioContext, issue_notes: IssueNotes, who: str, content: str, repo: str) -> None:
    ref = ctx.repo(repo)
    answer = acting(ctx, who, ReactionsApi).add(ref.owner, ref.name, content, comment_id=issue_notes.comment())
    expect_status(answer, 201, content)


# ---------------------------------------------------------------- When


@when(phrase('"{who}" reacts "{content}" to issue {index:d} of "{repo}"'))
def when_react(ctx: ScenarioContext, who: str, content: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ReactionsApi).add(ref.owner, ref.name, content, index=index)


@when(phrase('"{who}" removes the reaction "{content}" from issue {index:d} of "{repo}"'))
def when_unreact(ctx: ScenarioContext, who: str, content: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ReactionsApi).remove(ref.owner, ref.name, content, index=index)


@when(phrase('"{who}" lists the reactions to issue {index:d} of "{repo}" with "{query}"'))
def when_list(ctx: ScenarioContext, who: str, index: int, repo: str, query: str) -> None:
    """``query`` is ``key=value&key=value`` (page, limit)."""
    ref = ctx.repo(repo)
    params = {key: int(value) for key, value in (part.split("=", 1) for part in query.split("&") if part)}
    ctx.response = acting(ctx, who, ReactionsApi).list(ref.owner, ref.name, index=index, **params)


@when(phrase('"{who}" reacts "{content}" to the comment of "{repo}"'))
def when_react_comment(ctx: ScenarioContext, issue_notes: IssueNotes, who: str, content: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ReactionsApi).add(ref.owner, ref.name, content, comment_id=issue_notes.comment())


@when(phrase('"{who}" removes the reaction "{content}" from the comment of "{repo}"'))
def when_unreact_comment(ctx: ScenarioContext, issue_notes: IssueNotes, who: str, content: str, repo: str) -> None:
    ref = ctx.repo(repo)
    comment = issue_notes.comment()
    ctx.response = acting(ctx, who, ReactionsApi).remove(ref.owner, ref.name, content, comment_id=comment)


@when(phrase('"{who}" lists the reactions to the comment of "{repo}"'))
def when_list_comment(ctx: ScenarioContext, issue_notes: IssueNotes, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ReactionsApi).list(ref.owner, ref.name, comment_id=issue_notes.comment())


# ---------------------------------------------------------------- Then


@then(phrase('the response lists the reactions "{reactions}"'))
def then_lists(ctx: ScenarioContext, reactions: str) -> None:
    """``user:content`` in order (``nothing`` for none)."""
    found = _shown(ctx, response_json(ctx))
    assert found == _expected(reactions), f"the response lists {found}"


@then(phrase('the reactions to issue {index:d} of "{repo}" are "{reactions}"'))
def then_issue_reactions(ctx: ScenarioContext, index: int, repo: str, reactions: str) -> None:
    ref = ctx.repo(repo)
    listed = expect_status(acting(ctx, ADMIN, ReactionsApi).list(ref.owner, ref.name, index=index), 200, "list")
    found = _shown(ctx, listed)
    assert found == _expected(reactions), f"the reactions are {found}"


@then(phrase('the reactions to the comment of "{repo}" are "{reactions}"'))
def then_comment_reactions(ctx: ScenarioContext, issue_notes: IssueNotes, repo: str, reactions: str) -> None:
    ref = ctx.repo(repo)
    answer = acting(ctx, ADMIN, ReactionsApi).list(ref.owner, ref.name, comment_id=issue_notes.comment())
    found = _shown(ctx, expect_status(answer, 200, "list"))
    assert found == _expected(reactions), f"the reactions are {found}"

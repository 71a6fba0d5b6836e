"""Issues and locks: opening, listing, editing, commenting, the timeline, and locking and unlocking.

Issues are named by their number in the scenario's repository (``issue 1 of "dev/app"``): every
scenario has fresh repositories, so its first issue is number 1 on any forge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.issues import IssuesApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from conformance.seeding import SeededData
from steps.actors import ADMIN, acting
from steps.common import comma_list, expect_status, json_option, same_instant
from steps.parsing import phrase

__all__ = ["IssueNotes"]


@dataclass
class IssueNotes:
    """The numbers of the issues Given steps opened (by repository and title), and the last comment made."""

    numbers: dict[tuple[str, str], int] = field(default_factory=dict)
    comment_id: int | None = None
    noted_url: str = ""
    """An address a Given step kept for a later request (an attachment's download URL)."""

    def number(self, repo: str, title: str) -> int:
        """The number of the issue a Given step opened with this title."""
        found = self.numbers.get((repo, title))
        assert found is not None, f'no issue "{title}" in "{repo}": add `Given "..." opened the issue "{title}" in ...`'
        return found

    def comment(self) -> int:
        """The id of the comment a Given step made."""
        assert self.comment_id is not None, 'no comment yet: add `Given "..." commented "..." on issue ...`'
        return self.comment_id


@pytest.fixture
def issue_notes() -> IssueNotes:
    """The scenario's issues and comments."""
    return IssueNotes()


def _issue(ctx: ScenarioContext, repo: str, index: int) -> dict[str, Any]:
    ref = ctx.repo(repo)
    body = expect_status(
        acting(ctx, ADMIN, IssuesApi).get_issue(ref.owner, ref.name, index), 200, f"read issue {index}"
    )
    assert isinstance(body, dict)
    return body


def _timeline(ctx: ScenarioContext, repo: str, index: int) -> list[dict[str, Any]]:
    ref = ctx.repo(repo)
    body = expect_status(acting(ctx, ADMIN, IssuesApi).timeline(ref.owner, ref.name, index), 200, "read the timeline")
    assert isinstance(body, list)
    return body


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" opened the issue "{title}" in "{repo}"'))
def given_issue(
    ctx: ScenarioContext, issue_notes: IssueNotes, fake: SeededData, *, who: str, title: str, repo: str
) -> None:
    """Opens the issue (its body drawn) and notes its number by title."""
    ref = ctx.repo(repo)
    created = acting(ctx, who, IssuesApi).create_issue(ref.owner, ref.name, {"title": title, "body": fake.paragraph()})
    issue = expect_status(created, 201, f'open "{title}"')
    issue_notes.numbers[repo, title] = int(issue["number"])


@given(phrase('"{who}" commented "{body}" on issue {index:d} of "{repo}"'))
def given_comment(ctx: ScenarioContext, issue_notes: IssueNotes, *, who: str, body: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    comment = expect_status(
        acting(ctx, who, IssuesApi).create_comment(ref.owner, ref.name, index, body), 201, "comment"
    )
    issue_notes.comment_id = int(comment["id"])


@given(phrase('"{who}" edited issue {index:d} of "{repo}" with the body'))
def given_edited(ctx: ScenarioContext, who: str, index: int, repo: str, docstring: str) -> None:
    ref = ctx.repo(repo)
    option = json_option(ctx, docstring)
    expect_status(
        acting(ctx, who, IssuesApi).edit_issue(ref.owner, ref.name, index, option), 201, f"edit issue {index}"
    )


@given(phrase('"{who}" locked issue {index:d} of "{repo}"'))
def given_locked(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    expect_status(acting(ctx, who, IssuesApi).lock(ref.owner, ref.name, index, "Off-topic"), 204, f"lock issue {index}")


@given(phrase('"{who}" deleted issue {index:d} of "{repo}"'))
def given_deleted(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    expect_status(acting(ctx, who, IssuesApi).delete_issue(ref.owner, ref.name, index), 204, f"delete issue {index}")


# ---------------------------------------------------------------- When


@when(phrase('"{who}" opens the issue "{title}" in "{repo}"'))
def when_open(ctx: ScenarioContext, fake: SeededData, who: str, title: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, IssuesApi).create_issue(
        ref.owner, ref.name, {"title": title, "body": fake.paragraph()}
    )


@when(phrase('"{who}" opens an issue in "{repo}" with the body'))
def when_open_with(ctx: ScenarioContext, who: str, repo: str, docstring: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, IssuesApi).create_issue(ref.owner, ref.name, json_option(ctx, docstring))


@when(phrase('"{who}" lists the issues of "{repo}" with "{query}"'))
def when_list(ctx: ScenarioContext, who: str, repo: str, query: str) -> None:
    """``query`` is ``key=value&key=value`` (state, type, q, page, limit)."""
    ref = ctx.repo(repo)
    params = dict(part.split("=", 1) for part in query.split("&") if part)
    ctx.response = acting(ctx, who, IssuesApi).list_issues(ref.owner, ref.name, **params)


@when(phrase('"{who}" reads issue {index:d} of "{repo}"'))
def when_read(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, IssuesApi).get_issue(ref.owner, ref.name, index)


@when(phrase('"{who}" edits issue {index:d} of "{repo}" with the body'))
def when_edit(ctx: ScenarioContext, who: str, index: int, repo: str, docstring: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, IssuesApi).edit_issue(ref.owner, ref.name, index, json_option(ctx, docstring))


@when(phrase('"{who}" comments "{body}" on issue {index:d} of "{repo}"'))
def when_comment(ctx: ScenarioContext, who: str, body: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, IssuesApi).create_comment(ref.owner, ref.name, index, body)


@when(phrase('"{who}" changes the comment of "{repo}" to "{body}"'))
def when_edit_comment(ctx: ScenarioContext, issue_notes: IssueNotes, who: str, repo: str, body: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, IssuesApi).edit_comment(ref.owner, ref.name, issue_notes.comment(), body)


@when(phrase('"{who}" deletes the comment of "{repo}"'))
def when_delete_comment(ctx: ScenarioContext, issue_notes: IssueNotes, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, IssuesApi).delete_comment(ref.owner, ref.name, issue_notes.comment())


@when(phrase('"{who}" reads the timeline of issue {index:d} of "{repo}"'))
def when_timeline(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, IssuesApi).timeline(ref.owner, ref.name, index)


@when(phrase('"{who}" locks issue {index:d} of "{repo}" with the reason "{reason}"'))
def when_lock_reason(ctx: ScenarioContext, who: str, index: int, repo: str, reason: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, IssuesApi).lock(ref.owner, ref.name, index, reason)


@when(phrase('"{who}" locks issue {index:d} of "{repo}"'))
def when_lock(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, IssuesApi).lock(ref.owner, ref.name, index)


@when(phrase('"{who}" unlocks issue {index:d} of "{repo}"'))
def when_unlock(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, IssuesApi).unlock(ref.owner, ref.name, index)


@when(phrase('"{who}" deletes issue {index:d} of "{repo}"'))
def when_delete(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, IssuesApi).delete_issue(ref.owner, ref.name, index)


@when(phrase('"{who}" sets the deadline of issue {index:d} of "{repo}" to "{moment}"'))
def when_deadline(ctx: ScenarioContext, who: str, index: int, repo: str, moment: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, IssuesApi).set_deadline(ref.owner, ref.name, index, moment)


@when(phrase('"{who}" reads the comment of "{repo}"'))
def when_read_comment(ctx: ScenarioContext, issue_notes: IssueNotes, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, IssuesApi).get_comment(ref.owner, ref.name, issue_notes.comment())


@when(phrase('"{who}" changes the comment of issue {index:d} of "{repo}" to "{body}" by the old route'))
def when_edit_old(ctx: ScenarioContext, issue_notes: IssueNotes, *, who: str, index: int, repo: str, body: str) -> None:
    """Gitea's deprecated ``PATCH .../issues/{index}/comments/{id}``."""
    ref = ctx.repo(repo)
    api = acting(ctx, who, IssuesApi)
    ctx.response = api.edit_comment_deprecated(ref.owner, ref.name, index, issue_notes.comment(), body)


@when(phrase('"{who}" deletes the comment of issue {index:d} of "{repo}" by the old route'))
def when_delete_old(ctx: ScenarioContext, issue_notes: IssueNotes, who: str, index: int, repo: str) -> None:
    """Gitea's deprecated ``DELETE .../issues/{index}/comments/{id}``."""
    ref = ctx.repo(repo)
    api = acting(ctx, who, IssuesApi)
    ctx.response = api.delete_comment_deprecated(ref.owner, ref.name, index, issue_notes.comment())


@when(phrase('"{who}" lists the comments of "{repo}" with "{query}"'))
def when_repo_comments(ctx: ScenarioContext, who: str, repo: str, query: str) -> None:
    """Every comment of the repository; ``query`` is ``key=value&key=value`` (since, before, page, limit)."""
    ref = ctx.repo(repo)
    params = dict(part.split("=", 1) for part in query.split("&") if part)
    ctx.response = acting(ctx, who, IssuesApi).repo_comments(ref.owner, ref.name, **params)


# ---------------------------------------------------------------- Then


@then(phrase('issue {index:d} of "{repo}" is locked'))
def then_locked(ctx: ScenarioContext, index: int, repo: str) -> None:
    assert _issue(ctx, repo, index)["is_locked"] is True, "the issue is not locked"


@then(phrase('issue {index:d} of "{repo}" is not locked'))
def then_unlocked(ctx: ScenarioContext, index: int, repo: str) -> None:
    assert _issue(ctx, repo, index)["is_locked"] is False, "the issue is locked"


@then(phrase('issue {index:d} of "{repo}" has {count:d} comments'))
def then_comment_count(ctx: ScenarioContext, index: int, repo: str, count: int) -> None:
    ref = ctx.repo(repo)
    listed = expect_status(
        acting(ctx, ADMIN, IssuesApi).list_comments(ref.owner, ref.name, index), 200, "list comments"
    )
    assert len(listed) == count, f"expected {count} comments, found {len(listed)}"
    assert _issue(ctx, repo, index)["comments"] == count


@then(phrase('issue {index:d} of "{repo}" has the title "{title}" and is {state}'))
def then_title_state(ctx: ScenarioContext, index: int, repo: str, title: str, state: str) -> None:
    issue = _issue(ctx, repo, index)
    assert (issue["title"], issue["state"]) == (title, state), f"the issue is {issue['title']!r}, {issue['state']}"


@then(phrase('issue {index:d} of "{repo}" has the body "{body}" at content version {version:d}'))
def then_body_version(ctx: ScenarioContext, index: int, repo: str, body: str, version: int) -> None:
    """The stored body and ``content_version``, read back by the admin."""
    issue = _issue(ctx, repo, index)
    found = (issue["body"], issue.get("content_version"))
    assert found == (body, version), f"the issue has the body {found[0]!r} at content version {found[1]!r}"


@then(phrase('"{repo}" has {count:d} issues'))
def then_issue_count(ctx: ScenarioContext, repo: str, count: int) -> None:
    ref = ctx.repo(repo)
    response = acting(ctx, ADMIN, IssuesApi).list_issues(ref.owner, ref.name, state="all")
    assert len(expect_status(response, 200, "list the issues")) == count


@then(phrase('the timeline of issue {index:d} of "{repo}" has the types "{types}"'))
def then_timeline_types(ctx: ScenarioContext, index: int, repo: str, types: str) -> None:
    """The entries' ``type`` in order (comma separated; ``nothing`` for an empty timeline)."""
    expected = [] if types == "nothing" else [kind.strip() for kind in types.split(",")]
    found = [entry["type"] for entry in _timeline(ctx, repo, index)]
    assert found == expected, f"the timeline has {found}, expected {expected}"


@then(phrase('the last timeline entry of issue {index:d} of "{repo}" is a "{kind}" by "{who}" saying "{body}"'))
def then_last_entry(ctx: ScenarioContext, *, index: int, repo: str, kind: str, who: str, body: str) -> None:
    entries = _timeline(ctx, repo, index)
    assert entries, "the timeline is empty"
    last = entries[-1]
    assert last["type"] == kind, f"the last entry is a {last['type']!r}"
    assert last["body"] == body, f"the last entry says {last['body']!r}"
    assert last["user"]["login"] == ctx.owner_name(who), f"the last entry is by {last['user']['login']}"


@then(phrase('the response lists the issue numbers "{numbers}"'))
def then_numbers(ctx: ScenarioContext, numbers: str) -> None:
    expected = [int(number) for number in numbers.split(",") if number.strip()]
    found = [item["number"] for item in json_of(ctx.last_response())]
    assert found == expected, f"the response lists {found}, expected {expected}"


@then(phrase('issue {index:d} of "{repo}" no longer exists'))
def then_issue_gone(ctx: ScenarioContext, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    answer = acting(ctx, ADMIN, IssuesApi).get_issue(ref.owner, ref.name, index)
    assert answer.status_code == 404, f"issue {index} is still there: {answer.status_code}"


@then(phrase('the comment of "{repo}" no longer exists'))
def then_comment_gone(ctx: ScenarioContext, issue_notes: IssueNotes, repo: str) -> None:
    ref = ctx.repo(repo)
    answer = acting(ctx, ADMIN, IssuesApi).get_comment(ref.owner, ref.name, issue_notes.comment())
    assert answer.status_code == 404, f"the comment is still there: {answer.status_code}"


@then(phrase('the response lists the comments "{bodies}"'))
def then_comment_bodies(ctx: ScenarioContext, bodies: str) -> None:
    """The comments' bodies in order (``nothing`` for none)."""
    expected = [] if bodies == "nothing" else comma_list(bodies)
    found = [item["body"] for item in json_of(ctx.last_response())]
    assert found == expected, f"the response lists {found}, expected {expected}"


@then(phrase('issue {index:d} of "{repo}" is due at "{moment}"'))
def then_due(ctx: ScenarioContext, index: int, repo: str, moment: str) -> None:
    """The Issue's ``due_date`` is that instant (``never``: null)."""
    due = _issue(ctx, repo, index)["due_date"]
    if moment == "never":
        assert due is None, f"the issue is due at {due}"
        return
    assert due is not None, "the issue has no due date"
    assert same_instant(due, moment), f"the issue is due at {due}, expected {moment}"

"""Files attached to issues and comments: uploading, listing, reading, renaming, deleting and downloading
them. The comment is the one the scenario's last Given step made (:class:`steps.issues.IssueNotes`); an
attachment is named by its file name, its id and download URL looked up with the admin's token."""

from __future__ import annotations

from typing import Any

from pytest_bdd import given, then, when

from conformance.api.attachments import AttachmentsApi
from conformance.api.issues import IssuesApi
from conformance.context import ScenarioContext
from steps.actors import ADMIN, acting
from steps.common import comma_list, expect_status, response_json
from steps.issues import IssueNotes
from steps.parsing import phrase

__all__: list[str] = []


def _target(notes: IssueNotes, place: str) -> dict[str, int]:
    """``issue N`` or ``the comment`` as the keyword arguments of :class:`AttachmentsApi`."""
    if place == "the comment":
        return {"comment_id": notes.comment()}
    kind, _, number = place.partition(" ")
    assert kind == "issue" and number.isdigit(), f'say "issue N" or "the comment", not {place!r}'
    return {"index": int(number)}


def _listed(ctx: ScenarioContext, notes: IssueNotes, place: str, repo: str) -> list[dict[str, Any]]:
    ref = ctx.repo(repo)
    answer = acting(ctx, ADMIN, AttachmentsApi).list(ref.owner, ref.name, **_target(notes, place))
    return list(expect_status(answer, 200, f"list the attachments of {place}"))


def _attachment(ctx: ScenarioContext, notes: IssueNotes, place: str, repo: str, name: str) -> dict[str, Any]:
    for item in _listed(ctx, notes, place, repo):
        if item["name"] == name:
            return item
    raise AssertionError(f'{place} of "{repo}" has no attachment "{name}"')


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" attached "{name}" with content "{content}" to {place} of "{repo}"'))
def given_attached(
    ctx: ScenarioContext, issue_notes: IssueNotes, *, who: str, name: str, content: str, place: str, repo: str
) -> None:
    ref = ctx.repo(repo)
    api = acting(ctx, who, AttachmentsApi)
    expect_status(api.upload(ref.owner, ref.name, name, content.encode(), **_target(issue_notes, place)), 201, name)


@given(phrase('the download address of "{name}" of {place} of "{repo}" is noted'))
def given_noted(ctx: ScenarioContext, issue_notes: IssueNotes, name: str, place: str, repo: str) -> None:
    """Keep the attachment's ``browser_download_url`` for a download after it is gone."""
    issue_notes.noted_url = str(_attachment(ctx, issue_notes, place, repo, name)["browser_download_url"])


@given(phrase('"{who}" deleted the attachment "{name}" of {place} of "{repo}"'))
def given_deleted(ctx: ScenarioContext, issue_notes: IssueNotes, *, who: str, name: str, place: str, repo: str) -> None:
    ref = ctx.repo(repo)
    found = int(_attachment(ctx, issue_notes, place, repo, name)["id"])
    answer = acting(ctx, who, AttachmentsApi).delete(ref.owner, ref.name, found, **_target(issue_notes, place))
    expect_status(answer, 204, f"delete {name}")


# ---------------------------------------------------------------- When


@when(phrase('"{who}" attaches "{name}" with content "{content}" to {place} of "{repo}"'))
def when_attach(
    ctx: ScenarioContext, issue_notes: IssueNotes, *, who: str, name: str, content: str, place: str, repo: str
) -> None:
    ref = ctx.repo(repo)
    target = _target(issue_notes, place)
    ctx.response = acting(ctx, who, AttachmentsApi).upload(ref.owner, ref.name, name, content.encode(), **target)


@when(phrase('"{who}" lists the attachments of {place} of "{repo}"'))
def when_list(ctx: ScenarioContext, issue_notes: IssueNotes, who: str, place: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, AttachmentsApi).list(ref.owner, ref.name, **_target(issue_notes, place))


@when(phrase('"{who}" reads the attachment "{name}" of {place} of "{repo}"'))
def when_read(ctx: ScenarioContext, issue_notes: IssueNotes, *, who: str, name: str, place: str, repo: str) -> None:
    ref = ctx.repo(repo)
    found = int(_attachment(ctx, issue_notes, place, repo, name)["id"])
    ctx.response = acting(ctx, who, AttachmentsApi).get(ref.owner, ref.name, found, **_target(issue_notes, place))


@when(phrase('"{who}" renames the attachment "{name}" of {place} of "{repo}" to "{new_name}"'))
def when_rename(
    ctx: ScenarioContext, issue_notes: IssueNotes, *, who: str, name: str, place: str, repo: str, new_name: str
) -> None:
    ref = ctx.repo(repo)
    found = int(_attachment(ctx, issue_notes, place, repo, name)["id"])
    target = _target(issue_notes, place)
    ctx.response = acting(ctx, who, AttachmentsApi).rename(ref.owner, ref.name, found, new_name, **target)


@when(phrase('"{who}" deletes the attachment "{name}" of {place} of "{repo}"'))
def when_delete(ctx: ScenarioContext, issue_notes: IssueNotes, *, who: str, name: str, place: str, repo: str) -> None:
    ref = ctx.repo(repo)
    found = int(_attachment(ctx, issue_notes, place, repo, name)["id"])
    ctx.response = acting(ctx, who, AttachmentsApi).delete(ref.owner, ref.name, found, **_target(issue_notes, place))


@when(phrase('"{who}" reads the attachment "{name}" of issue {index:d} of "{repo}" through the comment'))
def when_read_elsewhere(
    ctx: ScenarioContext, issue_notes: IssueNotes, *, who: str, name: str, index: int, repo: str
) -> None:
    """An issue's own attachment asked for as the comment's: Gitea's 404."""
    ref = ctx.repo(repo)
    found = int(_attachment(ctx, issue_notes, f"issue {index}", repo, name)["id"])
    comment = issue_notes.comment()
    ctx.response = acting(ctx, who, AttachmentsApi).get(ref.owner, ref.name, found, comment_id=comment)


@when(phrase('"{who}" downloads the attachment "{name}" of {place} of "{repo}"'))
def when_download(ctx: ScenarioContext, issue_notes: IssueNotes, *, who: str, name: str, place: str, repo: str) -> None:
    """A GET of the attachment's ``browser_download_url``."""
    url = str(_attachment(ctx, issue_notes, place, repo, name)["browser_download_url"])
    ctx.response = acting(ctx, who, AttachmentsApi).download(url)


@when(phrase('"{who}" downloads the noted address'))
def when_download_noted(ctx: ScenarioContext, issue_notes: IssueNotes, who: str) -> None:
    assert issue_notes.noted_url, 'no address noted: add `Given the download address of "..." ... is noted`'
    ctx.response = acting(ctx, who, AttachmentsApi).download(issue_notes.noted_url)


# ---------------------------------------------------------------- Then


@then(phrase('the attachments of {place} of "{repo}" are "{names}"'))
def then_names(ctx: ScenarioContext, issue_notes: IssueNotes, place: str, repo: str, names: str) -> None:
    """File names in order (``nothing`` for none), read by the admin."""
    expected = [] if names == "nothing" else comma_list(names)
    found = [item["name"] for item in _listed(ctx, issue_notes, place, repo)]
    assert found == expected, f"the attachments are {found}, expected {expected}"


@then(phrase('the response lists the attachments "{names}"'))
def then_lists(ctx: ScenarioContext, names: str) -> None:
    expected = [] if names == "nothing" else comma_list(names)
    found = [item["name"] for item in response_json(ctx)]
    assert found == expected, f"the response lists {found}, expected {expected}"


@then(phrase('issue {index:d} of "{repo}" shows the asset "{name}" of {size:d} bytes'))
def then_issue_asset(ctx: ScenarioContext, index: int, repo: str, name: str, size: int) -> None:
    """The ``assets`` of the Issue model."""
    ref = ctx.repo(repo)
    issue = expect_status(acting(ctx, ADMIN, IssuesApi).get_issue(ref.owner, ref.name, index), 200, "read")
    found = [(item["name"], item["size"]) for item in issue["assets"]]
    assert found == [(name, size)], f"the issue shows the assets {found}"


@then(phrase('the comment of "{repo}" shows the asset "{name}"'))
def then_comment_asset(ctx: ScenarioContext, issue_notes: IssueNotes, repo: str, name: str) -> None:
    """The ``assets`` of the Comment model."""
    ref = ctx.repo(repo)
    answer = acting(ctx, ADMIN, IssuesApi).get_comment(ref.owner, ref.name, issue_notes.comment())
    found = [item["name"] for item in expect_status(answer, 200, "read the comment")["assets"]]
    assert found == [name], f"the comment shows the assets {found}"

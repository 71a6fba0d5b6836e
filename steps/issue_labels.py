"""Steps of the labels on an issue: added by name or id, replaced, removed one at a time, cleared."""

from __future__ import annotations

from pytest_bdd import given, then, when

from conformance.api.issues import IssuesApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from steps.actors import ADMIN, acting
from steps.common import comma_list
from steps.issues import IssueNotes
from steps.parsing import phrase
from steps.templates import TemplateNotes


def _issue(ctx: ScenarioContext, issue_notes: IssueNotes, repo: str, title: str) -> tuple[str, str, int]:
    ref = ctx.repo(repo)
    return ref.owner, ref.name, issue_notes.number(repo, title)


@given(phrase('"{who}" adds the labels "{names}" to the issue "{title}" in "{repo}"'))
@when(phrase('"{who}" adds the labels "{names}" to the issue "{title}" in "{repo}"'))
def add_by_name(ctx: ScenarioContext, issue_notes: IssueNotes, *, who: str, names: str, title: str, repo: str) -> None:
    ctx.response = acting(ctx, who, IssuesApi).add_labels(*_issue(ctx, issue_notes, repo, title), comma_list(names))


@when(phrase('"{who}" adds the label "{name}" by its id to the issue "{title}" in "{repo}"'))
def add_by_id(
    ctx: ScenarioContext,
    issue_notes: IssueNotes,
    template_notes: TemplateNotes,
    *,
    who: str,
    name: str,
    title: str,
    repo: str,
) -> None:
    label_id = template_notes.labels[repo, name]
    ctx.response = acting(ctx, who, IssuesApi).add_labels(*_issue(ctx, issue_notes, repo, title), [label_id])


@when(phrase('"{who}" replaces the labels of the issue "{title}" in "{repo}" with "{names}"'))
def replace(ctx: ScenarioContext, issue_notes: IssueNotes, *, who: str, title: str, repo: str, names: str) -> None:
    ctx.response = acting(ctx, who, IssuesApi).replace_labels(*_issue(ctx, issue_notes, repo, title), comma_list(names))


@when(phrase('"{who}" removes the label "{name}" from the issue "{title}" in "{repo}"'))
def remove(
    ctx: ScenarioContext,
    issue_notes: IssueNotes,
    template_notes: TemplateNotes,
    *,
    who: str,
    name: str,
    title: str,
    repo: str,
) -> None:
    label_id = template_notes.labels[repo, name]
    ctx.response = acting(ctx, who, IssuesApi).remove_label(*_issue(ctx, issue_notes, repo, title), label_id)


@when(phrase('"{who}" clears the labels of the issue "{title}" in "{repo}"'))
def clear(ctx: ScenarioContext, issue_notes: IssueNotes, *, who: str, title: str, repo: str) -> None:
    ctx.response = acting(ctx, who, IssuesApi).clear_labels(*_issue(ctx, issue_notes, repo, title))


@then(phrase('the issue "{title}" in "{repo}" has the labels "{names}"'))
def has_labels(ctx: ScenarioContext, issue_notes: IssueNotes, *, title: str, repo: str, names: str) -> None:
    """Both the label list of the issue and the issue itself show exactly these labels (none for "none")."""
    api = acting(ctx, ADMIN, IssuesApi)
    where = _issue(ctx, issue_notes, repo, title)
    expected = sorted(name for name in comma_list(names) if name != "none")
    listed = sorted(label["name"] for label in json_of(api.issue_labels(*where)))
    shown = sorted(label["name"] for label in json_of(api.get_issue(*where))["labels"])
    assert listed == expected, f"the issue's label list is {listed}, expected {expected}"
    assert shown == expected, f"the issue shows the labels {shown}, expected {expected}"

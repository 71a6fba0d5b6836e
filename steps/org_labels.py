"""Steps of an organization's labels (``/orgs/{org}/labels``) and of their use on its repositories' issues.

The ids of the labels a scenario makes are kept by organization and name (:class:`OrgLabelNotes`); an
organization label on an issue is told from a repository label by its ``url`` (under ``/orgs/{org}/labels``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from pytest_bdd import given, then, when

from conformance.api.issues import IssuesApi
from conformance.api.labels import LabelsApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from steps.actors import ADMIN, acting, org_owner
from steps.common import comma_list, expect_status, json_document
from steps.issues import IssueNotes
from steps.parsing import phrase

__all__ = ["OrgLabelNotes"]


@dataclass
class OrgLabelNotes:
    """The ids of the organization labels the scenario made, by organization and label name."""

    ids: dict[tuple[str, str], int] = field(default_factory=dict)

    def label_id(self, org: str, name: str) -> int:
        found = self.ids.get((org, name))
        assert found is not None, f'the scenario made no label "{name}" in the organization "{org}"'
        return found


@pytest.fixture
def org_label_notes() -> OrgLabelNotes:
    """The scenario's organization labels."""
    return OrgLabelNotes()


def _keep(ctx: ScenarioContext, notes: OrgLabelNotes, org: str) -> None:
    if ctx.last_response().status_code == 201:
        body = json_of(ctx.last_response())
        notes.ids[org, str(body["name"])] = int(body["id"])


# ---------------------------------------------------------------- Given


def _given(ctx: ScenarioContext, notes: OrgLabelNotes, org: str, body: dict[str, object]) -> None:
    response = org_owner(ctx, org).api.area(LabelsApi).create_org(ctx.orgs[org], body)
    notes.ids[org, str(body["name"])] = int(expect_status(response, 201, f'create the label "{body["name"]}"')["id"])


@given(phrase('the organization "{org}" has the label "{name}" with the color "{color}"'))
def given_org_label(ctx: ScenarioContext, org_label_notes: OrgLabelNotes, org: str, name: str, color: str) -> None:
    """A label made by the organization's owner."""
    _given(ctx, org_label_notes, org, {"name": name, "color": color})


@given(phrase('the organization "{org}" has the exclusive label "{name}" with the color "{color}"'))
def given_exclusive_label(
    ctx: ScenarioContext, org_label_notes: OrgLabelNotes, org: str, name: str, color: str
) -> None:
    """An exclusive (scoped) label made by the organization's owner."""
    _given(ctx, org_label_notes, org, {"name": name, "color": color, "exclusive": True})


# ---------------------------------------------------------------- When


@when(phrase('"{who}" creates in the organization "{org}" the label'))
def when_create(ctx: ScenarioContext, org_label_notes: OrgLabelNotes, who: str, org: str, docstring: str) -> None:
    """``POST /orgs/{org}/labels`` with the JSON body of the step."""
    ctx.response = acting(ctx, who, LabelsApi).create_org(ctx.orgs[org], json_document(docstring))
    _keep(ctx, org_label_notes, org)


@when(phrase('"{who}" lists the labels of the organization "{org}"'))
def when_list(ctx: ScenarioContext, who: str, org: str) -> None:
    ctx.response = acting(ctx, who, LabelsApi).list_org(ctx.orgs[org])


@when(phrase('"{who}" lists page {page:d} of the labels of the organization "{org}" with {limit:d} per page'))
def when_list_page(ctx: ScenarioContext, who: str, org: str, limit: int, page: int) -> None:
    ctx.response = acting(ctx, who, LabelsApi).list_org(ctx.orgs[org], page=page, limit=limit)


@when(phrase('"{who}" reads the label "{name}" of the organization "{org}"'))
def when_get(ctx: ScenarioContext, org_label_notes: OrgLabelNotes, who: str, name: str, org: str) -> None:
    ctx.response = acting(ctx, who, LabelsApi).get_org(ctx.orgs[org], org_label_notes.label_id(org, name))


@when(phrase('"{who}" reads the label "{name}" of the organization "{org}" through the organization "{other}"'))
def when_get_elsewhere(
    ctx: ScenarioContext, org_label_notes: OrgLabelNotes, *, who: str, name: str, org: str, other: str
) -> None:
    """A label's id under another organization's path."""
    ctx.response = acting(ctx, who, LabelsApi).get_org(ctx.orgs[other], org_label_notes.label_id(org, name))


@when(phrase('"{who}" edits the label "{name}" of the organization "{org}" with'))
def when_edit(
    ctx: ScenarioContext, org_label_notes: OrgLabelNotes, *, who: str, name: str, org: str, docstring: str
) -> None:
    ctx.response = acting(ctx, who, LabelsApi).edit_org(
        ctx.orgs[org], org_label_notes.label_id(org, name), json_document(docstring)
    )


@when(phrase('"{who}" deletes the label "{name}" of the organization "{org}"'))
def when_delete(ctx: ScenarioContext, org_label_notes: OrgLabelNotes, who: str, name: str, org: str) -> None:
    ctx.response = acting(ctx, who, LabelsApi).delete_org(ctx.orgs[org], org_label_notes.label_id(org, name))


@given(
    phrase('"{who}" adds the label "{name}" of the organization "{org}" by its id to the issue "{title}" in "{repo}"')
)
@when(
    phrase('"{who}" adds the label "{name}" of the organization "{org}" by its id to the issue "{title}" in "{repo}"')
)
def when_add_to_issue(
    ctx: ScenarioContext,
    org_label_notes: OrgLabelNotes,
    issue_notes: IssueNotes,
    *,
    who: str,
    name: str,
    org: str,
    title: str,
    repo: str,
) -> None:
    """``POST .../issues/{index}/labels`` naming the organization label by its id."""
    ref = ctx.repo(repo)
    label_id = org_label_notes.label_id(org, name)
    ctx.response = acting(ctx, who, IssuesApi).add_labels(
        ref.owner, ref.name, issue_notes.number(repo, title), [label_id]
    )


# ---------------------------------------------------------------- Then


@then(phrase('the response is the label "{name}" of the organization "{org}"'))
def then_is_label(ctx: ScenarioContext, org_label_notes: OrgLabelNotes, name: str, org: str) -> None:
    """The answer is that label: its id, its name and its URL under the organization's labels."""
    body = json_of(ctx.last_response())
    label_id = org_label_notes.label_id(org, name)
    assert (body["id"], body["name"]) == (label_id, name), f"the answer is {body}"
    assert str(body["url"]).endswith(f"/orgs/{ctx.orgs[org]}/labels/{label_id}"), f"url is {body['url']!r}"


@then(phrase('the issue "{title}" in "{repo}" shows "{name}" as the label of the organization "{org}"'))
def then_issue_shows(
    ctx: ScenarioContext,
    org_label_notes: OrgLabelNotes,
    issue_notes: IssueNotes,
    *,
    title: str,
    repo: str,
    name: str,
    org: str,
) -> None:
    """The issue's labels hold the organization label with its own id and its organization URL."""
    ref = ctx.repo(repo)
    labels = json_of(acting(ctx, ADMIN, IssuesApi).issue_labels(ref.owner, ref.name, issue_notes.number(repo, title)))
    label_id = org_label_notes.label_id(org, name)
    found = [label for label in labels if label["id"] == label_id]
    assert found, f"the issue's labels {labels} do not hold the label {label_id}"
    assert found[0]["name"] == name, f"the label is {found[0]}"
    assert str(found[0]["url"]).endswith(f"/orgs/{ctx.orgs[org]}/labels/{label_id}"), found[0]["url"]


@then(phrase('the response lists the labels "{names}" in this order'))
def then_lists(ctx: ScenarioContext, names: str) -> None:
    """The answer is a list of labels with exactly these names, in this order."""
    listed = [label["name"] for label in json_of(ctx.last_response())]
    assert listed == comma_list(names), f"the labels listed are {listed}"


@then(phrase('the label "{name}" of the organization "{org}" no longer exists'))
def then_gone(ctx: ScenarioContext, org_label_notes: OrgLabelNotes, name: str, org: str) -> None:
    """Reading the deleted label's id answers 404."""
    response = org_owner(ctx, org).api.area(LabelsApi).get_org(ctx.orgs[org], org_label_notes.label_id(org, name))
    assert response.status_code == 404, f"the label still answers {response.status_code}"


@then(phrase('the organization "{org}" has {count:d} labels'))
def then_count(ctx: ScenarioContext, org: str, count: int) -> None:
    """The organization's label list (read by its owner) has exactly ``count`` entries."""
    response = org_owner(ctx, org).api.area(LabelsApi).list_org(ctx.orgs[org], limit=50)
    assert response.status_code == 200, response.text[:300]
    assert len(json_of(response)) == count, f"the organization has the labels {json_of(response)}"

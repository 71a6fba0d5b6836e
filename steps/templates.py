"""Steps of the templates area: license, gitignore and label templates, repository creation that names
templates, and the repository labels a label template gives.

Template data is never hard-coded as the expected result: a Then compares what a repository got with
what the same target serves under ``/licenses``, ``/gitignore/templates`` and ``/label/templates``.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.labels import LabelsApi
from conformance.api.templates import TemplatesApi
from conformance.client import json_of
from conformance.context import RepoRef, ScenarioContext
from conformance.identities import IdentityFactory
from conformance.ledger import CleanupLedger
from steps.actors import ADMIN, acting
from steps.common import expect_status, json_document, response_json
from steps.parsing import phrase


@dataclass
class TemplateNotes:
    """The answer each repository created with template options got, the ids of labels by repository and
    name, and each repository's label count before a label creation."""

    created: dict[str, dict[str, Any]] = field(default_factory=dict)
    labels: dict[tuple[str, str], int] = field(default_factory=dict)
    label_counts: dict[str, int] = field(default_factory=dict)

    def label_id(self, repo: str, name: str) -> int:
        """The id of a label the scenario made."""
        found = self.labels.get((repo, name))
        assert found is not None, f'the scenario made no label "{name}" in "{repo}"'
        return found


@pytest.fixture
def template_notes() -> TemplateNotes:
    """The scenario's template notes."""
    return TemplateNotes()


def _expect_json(response: Any, what: str) -> Any:
    return expect_status(response, 200, f"could not {what}")


# ---------------------------------------------------------------- templates


@when(phrase('"{who}" lists the license templates'))
def list_licenses(ctx: ScenarioContext, who: str) -> None:
    """``GET /licenses``."""
    ctx.response = acting(ctx, who, TemplatesApi).list_licenses()


@when(phrase('"{who}" reads the license template "{name}"'))
def read_license(ctx: ScenarioContext, who: str, name: str) -> None:
    """``GET /licenses/{name}``."""
    ctx.response = acting(ctx, who, TemplatesApi).get_license(name)


@when(phrase('"{who}" lists the gitignore templates'))
def list_gitignores(ctx: ScenarioContext, who: str) -> None:
    """``GET /gitignore/templates``."""
    ctx.response = acting(ctx, who, TemplatesApi).list_gitignores()


@when(phrase('"{who}" reads the gitignore template "{name}"'))
def read_gitignore(ctx: ScenarioContext, who: str, name: str) -> None:
    """``GET /gitignore/templates/{name}``."""
    ctx.response = acting(ctx, who, TemplatesApi).get_gitignore(name)


@when(phrase('"{who}" lists the label templates'))
def list_label_templates(ctx: ScenarioContext, who: str) -> None:
    """``GET /label/templates``."""
    ctx.response = acting(ctx, who, TemplatesApi).list_label_templates()


@when(phrase('"{who}" reads the label template "{name}"'))
def read_label_template(ctx: ScenarioContext, who: str, name: str) -> None:
    """``GET /label/templates/{name}``."""
    ctx.response = acting(ctx, who, TemplatesApi).get_label_template(name)


@then(phrase('the license template list holds "{name}" with the URL of its template'))
def license_list_holds(ctx: ScenarioContext, name: str) -> None:
    """An entry whose key and name are the template's name and whose URL reads that template."""
    body = response_json(ctx)
    assert isinstance(body, list), f"expected an array, got {type(body).__name__}"
    entries = [entry for entry in body if isinstance(entry, dict) and entry.get("key") == name]
    assert entries, f'no license template "{name}" among {len(body)} entries'
    entry = entries[0]
    assert entry.get("name") == name, f"the entry of {name} is named {entry.get('name')!r}"
    assert str(entry.get("url", "")).endswith(f"/licenses/{name}"), f"the entry's URL is {entry.get('url')!r}"


@then(phrase('the response lists the names "{names}"'))
def lists_names(ctx: ScenarioContext, names: str) -> None:
    """A plain array of strings that contains every listed name (comma separated)."""
    body = response_json(ctx)
    missing = [name.strip() for name in names.split(",") if name.strip() not in body]
    assert not missing, f"the list lacks {missing}: {json.dumps(body)[:300]}"


@then(phrase('the template text in "{field}" contains "{text}"'))
def template_text_contains(ctx: ScenarioContext, field: str, text: str) -> None:
    """The template's text field (``body`` of a license, ``source`` of a gitignore) contains the text."""
    value = response_json(ctx).get(field)
    assert isinstance(value, str) and text in value, f'"{field}" does not contain {text!r}: {str(value)[:300]!r}'


@then(phrase('the label template lists "{name}" with the color "{color}"'))
def label_template_lists(ctx: ScenarioContext, name: str, color: str) -> None:
    """The template has a label of that name whose colour is the hex value without ``#``."""
    labels = {label["name"]: label for label in response_json(ctx)}
    assert name in labels, f'no label "{name}" in the template: {sorted(labels)}'
    assert labels[name]["color"] == color, f'"{name}" has the color {labels[name]["color"]!r}, expected {color!r}'


@then(phrase('the label template marks "{name}" as exclusive and "{other}" as not exclusive'))
def label_template_exclusive(ctx: ScenarioContext, name: str, other: str) -> None:
    """Scoped labels of one scope exclude each other; plain labels do not."""
    labels = {label["name"]: label for label in response_json(ctx)}
    assert labels[name]["exclusive"] is True, f'"{name}" is not exclusive: {labels[name]}'
    assert labels[other]["exclusive"] is False, f'"{other}" is exclusive: {labels[other]}'


# ---------------------------------------------------------------- repository creation with templates


def _create_with_options(
    ctx: ScenarioContext,
    template_notes: TemplateNotes,
    identities: IdentityFactory,
    ledger: CleanupLedger,
    *,
    short: str,
    options: dict[str, Any],
) -> None:
    owner_short, _, name_short = short.partition("/")
    owner = identities.user(owner_short)
    name = ctx.real_name(name_short)
    ledger.record_repo(owner.username, name)
    ctx.response = owner.api.area(TemplatesApi).create_repo({"name": name, **options})
    if ctx.response.status_code == 201:
        body = json_of(ctx.response)
        ctx.repos[short] = RepoRef(short=short, owner=owner.username, name=name, default_branch=body["default_branch"])
        template_notes.created[short] = body


@when(phrase('"{who}" creates the repository "{short}" with the options'))
def create_repo_with_options(
    ctx: ScenarioContext,
    template_notes: TemplateNotes,
    identities: IdentityFactory,
    ledger: CleanupLedger,
    *,
    who: str,
    short: str,
    docstring: str,
) -> None:
    """``POST /user/repos`` with the name of ``short`` and the JSON options of the step."""
    assert short.split("/", 1)[0] == who, f'"{who}" creates repositories of their own, not "{short}"'
    _create_with_options(ctx, template_notes, identities, ledger, short=short, options=json_document(docstring))


@given(phrase('a repository "{short}" created with the options'))
def given_repo_with_options(
    ctx: ScenarioContext,
    template_notes: TemplateNotes,
    identities: IdentityFactory,
    ledger: CleanupLedger,
    *,
    short: str,
    docstring: str,
) -> None:
    """A repository created by its owner with template options; the creation must succeed."""
    _create_with_options(ctx, template_notes, identities, ledger, short=short, options=json_document(docstring))
    assert ctx.response is not None and ctx.response.status_code == 201, (
        f'could not create "{short}": {ctx.response.status_code if ctx.response else "-"}'
    )


def read_file(ctx: ScenarioContext, repo: RepoRef, path: str) -> str:
    """A file of the default branch as text (the admin reads, so private repositories work too)."""
    body = _expect_json(ctx.admin.contents.get(repo.owner, repo.name, path), f'read "{path}" of "{repo.short}"')
    return base64.b64decode(body["content"]).decode("utf-8")


@then(phrase('the file "{path}" of "{repo}" is the "{license}" license filled in for its owner'))
def license_file_filled(
    ctx: ScenarioContext, template_notes: TemplateNotes, path: str, repo: str, license: str
) -> None:
    """The template's text with the creation year and the owner's name on the copyright line."""
    ref = ctx.repo(repo)
    text = read_file(ctx, ref, path)
    assert repo in template_notes.created, f'"{repo}" was not created with template options'
    year = str(template_notes.created[repo]["created_at"])[:4]
    assert f"Copyright (c) {year} {ref.owner}" in text, f"no filled copyright line in {path}: {text[:300]!r}"
    template = _expect_json(ctx.admin.area(TemplatesApi).get_license(license), f'read the "{license}" template')
    last_line = template["body"].strip().splitlines()[-1].strip()
    assert last_line in text, f"{path} does not end like the {license} template ({last_line!r})"
    assert "<year>" not in text and "<copyright holders>" not in text, f"placeholders left in {path}"


@then(phrase('the file "{path}" of "{repo}" holds the gitignore templates "{names}" one after the other'))
def gitignore_file_holds(ctx: ScenarioContext, path: str, repo: str, names: str) -> None:
    """Each template's source under a ``# ---> Name`` line, in the order given."""
    text = read_file(ctx, ctx.repo(repo), path)
    position = 0
    for name in (part.strip() for part in names.split(",")):
        marker = f"# ---> {name}\n"
        found = text.find(marker, position)
        assert found >= 0, f"{path} has no {marker.strip()!r} after position {position}: {text[:200]!r}"
        source = _expect_json(ctx.admin.area(TemplatesApi).get_gitignore(name), f'read the "{name}" template')
        assert text[found + len(marker) :].startswith(source["source"]), f"the {name} section differs from its template"
        position = found + len(marker)


@then(phrase('"{repo}" has exactly the labels of the label template "{template}"'))
def repo_has_template_labels(ctx: ScenarioContext, repo: str, template: str) -> None:
    """Names, colours, descriptions and exclusivity as the target's template gives them."""
    ref = ctx.repo(repo)
    listed = _expect_json(
        acting(ctx, ADMIN, LabelsApi).list(ref.owner, ref.name, limit=50), f'list the labels of "{repo}"'
    )
    wanted = _expect_json(ctx.admin.area(TemplatesApi).get_label_template(template), f'read the "{template}" template')

    def key(label: dict[str, Any]) -> tuple[str, str, str, bool]:
        return (label["name"], label["color"].lower(), label["description"], bool(label["exclusive"]))

    assert sorted(map(key, listed)) == sorted(map(key, wanted)), f"labels {listed} differ from the template {wanted}"


@then(phrase('the repository "{short}" was not created'))
def repo_not_created(ctx: ScenarioContext, short: str) -> None:
    """Nothing is left behind: the name answers 404."""
    owner_short, _, name_short = short.partition("/")
    response = ctx.admin.repos.get(ctx.owner_name(owner_short), ctx.real_name(name_short))
    assert response.status_code == 404, f'"{short}" exists after a refused creation: {response.status_code}'


# ---------------------------------------------------------------- repository labels


@given(phrase('the repository "{repo}" has the label "{name}" with the color "{color}"'))
def given_label(ctx: ScenarioContext, template_notes: TemplateNotes, repo: str, name: str, color: str) -> None:
    """A label created by the admin."""
    ref = ctx.repo(repo)
    response = acting(ctx, ADMIN, LabelsApi).create(ref.owner, ref.name, {"name": name, "color": color})
    assert response.status_code == 201, f'could not create the label "{name}": {response.text[:300]}'
    template_notes.labels[repo, name] = int(json_of(response)["id"])


@when(phrase('"{who}" creates in "{repo}" the label'))
def create_label(ctx: ScenarioContext, template_notes: TemplateNotes, who: str, repo: str, docstring: str) -> None:
    """``POST .../labels`` with the JSON body of the step."""
    ref = ctx.repo(repo)
    template_notes.label_counts[repo] = _label_count(ctx, ref)
    ctx.response = acting(ctx, who, LabelsApi).create(ref.owner, ref.name, json_document(docstring))
    if ctx.response.status_code == 201:
        body = json_of(ctx.response)
        template_notes.labels[repo, str(body["name"])] = int(body["id"])


@when(phrase('"{who}" edits the label "{name}" of "{repo}" with'))
def edit_label(
    ctx: ScenarioContext, template_notes: TemplateNotes, *, who: str, name: str, repo: str, docstring: str
) -> None:
    """``PATCH .../labels/{id}`` with the JSON body of the step."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, LabelsApi).edit(
        ref.owner, ref.name, template_notes.label_id(repo, name), json_document(docstring)
    )


@when(phrase('"{who}" deletes the label "{name}" of "{repo}"'))
def delete_label(ctx: ScenarioContext, template_notes: TemplateNotes, who: str, name: str, repo: str) -> None:
    """``DELETE .../labels/{id}``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, LabelsApi).delete(ref.owner, ref.name, template_notes.label_id(repo, name))


@when(phrase('"{who}" reads the label "{name}" of "{repo}" through "{other}"'))
def read_label_elsewhere(
    ctx: ScenarioContext, template_notes: TemplateNotes, *, who: str, name: str, repo: str, other: str
) -> None:
    """``GET`` a label's id under another repository's path."""
    ref = ctx.repo(other)
    ctx.response = acting(ctx, who, LabelsApi).get(ref.owner, ref.name, template_notes.label_id(repo, name))


@when(phrase('"{who}" lists the labels of "{repo}"'))
def list_labels(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``GET .../labels``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, LabelsApi).list(ref.owner, ref.name)


def _label_count(ctx: ScenarioContext, ref: RepoRef) -> int:
    response = acting(ctx, ADMIN, LabelsApi).list(ref.owner, ref.name, limit=50)
    body = _expect_json(response, f"list the labels of {ref.short}")
    return len(body)


@then(phrase('the label "{name}" of "{repo}" has the color "{color}" and the description "{description}"'))
def label_has(
    ctx: ScenarioContext, template_notes: TemplateNotes, *, name: str, repo: str, color: str, description: str
) -> None:
    """Read back: the stored label has these values."""
    ref = ctx.repo(repo)
    body = _expect_json(
        acting(ctx, ADMIN, LabelsApi).get(ref.owner, ref.name, template_notes.label_id(repo, name)), "read it"
    )
    assert (body["color"], body["description"]) == (color, description), f"the label is {body}"


@then(phrase('the label "{name}" of "{repo}" no longer exists'))
def label_gone(ctx: ScenarioContext, template_notes: TemplateNotes, name: str, repo: str) -> None:
    """Reading the deleted label's id answers 404."""
    ref = ctx.repo(repo)
    response = acting(ctx, ADMIN, LabelsApi).get(ref.owner, ref.name, template_notes.label_id(repo, name))
    assert response.status_code == 404, f"the label still answers {response.status_code}"


@then(phrase('"{repo}" has as many labels as before'))
def label_count_unchanged(ctx: ScenarioContext, template_notes: TemplateNotes, repo: str) -> None:
    """A refused creation added nothing."""
    before = template_notes.label_counts.get(repo)
    assert before is not None, "the labels were not counted before the creation"
    after = _label_count(ctx, ctx.repo(repo))
    assert after == before, f'"{repo}" had {before} labels and now has {after}'


@then(phrase('the label "{name}" of "{repo}" is unchanged with the color "{color}"'))
def label_unchanged(ctx: ScenarioContext, template_notes: TemplateNotes, name: str, repo: str, color: str) -> None:
    """A refused edit left name and colour as they were."""
    ref = ctx.repo(repo)
    body = _expect_json(
        acting(ctx, ADMIN, LabelsApi).get(ref.owner, ref.name, template_notes.label_id(repo, name)), "read it"
    )
    assert (body["name"], body["color"]) == (name, color), f"the label is now {body}"

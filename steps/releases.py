"""Steps of the releases area: releases, their assets and downloads, and the repository's Git tags.

Given steps note each release's id by its tag (:class:`ReleaseNotes`) so When steps can name a release
by its tag; lookups a step needs before acting (a release's id, an asset's id or download URL, a tag's
object) are made with the admin's token, never as the acting user.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.releases import ReleasesApi
from conformance.context import ScenarioContext
from steps.actors import acting, repo_owner
from steps.branches import branch_head
from steps.common import comma_list, expect_status, json_option, response_json
from steps.parsing import phrase

__all__ = ["ReleaseNotes"]


@dataclass
class ReleaseNotes:
    """Release ids by (repository, tag), as the scenario's steps learnt them."""

    ids: dict[tuple[str, str], int] = field(default_factory=dict)

    def release_id(self, ctx: ScenarioContext, repo: str, tag: str) -> int:
        """The id of the release of ``tag`` (looked up by tag with the admin's token when not noted)."""
        if (repo, tag) not in self.ids:
            ref = ctx.repo(repo)
            found = expect_status(
                ctx.admin.area(ReleasesApi).get_by_tag(ref.owner, ref.name, tag), 200, f"release {tag}"
            )
            self.ids[repo, tag] = int(found["id"])
        return self.ids[repo, tag]


@pytest.fixture
def release_notes() -> ReleaseNotes:
    """The scenario's releases."""
    return ReleaseNotes()


def _asset(ctx: ScenarioContext, notes: ReleaseNotes, repo: str, tag: str, name: str) -> dict[str, Any]:
    """The asset called ``name`` of a release, read with the admin's token."""
    ref = ctx.repo(repo)
    listed = ctx.admin.area(ReleasesApi).list_assets(ref.owner, ref.name, notes.release_id(ctx, repo, tag))
    for asset in expect_status(listed, 200, f"assets of {tag}"):
        if asset["name"] == name:
            return dict(asset)
    raise AssertionError(f"the release {tag} of {repo} has no asset {name!r}")


def _tag(ctx: ScenarioContext, repo: str, tag: str) -> dict[str, Any] | None:
    ref = ctx.repo(repo)
    response = ctx.admin.area(ReleasesApi).get_tag(ref.owner, ref.name, tag)
    if response.status_code == 404:
        return None
    return dict(expect_status(response, 200, f"reading the tag {tag}"))


# ---------------------------------------------------------------- Given


def _publish(ctx: ScenarioContext, notes: ReleaseNotes, repo: str, option: dict[str, Any]) -> None:
    ref = ctx.repo(repo)
    answer = repo_owner(ctx, repo).area(ReleasesApi).create(ref.owner, ref.name, option)
    created = expect_status(answer, 201, f"creating the release {option.get('tag_name')}")
    notes.ids[repo, str(option["tag_name"])] = int(created["id"])


@given(phrase('the repository "{repo}" has the release "{tag}"'))
def given_release(ctx: ScenarioContext, release_notes: ReleaseNotes, repo: str, tag: str) -> None:
    """A published release of the default branch, made by the owner."""
    _publish(ctx, release_notes, repo, {"tag_name": tag, "name": f"Release {tag}"})


@given(phrase('the repository "{repo}" has the draft release "{tag}"'))
def given_draft(ctx: ScenarioContext, release_notes: ReleaseNotes, repo: str, tag: str) -> None:
    _publish(ctx, release_notes, repo, {"tag_name": tag, "draft": True})


@given(phrase('the repository "{repo}" has the pre-release "{tag}"'))
def given_prerelease(ctx: ScenarioContext, release_notes: ReleaseNotes, repo: str, tag: str) -> None:
    _publish(ctx, release_notes, repo, {"tag_name": tag, "prerelease": True})


@given(phrase('the release "{tag}" of "{repo}" has the asset "{name}" with content "{content}"'))
def given_asset(
    ctx: ScenarioContext, release_notes: ReleaseNotes, *, tag: str, repo: str, name: str, content: str
) -> None:
    ref = ctx.repo(repo)
    release_id = release_notes.release_id(ctx, repo, tag)
    answer = (
        repo_owner(ctx, repo).area(ReleasesApi).upload_asset(ref.owner, ref.name, release_id, name, content.encode())
    )
    expect_status(answer, 201, f"uploading {name}")


@given(phrase('the repository "{repo}" has the tag "{tag}"'))
def given_tag(ctx: ScenarioContext, repo: str, tag: str) -> None:
    """A lightweight tag of the default branch."""
    ref = ctx.repo(repo)
    expect_status(repo_owner(ctx, repo).area(ReleasesApi).create_tag(ref.owner, ref.name, {"tag_name": tag}), 201, tag)


# ---------------------------------------------------------------- When: releases


@when(phrase('"{who}" creates the release "{tag}" in "{repo}"'))
def create_release(ctx: ScenarioContext, who: str, tag: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ReleasesApi).create(ref.owner, ref.name, {"tag_name": tag})


@when(phrase('"{who}" creates a release in "{repo}" with the body'))
def create_release_body(ctx: ScenarioContext, who: str, repo: str, docstring: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ReleasesApi).create(ref.owner, ref.name, json_option(ctx, docstring))


@when(phrase('"{who}" lists the releases of "{repo}"'))
def list_releases(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ReleasesApi).list(ref.owner, ref.name)


@when(phrase('"{who}" lists the releases of "{repo}" with {name:w} "{value}"'))
def list_releases_filtered(ctx: ScenarioContext, who: str, repo: str, name: str, value: str) -> None:
    """One query parameter (``pre-release`` is written ``pre_release`` in the step)."""
    ref = ctx.repo(repo)
    params = {name.replace("pre_release", "pre-release"): value}
    ctx.response = acting(ctx, who, ReleasesApi).list(ref.owner, ref.name, params)


@when(phrase('"{who}" lists the releases of "{repo}" with limit {limit:d} and page {page:d}'))
def list_releases_paged(ctx: ScenarioContext, who: str, repo: str, limit: int, page: int) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ReleasesApi).list(ref.owner, ref.name, {"limit": limit, "page": page})


@when(phrase('"{who}" gets the latest release of "{repo}"'))
def latest_release(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ReleasesApi).latest(ref.owner, ref.name)


@when(phrase('"{who}" gets the release "{tag}" of "{repo}"'))
def get_release(ctx: ScenarioContext, release_notes: ReleaseNotes, who: str, tag: str, repo: str) -> None:
    ref = ctx.repo(repo)
    release_id = release_notes.release_id(ctx, repo, tag)
    ctx.response = acting(ctx, who, ReleasesApi).get(ref.owner, ref.name, release_id)


@when(phrase('"{who}" gets the release of the tag "{tag}" of "{repo}"'))
def get_release_by_tag(ctx: ScenarioContext, who: str, tag: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ReleasesApi).get_by_tag(ref.owner, ref.name, tag)


@when(phrase('"{who}" edits the release "{tag}" of "{repo}" with the body'))
def edit_release(
    ctx: ScenarioContext, release_notes: ReleaseNotes, *, who: str, tag: str, repo: str, docstring: str
) -> None:
    ref = ctx.repo(repo)
    release_id = release_notes.release_id(ctx, repo, tag)
    ctx.response = acting(ctx, who, ReleasesApi).edit(ref.owner, ref.name, release_id, json_option(ctx, docstring))


@when(phrase('"{who}" deletes the release "{tag}" of "{repo}"'))
def delete_release(ctx: ScenarioContext, release_notes: ReleaseNotes, who: str, tag: str, repo: str) -> None:
    ref = ctx.repo(repo)
    release_id = release_notes.release_id(ctx, repo, tag)
    ctx.response = acting(ctx, who, ReleasesApi).delete(ref.owner, ref.name, release_id)


@when(phrase('"{who}" deletes the release of the tag "{tag}" of "{repo}"'))
def delete_release_by_tag(ctx: ScenarioContext, who: str, tag: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ReleasesApi).delete_by_tag(ref.owner, ref.name, tag)


# ---------------------------------------------------------------- When: assets


@when(phrase('"{who}" uploads "{filename}" as "{name}" with content "{content}" to the release "{tag}" of "{repo}"'))
def upload_asset(
    ctx: ScenarioContext,
    release_notes: ReleaseNotes,
    *,
    who: str,
    filename: str,
    name: str,
    content: str,
    tag: str,
    repo: str,
) -> None:
    """An upload whose ``name`` query overrides the file's own name."""
    ref = ctx.repo(repo)
    release_id = release_notes.release_id(ctx, repo, tag)
    api = acting(ctx, who, ReleasesApi)
    ctx.response = api.upload_asset(ref.owner, ref.name, release_id, filename, content.encode(), name=name)


@when(phrase('"{who}" downloads the asset "{name}" of the release "{tag}" of "{repo}"'))
def download_asset(
    ctx: ScenarioContext, release_notes: ReleaseNotes, *, who: str, name: str, tag: str, repo: str
) -> None:
    """A GET of the asset's ``browser_download_url``."""
    url = str(_asset(ctx, release_notes, repo, tag, name)["browser_download_url"])
    ctx.response = acting(ctx, who, ReleasesApi).download(url)


@when(phrase('"{who}" downloads "{name}" of the release of the tag "{tag}" of "{repo}"'))
def download_by_name(ctx: ScenarioContext, who: str, name: str, tag: str, repo: str) -> None:
    """Gitea's download route by the release's tag and the asset's name."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ReleasesApi).download_by_name(ref.owner, ref.name, tag, name)


@when(phrase('"{who}" renames the asset "{name}" of the release "{tag}" of "{repo}" to "{new_name}"'))
def rename_asset(
    ctx: ScenarioContext, release_notes: ReleaseNotes, *, who: str, name: str, tag: str, repo: str, new_name: str
) -> None:
    ref = ctx.repo(repo)
    asset = _asset(ctx, release_notes, repo, tag, name)
    release_id = release_notes.release_id(ctx, repo, tag)
    ctx.response = acting(ctx, who, ReleasesApi).edit_asset(ref.owner, ref.name, release_id, int(asset["id"]), new_name)


@when(phrase('"{who}" reads the asset "{name}" of the release "{tag}" of "{repo}"'))
def get_asset(ctx: ScenarioContext, release_notes: ReleaseNotes, *, who: str, name: str, tag: str, repo: str) -> None:
    """``GET .../releases/{id}/assets/{attachment_id}`` under the asset's own release."""
    ref = ctx.repo(repo)
    asset = _asset(ctx, release_notes, repo, tag, name)
    release_id = release_notes.release_id(ctx, repo, tag)
    ctx.response = acting(ctx, who, ReleasesApi).get_asset(ref.owner, ref.name, release_id, int(asset["id"]))


@when(phrase('"{who}" reads the asset "{name}" of the release "{tag}" of "{repo}" through the release "{other}"'))
def get_asset_elsewhere(
    ctx: ScenarioContext, release_notes: ReleaseNotes, *, who: str, name: str, tag: str, repo: str, other: str
) -> None:
    """The asset's id under another release's path."""
    ref = ctx.repo(repo)
    asset = _asset(ctx, release_notes, repo, tag, name)
    other_id = release_notes.release_id(ctx, repo, other)
    ctx.response = acting(ctx, who, ReleasesApi).get_asset(ref.owner, ref.name, other_id, int(asset["id"]))


@when(phrase('"{who}" deletes the asset "{name}" of the release "{tag}" of "{repo}"'))
def delete_asset(
    ctx: ScenarioContext, release_notes: ReleaseNotes, *, who: str, name: str, tag: str, repo: str
) -> None:
    ref = ctx.repo(repo)
    asset = _asset(ctx, release_notes, repo, tag, name)
    release_id = release_notes.release_id(ctx, repo, tag)
    ctx.response = acting(ctx, who, ReleasesApi).delete_asset(ref.owner, ref.name, release_id, int(asset["id"]))


# ---------------------------------------------------------------- When: tags


@when(phrase('"{who}" creates the tag "{tag}" in "{repo}"'))
def create_tag(ctx: ScenarioContext, who: str, tag: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ReleasesApi).create_tag(ref.owner, ref.name, {"tag_name": tag})


@when(phrase('"{who}" creates the tag "{tag}" in "{repo}" with the message "{message}"'))
def create_annotated_tag(ctx: ScenarioContext, who: str, tag: str, repo: str, message: str) -> None:
    ref = ctx.repo(repo)
    option = {"tag_name": tag, "message": message}
    ctx.response = acting(ctx, who, ReleasesApi).create_tag(ref.owner, ref.name, option)


@when(phrase('"{who}" creates the tag "{tag}" in "{repo}" at "{target}"'))
def create_tag_at(ctx: ScenarioContext, who: str, tag: str, repo: str, target: str) -> None:
    ref = ctx.repo(repo)
    option = {"tag_name": tag, "target": target}
    ctx.response = acting(ctx, who, ReleasesApi).create_tag(ref.owner, ref.name, option)


@when(phrase('"{who}" gets the tag "{tag}" of "{repo}"'))
def get_tag(ctx: ScenarioContext, who: str, tag: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ReleasesApi).get_tag(ref.owner, ref.name, tag)


@when(phrase('"{who}" lists the tags of "{repo}" with limit {limit:d} and page {page:d}'))
def list_tags(ctx: ScenarioContext, who: str, repo: str, limit: int, page: int) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ReleasesApi).list_tags(ref.owner, ref.name, {"limit": limit, "page": page})


@when(phrase('"{who}" deletes the tag "{tag}" of "{repo}"'))
def delete_tag(ctx: ScenarioContext, who: str, tag: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ReleasesApi).delete_tag(ref.owner, ref.name, tag)


@when(phrase('"{who}" gets the tag object of the tag "{tag}" of "{repo}"'))
def get_tag_object(ctx: ScenarioContext, who: str, tag: str, repo: str) -> None:
    """``git/tags/{sha}`` with the tag's ``id`` (a commit for a lightweight tag)."""
    ref = ctx.repo(repo)
    found = _tag(ctx, repo, tag)
    assert found is not None, f"the tag {tag} of {repo} does not exist"
    ctx.response = acting(ctx, who, ReleasesApi).annotated_tag(ref.owner, ref.name, str(found["id"]))


# ---------------------------------------------------------------- Then


@then(phrase('the response lists the releases "{tags}"'))
def then_releases(ctx: ScenarioContext, tags: str) -> None:
    """The release list's tags, in the answer's order."""
    assert [item["tag_name"] for item in response_json(ctx)] == comma_list(tags)


@then(phrase("the response lists {count:d} tags"))
def then_tag_count(ctx: ScenarioContext, count: int) -> None:
    assert len(response_json(ctx)) == count


@then(phrase('the tag "{tag}" of "{repo}" points at the head of "{branch}"'))
def then_tag_at(ctx: ScenarioContext, tag: str, repo: str, branch: str) -> None:
    found = _tag(ctx, repo, tag)
    assert found is not None, f"the tag {tag} of {repo} does not exist"
    assert found["commit"]["sha"] == branch_head(ctx, repo, branch)


@then(phrase('the tag "{tag}" of "{repo}" is annotated with the message "{message}"'))
def then_tag_annotated(ctx: ScenarioContext, tag: str, repo: str, message: str) -> None:
    """An annotated tag: its own object, distinct from the commit, carrying the message."""
    found = _tag(ctx, repo, tag)
    assert found is not None, f"the tag {tag} of {repo} does not exist"
    assert found["id"] != found["commit"]["sha"], f"the tag {tag} is lightweight"
    assert found["message"] == message


@then(phrase('the tag "{tag}" of "{repo}" does not exist'))
def then_no_tag(ctx: ScenarioContext, tag: str, repo: str) -> None:
    assert _tag(ctx, repo, tag) is None, f"the tag {tag} of {repo} exists"


@then(phrase('the release of the tag "{tag}" of "{repo}" does not exist'))
def then_no_release(ctx: ScenarioContext, tag: str, repo: str) -> None:
    ref = ctx.repo(repo)
    assert ctx.admin.area(ReleasesApi).get_by_tag(ref.owner, ref.name, tag).status_code == 404


@then(phrase('the response is a lightweight tag of the head of "{branch}" of "{repo}"'))
def then_lightweight(ctx: ScenarioContext, branch: str, repo: str) -> None:
    """A lightweight tag's ``id`` is the commit itself."""
    tag = response_json(ctx)
    head = branch_head(ctx, repo, branch)
    assert (tag["id"], tag["commit"]["sha"]) == (head, head)


@then(phrase('the response is an annotated tag of the head of "{branch}" of "{repo}" with the message "{message}"'))
def then_annotated(ctx: ScenarioContext, branch: str, repo: str, message: str) -> None:
    """An annotated tag's ``id`` is its own tag object, not the commit it names."""
    tag = response_json(ctx)
    head = branch_head(ctx, repo, branch)
    assert tag["commit"]["sha"] == head
    assert tag["id"] != head
    assert tag["message"] == message


@then(phrase('the response is the tag object "{tag}" of the head of "{branch}" of "{repo}" tagged by "{who}"'))
def then_tag_object(ctx: ScenarioContext, tag: str, branch: str, repo: str, who: str) -> None:
    found = response_json(ctx)
    assert found["tag"] == tag
    assert found["object"]["sha"] == branch_head(ctx, repo, branch)
    assert found["object"]["type"] == "commit"
    assert found["tagger"]["email"] == ctx.user(who).email


@then(phrase('the response body is "{content}"'))
def then_body(ctx: ScenarioContext, content: str) -> None:
    assert ctx.last_response().content == content.encode()


@then(phrase('the browser_download_url answered serves "{content}" to "{who}"'))
def then_download_url_serves(ctx: ScenarioContext, content: str, who: str) -> None:
    """The answered asset's download address gives back the bytes the scenario uploaded."""
    url = str(response_json(ctx)["browser_download_url"])
    downloaded = acting(ctx, who, ReleasesApi).download(url)
    assert downloaded.status_code == 200, f"downloading {url} answered {downloaded.status_code}"
    assert downloaded.content == content.encode(), f"{url} serves {downloaded.content[:200]!r}, expected {content!r}"


@then(phrase('the asset "{name}" of the release "{tag}" of "{repo}" was downloaded {count:d} times'))
def then_downloads(
    ctx: ScenarioContext, release_notes: ReleaseNotes, *, name: str, tag: str, repo: str, count: int
) -> None:
    assert _asset(ctx, release_notes, repo, tag, name)["download_count"] == count


@then(phrase('the assets of the release "{tag}" of "{repo}" are "{names}"'))
def then_assets(ctx: ScenarioContext, release_notes: ReleaseNotes, tag: str, repo: str, names: str) -> None:
    ref = ctx.repo(repo)
    listed = ctx.admin.area(ReleasesApi).list_assets(ref.owner, ref.name, release_notes.release_id(ctx, repo, tag))
    assert [item["name"] for item in expect_status(listed, 200, "assets")] == comma_list(names)


@given(phrase('"{who}" created the tag "{tag}" in "{repo}" with the message "{message}"'))
def given_annotated_tag(ctx: ScenarioContext, who: str, tag: str, repo: str, message: str) -> None:
    """An annotated tag of the default branch."""
    ref = ctx.repo(repo)
    option = {"tag_name": tag, "message": message}
    expect_status(acting(ctx, who, ReleasesApi).create_tag(ref.owner, ref.name, option), 201, f"creating the tag {tag}")

"""Steps of the licenses area: license files committed to branches, the default branch moved, and the
detected licenses read back from ``GET /repos/{owner}/{repo}/licenses`` and the ``Repository``.

License texts come from the target's own ``/licenses/{name}`` so the scenarios hold on any forge.
Detection may run in the background (Gitea queues it), so the Then step polls for a short while.
"""

from __future__ import annotations

import time
from typing import Any

from pytest_bdd import given, then, when

from conformance.api.licenses import LicensesApi
from conformance.api.templates import TemplatesApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from conformance.identities import IdentityFactory
from conformance.polling import Backoff
from steps.actors import acting, acting_api, git_credentials
from steps.common import FileNotes, commit_file
from steps.git_https import GitWorld
from steps.parsing import phrase

DETECTION_WAIT_SECONDS = 15.0
POLL_SECONDS = 0.25


def license_text(ctx: ScenarioContext, name: str) -> str:
    """The text of a license template as the target serves it."""
    response = ctx.admin.area(TemplatesApi).get_license(name)
    assert response.status_code == 200, f'the target has no license template "{name}": {response.status_code}'
    body = json_of(response)["body"]
    assert isinstance(body, str) and body.strip(), f'the license template "{name}" has no text'
    return body


@given(phrase('the repository "{repo}" has the "{license}" license text in "{path}"'))
def given_license_file(
    ctx: ScenarioContext, identities: IdentityFactory, file_notes: FileNotes, *, repo: str, license: str, path: str
) -> None:
    """A license file committed to the default branch through the contents API."""
    commit_file(identities, file_notes, repo, path, license_text(ctx, license))


def _store_change(ctx: ScenarioContext, file_notes: FileNotes, repo: str, path: str, response: Any) -> None:
    ctx.response = response
    if response.status_code in (200, 201):
        file_notes.note(repo, path, json_of(response))


@when(phrase('"{who}" commits the "{license}" license text to "{path}" of "{repo}"'))
def commit_license(
    ctx: ScenarioContext, file_notes: FileNotes, *, who: str, license: str, path: str, repo: str
) -> None:
    """Create the file on the default branch, or replace it when the scenario added it before."""
    ref = ctx.repo(repo)
    contents = acting_api(ctx, who).contents
    known = file_notes.get(repo, path)
    text = license_text(ctx, license)
    if isinstance(known, dict):
        response = contents.update(ref.owner, ref.name, path, text, known["content"]["sha"], message=f"{license}")
    else:
        response = contents.create(ref.owner, ref.name, path, text, message=f"add {license}")
    _store_change(ctx, file_notes, repo, path, response)


@when(phrase('"{who}" commits the "{license}" license text to "{path}" on the branch "{branch}" of "{repo}"'))
def commit_license_on_branch(
    ctx: ScenarioContext, *, who: str, license: str, path: str, branch: str, repo: str
) -> None:
    """Create the file on another branch than the default."""
    ref = ctx.repo(repo)
    text = license_text(ctx, license)
    ctx.response = acting_api(ctx, who).contents.create(ref.owner, ref.name, path, text, branch=branch)


@given(phrase('the branch "{branch}" of "{repo}" has the "{license}" license text in "{path}"'))
def given_license_on_branch(ctx: ScenarioContext, branch: str, repo: str, license: str, path: str) -> None:
    """A license file committed to another branch by the admin."""
    ref = ctx.repo(repo)
    response = ctx.admin.contents.create(ref.owner, ref.name, path, license_text(ctx, license), branch=branch)
    assert response.status_code == 201, f"committing {path} to {branch}: {response.status_code} {response.text[:300]}"


@when(phrase('"{who}" pushes the "{license}" license text as "{path}" to the branch "{branch}" of "{repo}" over HTTPS'))
def push_license(
    ctx: ScenarioContext, git_world: GitWorld, *, who: str, license: str, path: str, branch: str, repo: str
) -> None:
    """Clone with the user's token, commit the license file with the real ``git`` and push it."""
    ref = ctx.repo(repo)
    credentials = git_credentials(ctx, who)
    url = f"{ctx.admin.site_url.rstrip('/')}/{ref.owner}/{ref.name}.git"
    clone, cloned = git_world.client.clone(url, f"license-clone-{len(git_world.clones) + 1}", credentials)
    assert cloned.ok, f"cloning {repo}: {cloned.describe()}"
    git_world.clones[repo] = clone
    git_world.pushed = git_world.client.commit_file(clone, path, license_text(ctx, license).encode(), f"{license}")
    git_world.result = git_world.client.push(clone, f"HEAD:refs/heads/{branch}", credentials)
    assert git_world.result.ok, f"pushing to {repo}: {git_world.result.describe()}"


@when(phrase('"{who}" makes "{branch}" the default branch of "{repo}"'))
def change_default_branch(ctx: ScenarioContext, who: str, branch: str, repo: str) -> None:
    """``PATCH /repos/{owner}/{repo}`` with ``default_branch``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, LicensesApi).change_default_branch(ref.owner, ref.name, branch)


@when(phrase('"{who}" reads the detected licenses of "{repo}"'))
def read_licenses(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``GET /repos/{owner}/{repo}/licenses``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, LicensesApi).repo_licenses(ref.owner, ref.name)


def _detected(ctx: ScenarioContext, repo: str) -> tuple[list[str], list[str]]:
    ref = ctx.repo(repo)
    listed = ctx.admin.area(LicensesApi).repo_licenses(ref.owner, ref.name)
    assert listed.status_code == 200, f"GET licenses of {repo}: {listed.status_code} {listed.text[:300]}"
    body = json_of(listed)
    repository = json_of(ctx.admin.repos.get(ref.owner, ref.name))
    return body, repository.get("licenses")


@then(phrase('the detected licenses of "{repo}" become "{names}"'))
def licenses_become(ctx: ScenarioContext, repo: str, names: str) -> None:
    """The licenses route and ``Repository.licenses`` both give exactly these, sorted (polled briefly)."""
    wanted = [name.strip() for name in names.split(",") if name.strip()]
    deadline = time.monotonic() + DETECTION_WAIT_SECONDS
    backoff = Backoff(cap=POLL_SECONDS)
    while True:
        listed, in_repository = _detected(ctx, repo)
        if listed == wanted and in_repository == wanted:
            return
        if time.monotonic() > deadline:
            got = f"route {listed}, Repository.licenses {in_repository}"
            raise AssertionError(f"licenses of {repo}: {got}; want {wanted}")
        backoff.sleep()


@then(phrase('"{repo}" has no detected license'))
def no_licenses(ctx: ScenarioContext, repo: str) -> None:
    """An empty array from the route and in the ``Repository`` (polled briefly)."""
    licenses_become(ctx, repo, "")


@then(phrase('the detected licenses of "{repo}" are still "{names}"'))
def licenses_still(ctx: ScenarioContext, repo: str, names: str) -> None:
    """A change that must not touch the licenses left them as they were."""
    wanted = [name.strip() for name in names.split(",") if name.strip()]
    listed, in_repository = _detected(ctx, repo)
    assert listed == wanted and in_repository == wanted, f"licenses of {repo} changed to {listed} / {in_repository}"

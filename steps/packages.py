"""Steps of the packages area: files put into the generic registry and read back, and Gitea's package API.

Owners are short names of the scenario's users or organizations; packages are ``owner/name`` with a literal
name and version (an owner is unique per run, so its packages are too). The bytes a scenario uploads are
drawn by the seeded ``fake`` and kept in :class:`PackageNotes`, so the answers are checked against what was
sent: the same bytes back, and the size and hashes computed here from them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import pytest
import requests
from pytest_bdd import given, then, when

from conformance.api.packages import PackagesApi
from conformance.context import ScenarioContext
from conformance.identities import IdentityFactory
from conformance.seeding import SeededData
from steps.actors import acting, basic_api
from steps.common import comma_list, expect_status, response_json
from steps.parsing import phrase, register_type

__all__: list[str] = []

GENERIC = "generic"
CHALLENGE = 'Basic realm="Gitea Package API"'

register_type("PackageSecret", "password|token as the password")


@dataclass
class PackageNotes:
    """The bytes the scenario uploaded."""

    files: dict[tuple[str, str, str], bytes] = field(default_factory=dict)
    """Keyed by the short ``owner/name``, the version and the file name."""

    def sent(self, package: str, version: str, filename: str) -> bytes:
        content = self.files.get((package, version, filename))
        assert content is not None, f'the scenario uploaded no "{filename}" to "{package}" {version}'
        return content


@pytest.fixture
def package_notes() -> PackageNotes:
    """The scenario's uploads."""
    return PackageNotes()


def _package(ctx: ScenarioContext, package: str) -> tuple[str, str]:
    """The real owner name and the package name of ``owner/name``."""
    owner, _, name = package.partition("/")
    return ctx.owner_name(owner), name


def _upload(
    ctx: ScenarioContext, notes: PackageNotes, identities: IdentityFactory, who: str, where: tuple[str, str, str]
) -> requests.Response:
    """Upload ``where``'s bytes as ``who`` (recording the package for the cleanup first)."""
    package, version, filename = where
    owner, name = _package(ctx, package)
    identities.ledger.record_package(owner, GENERIC, name)
    content = notes.files[where]
    return acting(ctx, who, PackagesApi).upload_generic(owner, name, version, filename, content)


def _draw(notes: PackageNotes, fake: SeededData, package: str, version: str, filename: str) -> tuple[str, str, str]:
    """Fresh bytes (1 to 4096 of them) for the file, kept as what the scenario sent."""
    where = (package, version, filename)
    notes.files[where] = fake.data(fake.random.randint(1, 4096))
    return where


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" uploaded the file "{filename}" to the generic package "{package}" version "{version}"'))
def given_uploaded(
    ctx: ScenarioContext,
    package_notes: PackageNotes,
    identities: IdentityFactory,
    fake: SeededData,
    *,
    who: str,
    filename: str,
    package: str,
    version: str,
) -> None:
    """``PUT /api/packages/{owner}/generic/{name}/{version}/{filename}`` with drawn bytes must answer 201."""
    where = _draw(package_notes, fake, package, version, filename)
    expect_status(_upload(ctx, package_notes, identities, who, where), 201, f'"{who}" uploads "{filename}"')


@given(phrase('"{who}" linked the "{kind}" package "{package}" to the repository "{repo}"'))
def given_linked(ctx: ScenarioContext, who: str, kind: str, package: str, repo: str) -> None:
    """``POST /packages/{owner}/{type}/{name}/-/link/{repo_name}`` must answer 201."""
    owner, name = _package(ctx, package)
    response = acting(ctx, who, PackagesApi).link(owner, kind, name, ctx.repo(repo).name)
    expect_status(response, 201, f'"{who}" links "{package}" to "{repo}"')


# ---------------------------------------------------------------- When: the generic registry


@when(phrase('"{who}" uploads the file "{filename}" to the generic package "{package}" version "{version}"'))
def upload(
    ctx: ScenarioContext,
    package_notes: PackageNotes,
    identities: IdentityFactory,
    fake: SeededData,
    *,
    who: str,
    filename: str,
    package: str,
    version: str,
) -> None:
    """``PUT /api/packages/{owner}/generic/{name}/{version}/{filename}`` with freshly drawn bytes."""
    where = (package, version, filename)
    previous = package_notes.files.get(where)
    drawn = _draw(package_notes, fake, package, version, filename)
    ctx.response = _upload(ctx, package_notes, identities, who, drawn)
    if previous is not None and ctx.response.status_code != 201:
        package_notes.files[where] = previous  # a refused upload leaves the stored bytes as they were


@when(
    phrase(
        '"{who}" uploads the file "{filename}" to the generic package "{package}" version "{version}"'
        " with basic auth and their {secret:PackageSecret}"
    )
)
def upload_with_basic_auth(
    ctx: ScenarioContext,
    package_notes: PackageNotes,
    identities: IdentityFactory,
    fake: SeededData,
    *,
    who: str,
    filename: str,
    package: str,
    version: str,
    secret: str,
) -> None:
    """The upload as package clients send it: basic auth with the password, or with a token in its place."""
    identity = ctx.user(who)
    api = basic_api(ctx, who, identity.token if secret.startswith("token") else None).area(PackagesApi)
    package_notes.files[package, version, filename] = fake.data(fake.random.randint(1, 4096))
    owner, name = _package(ctx, package)
    identities.ledger.record_package(owner, GENERIC, name)
    ctx.response = api.upload_generic(owner, name, version, filename, package_notes.files[package, version, filename])


@when(phrase('"{who}" downloads the file "{filename}" of the generic package "{package}" version "{version}"'))
def download(ctx: ScenarioContext, who: str, filename: str, package: str, version: str) -> None:
    """``GET /api/packages/{owner}/generic/{name}/{version}/{filename}``."""
    owner, name = _package(ctx, package)
    ctx.response = acting(ctx, who, PackagesApi).download_generic(owner, name, version, filename)


@when(phrase('"{who}" deletes the file "{filename}" of the generic package "{package}" version "{version}"'))
def delete_file(ctx: ScenarioContext, who: str, filename: str, package: str, version: str) -> None:
    """``DELETE /api/packages/{owner}/generic/{name}/{version}/{filename}``."""
    owner, name = _package(ctx, package)
    ctx.response = acting(ctx, who, PackagesApi).delete_generic_file(owner, name, version, filename)


@when(phrase('"{who}" deletes the version "{version}" of the generic package "{package}" in the registry'))
def delete_generic_version(ctx: ScenarioContext, who: str, version: str, package: str) -> None:
    """``DELETE /api/packages/{owner}/generic/{name}/{version}``."""
    owner, name = _package(ctx, package)
    ctx.response = acting(ctx, who, PackagesApi).delete_generic_version(owner, name, version)


@when(phrase('"{who}" requests "{path}" from the package registry of "{owner}"'))
def registry_request(ctx: ScenarioContext, who: str, path: str, owner: str) -> None:
    """``GET /api/packages/{owner}/{path}``: a route of another package type, say."""
    ctx.response = acting(ctx, who, PackagesApi).registry_get(ctx.owner_name(owner), path)


# ---------------------------------------------------------------- When: the package API


@when(phrase('"{who}" lists the packages of "{owner}"'))
def list_packages(ctx: ScenarioContext, who: str, owner: str) -> None:
    """``GET /packages/{owner}``."""
    ctx.response = acting(ctx, who, PackagesApi).list_packages(ctx.owner_name(owner))


@when(phrase('"{who}" lists the packages of "{owner}" {limit:d} per page'))
def list_packages_paged(ctx: ScenarioContext, who: str, owner: str, limit: int) -> None:
    """``GET /packages/{owner}?limit=N``."""
    ctx.response = acting(ctx, who, PackagesApi).list_packages(ctx.owner_name(owner), limit=limit)


@when(phrase('"{who}" lists the "{kind}" packages of "{owner}" whose name contains "{query}"'))
def search_packages(ctx: ScenarioContext, who: str, kind: str, owner: str, query: str) -> None:
    """``GET /packages/{owner}?type=T&q=Q``."""
    ctx.response = acting(ctx, who, PackagesApi).list_packages(ctx.owner_name(owner), type=kind, q=query)


@when(phrase('"{who}" lists the versions of the "{kind}" package "{package}"'))
def list_versions(ctx: ScenarioContext, who: str, kind: str, package: str) -> None:
    """``GET /packages/{owner}/{type}/{name}``."""
    owner, name = _package(ctx, package)
    ctx.response = acting(ctx, who, PackagesApi).list_versions(owner, kind, name)


@when(phrase('"{who}" gets the latest version of the "{kind}" package "{package}"'))
def latest(ctx: ScenarioContext, who: str, kind: str, package: str) -> None:
    """``GET /packages/{owner}/{type}/{name}/-/latest``."""
    owner, name = _package(ctx, package)
    ctx.response = acting(ctx, who, PackagesApi).latest(owner, kind, name)


@when(phrase('"{who}" gets the version "{version}" of the "{kind}" package "{package}"'))
def get_version(ctx: ScenarioContext, who: str, version: str, kind: str, package: str) -> None:
    """``GET /packages/{owner}/{type}/{name}/{version}``."""
    owner, name = _package(ctx, package)
    ctx.response = acting(ctx, who, PackagesApi).get(owner, kind, name, version)


@when(phrase('"{who}" lists the files of the version "{version}" of the "{kind}" package "{package}"'))
def list_files(ctx: ScenarioContext, who: str, version: str, kind: str, package: str) -> None:
    """``GET /packages/{owner}/{type}/{name}/{version}/files``."""
    owner, name = _package(ctx, package)
    ctx.response = acting(ctx, who, PackagesApi).files(owner, kind, name, version)


@when(phrase('"{who}" links the "{kind}" package "{package}" to the repository "{repo}"'))
def link(ctx: ScenarioContext, who: str, kind: str, package: str, repo: str) -> None:
    """``POST /packages/{owner}/{type}/{name}/-/link/{repo_name}``."""
    owner, name = _package(ctx, package)
    repo_name = ctx.repos[repo].name if repo in ctx.repos else repo.rpartition("/")[2]
    ctx.response = acting(ctx, who, PackagesApi).link(owner, kind, name, repo_name)


@when(phrase('"{who}" unlinks the "{kind}" package "{package}"'))
def unlink(ctx: ScenarioContext, who: str, kind: str, package: str) -> None:
    """``POST /packages/{owner}/{type}/{name}/-/unlink``."""
    owner, name = _package(ctx, package)
    ctx.response = acting(ctx, who, PackagesApi).unlink(owner, kind, name)


@when(phrase('"{who}" deletes the "{kind}" package "{package}"'))
def delete_package(ctx: ScenarioContext, who: str, kind: str, package: str) -> None:
    """``DELETE /packages/{owner}/{type}/{name}``."""
    owner, name = _package(ctx, package)
    ctx.response = acting(ctx, who, PackagesApi).delete_package(owner, kind, name)


@when(phrase('"{who}" deletes the version "{version}" of the "{kind}" package "{package}"'))
def delete_version(ctx: ScenarioContext, who: str, version: str, kind: str, package: str) -> None:
    """``DELETE /packages/{owner}/{type}/{name}/{version}``."""
    owner, name = _package(ctx, package)
    ctx.response = acting(ctx, who, PackagesApi).delete_version(owner, kind, name, version)


# ---------------------------------------------------------------- Then


def _same_bytes(response: requests.Response, sent: bytes, filename: str) -> None:
    """A download answers exactly what was sent, as an attachment of that name."""
    assert response.status_code == 200, f"expected 200, got {response.status_code}: {response.text[:300]}"
    assert response.content == sent, f"got {len(response.content)} bytes, {len(sent)} were uploaded"
    disposition = response.headers.get("Content-Disposition", "")
    assert disposition.startswith("attachment") and filename in disposition, disposition


def _files(listed: list[dict[str, object]], notes: PackageNotes, package: str, version: str, names: str) -> None:
    """Each listed file has the name, size and md5, sha1, sha256 and sha512 of the bytes sent, in that order."""
    assert [item["name"] for item in listed] == comma_list(names), listed
    for item in listed:
        sent = notes.sent(package, version, str(item["name"]))
        expected = {
            "size": len(sent),
            "md5": hashlib.md5(sent, usedforsecurity=False).hexdigest(),
            "sha1": hashlib.sha1(sent, usedforsecurity=False).hexdigest(),
            "sha256": hashlib.sha256(sent).hexdigest(),
            "sha512": hashlib.sha512(sent).hexdigest(),
        }
        found = {key: item[key] for key in expected}
        assert found == expected, f"{item['name']}: {found} != {expected}"


def _listed(listed: list[dict[str, object]], versions: str) -> None:
    """A list's ``name@version`` entries, in the order answered."""
    found = [f"{item['name']}@{item['version']}" for item in listed]
    assert found == comma_list(versions), found


def _is_package(ctx: ScenarioContext, body: dict[str, Any], package: str, version: str, who: str) -> None:
    """The ``Package``: owner, name, version, type, creator and its page under the owner's packages."""
    owner, name = _package(ctx, package)
    assert (body["owner"]["login"], body["name"], body["version"], body["type"]) == (owner, name, version, GENERIC)
    assert body["creator"]["login"] == ctx.owner_name(who), body["creator"]["login"]
    assert body["html_url"].endswith(f"/{owner}/-/packages/generic/{name.lower()}/{version.lower()}"), body["html_url"]


def _admin_reads(ctx: ScenarioContext, response: requests.Response, what: str) -> Any:
    return expect_status(response, 200, f"the admin reads {what}")


@then(phrase('the body is the bytes uploaded as "{filename}" to "{package}" version "{version}"'))
def then_same_bytes(
    ctx: ScenarioContext, package_notes: PackageNotes, filename: str, package: str, version: str
) -> None:
    """The download answers exactly what was sent."""
    _same_bytes(ctx.last_response(), package_notes.sent(package, version, filename), filename)


@then(phrase('"{who}" downloads "{filename}" of the generic package "{package}" version "{version}" as uploaded'))
def then_downloads_same(
    ctx: ScenarioContext, package_notes: PackageNotes, *, who: str, filename: str, package: str, version: str
) -> None:
    """A fresh download answers the bytes the scenario sent (a refused upload replaced nothing)."""
    owner, name = _package(ctx, package)
    response = acting(ctx, who, PackagesApi).download_generic(owner, name, version, filename)
    _same_bytes(response, package_notes.sent(package, version, filename), filename)


@then(phrase('the files listed are the bytes uploaded to "{package}" version "{version}" as "{names}"'))
def then_files(ctx: ScenarioContext, package_notes: PackageNotes, package: str, version: str, names: str) -> None:
    _files(response_json(ctx), package_notes, package, version, names)


@then(phrase('the files of the generic package "{package}" version "{version}" are the bytes uploaded as "{names}"'))
def then_files_now(ctx: ScenarioContext, package_notes: PackageNotes, package: str, version: str, names: str) -> None:
    """The version's files as the API lists them now."""
    owner, name = _package(ctx, package)
    listed = _admin_reads(ctx, ctx.admin.area(PackagesApi).files(owner, GENERIC, name, version), "the files")
    _files(listed, package_notes, package, version, names)


@then(phrase('the packages listed are "{versions}"'))
def then_listed(ctx: ScenarioContext, versions: str) -> None:
    _listed(response_json(ctx), versions)


@then(phrase('the packages of "{owner}" are "{versions}"'))
def then_packages_now(ctx: ScenarioContext, owner: str, versions: str) -> None:
    """The owner's packages as the API lists them now."""
    _listed(_admin_reads(ctx, ctx.admin.area(PackagesApi).list_packages(ctx.owner_name(owner)), "packages"), versions)


@then(phrase('the versions of the generic package "{package}" are "{versions}"'))
def then_versions_now(ctx: ScenarioContext, package: str, versions: str) -> None:
    owner, name = _package(ctx, package)
    listed = _admin_reads(ctx, ctx.admin.area(PackagesApi).list_versions(owner, GENERIC, name), "the versions")
    _listed(listed, versions)


@then(phrase('the package answered is "{package}" version "{version}" uploaded by "{who}"'))
def then_package(ctx: ScenarioContext, package: str, version: str, who: str) -> None:
    _is_package(ctx, response_json(ctx), package, version, who)


@then(phrase('the generic package "{package}" version "{version}" was uploaded by "{who}"'))
def then_package_now(ctx: ScenarioContext, package: str, version: str, who: str) -> None:
    owner, name = _package(ctx, package)
    body = _admin_reads(ctx, ctx.admin.area(PackagesApi).get(owner, GENERIC, name, version), "the version")
    _is_package(ctx, body, package, version, who)


def _linked(ctx: ScenarioContext, body: dict[str, Any], repo: str | None) -> None:
    repository = body["repository"]
    if repo is None:
        assert repository is None, repository
        return
    ref = ctx.repo(repo)
    assert repository is not None and repository["full_name"] == f"{ref.owner}/{ref.name}", repository


@then(phrase('the package answered is linked to the repository "{repo}"'))
def then_linked(ctx: ScenarioContext, repo: str) -> None:
    _linked(ctx, response_json(ctx), repo)


@then(phrase("the package answered is linked to no repository"))
def then_unlinked(ctx: ScenarioContext) -> None:
    _linked(ctx, response_json(ctx), None)


@then(phrase('the generic package "{package}" version "{version}" is linked to the repository "{repo}"'))
def then_linked_now(ctx: ScenarioContext, package: str, version: str, repo: str) -> None:
    owner, name = _package(ctx, package)
    _linked(ctx, _admin_reads(ctx, ctx.admin.area(PackagesApi).get(owner, GENERIC, name, version), "it"), repo)


@then(phrase('the generic package "{package}" version "{version}" is linked to no repository'))
def then_unlinked_now(ctx: ScenarioContext, package: str, version: str) -> None:
    owner, name = _package(ctx, package)
    _linked(ctx, _admin_reads(ctx, ctx.admin.area(PackagesApi).get(owner, GENERIC, name, version), "it"), None)


@then(phrase('the registry refuses with status {status:d} saying "{message}"'))
def then_registry_refuses(ctx: ScenarioContext, status: int, message: str) -> None:
    """The registry's refusals are plain text (Gitea's package routes), not the REST error body."""
    response = ctx.last_response()
    assert response.status_code == status, f"expected {status}, got {response.status_code}: {response.text[:300]}"
    assert message.lower() in response.text.lower(), response.text[:300]


@then(phrase("the registry asks for credentials"))
def then_challenge(ctx: ScenarioContext) -> None:
    """401 with the challenge package clients answer with basic credentials."""
    response = ctx.last_response()
    assert response.status_code == 401, f"expected 401, got {response.status_code}: {response.text[:300]}"
    assert response.headers.get("WWW-Authenticate") == CHALLENGE, response.headers.get("WWW-Authenticate")


@then(phrase('"{who}" finds no file "{filename}" in the generic package "{package}" version "{version}"'))
def then_no_file(ctx: ScenarioContext, who: str, filename: str, package: str, version: str) -> None:
    owner, name = _package(ctx, package)
    response = acting(ctx, who, PackagesApi).download_generic(owner, name, version, filename)
    assert response.status_code == 404, f"expected 404, got {response.status_code}: {response.text[:300]}"


@then(phrase('"{who}" finds no version "{version}" of the "{kind}" package "{package}"'))
def then_no_version(ctx: ScenarioContext, who: str, version: str, kind: str, package: str) -> None:
    owner, name = _package(ctx, package)
    response = acting(ctx, who, PackagesApi).get(owner, kind, name, version)
    assert response.status_code == 404, f"expected 404, got {response.status_code}: {response.text[:300]}"

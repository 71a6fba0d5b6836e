"""Steps of the Git data API: trees, blobs, refs, a commit's diff or patch, raw files and archives."""

from __future__ import annotations

import base64
import hashlib
import io
import struct
import tarfile
import time
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.deploy_tokens import LfsApi
from conformance.api.gitdata import GitDataApi
from conformance.context import ScenarioContext
from conformance.polling import Backoff
from conformance.seeding import SeededData
from steps.actors import acting, git_credentials, repo_owner
from steps.common import FileNotes, comma_list, expect_status, response_json
from steps.git_https import GitWorld
from steps.parsing import phrase

__all__ = ["GitDataNotes"]

LANGUAGE_WAIT = 10.0
"""Seconds an empty language answer is asked again (Gitea computes the statistics after the push)."""
UNKNOWN_SHA = "1234567890abcdef1234567890abcdef12345678"
"""A well-formed commit id no repository of a run holds."""


@dataclass
class GitDataNotes:
    """What Given steps did over Git for the Git data scenarios: the notes commit each pushed note made."""

    notes_commits: dict[str, str] = field(default_factory=dict)
    lfs_objects: dict[str, bytes] = field(default_factory=dict)
    images: dict[str, bytes] = field(default_factory=dict)


@pytest.fixture
def gitdata_notes() -> GitDataNotes:
    """The scenario's pushed git notes."""
    return GitDataNotes()


@given(phrase('the owner of "{repo}" pushes the git note "{text}" for its last commit'))
def given_git_note(
    ctx: ScenarioContext,
    file_notes: FileNotes,
    git_world: GitWorld,
    gitdata_notes: GitDataNotes,
    *,
    repo: str,
    text: str,
) -> None:
    """Clone over HTTPS, ``git notes add`` on the head the Given steps left, push ``refs/notes/commits``."""
    ref = ctx.repo(repo)
    credentials = git_credentials(ctx, repo.split("/", 1)[0])
    url = f"{ctx.admin.site_url.rstrip('/')}/{ref.owner}/{ref.name}.git"
    clone, cloned = git_world.client.clone(url, "notes", credentials)
    assert cloned.ok, cloned.describe()
    added = git_world.client.run("notes", "add", "-m", text, _last_commit(file_notes, repo), cwd=clone)
    assert added.ok, added.describe()
    pushed = git_world.client.push(clone, "refs/notes/commits", credentials)
    assert pushed.ok, pushed.describe()
    gitdata_notes.notes_commits[repo] = git_world.client.rev_parse(clone, "refs/notes/commits")


@given(phrase('the repository "{repo}" has the file "{path}" stored in LFS with {size:d} bytes'))
def given_lfs_file(
    ctx: ScenarioContext,
    file_notes: FileNotes,
    gitdata_notes: GitDataNotes,
    fake: SeededData,
    *,
    repo: str,
    path: str,
    size: int,
) -> None:
    """The object uploaded through the LFS batch API by the owner, then its pointer file committed."""
    ref = ctx.repo(repo)
    data = fake.data(size)
    oid = hashlib.sha256(data).hexdigest()
    owner = repo_owner(ctx, repo)
    lfs = owner.area(LfsApi)
    answer = expect_status(lfs.batch(ref.owner, ref.name, "upload", [{"oid": oid, "size": size}]), 200, "batch")
    upload = (answer["objects"][0].get("actions") or {}).get("upload")
    if upload is not None:
        expect_status(lfs.transfer("PUT", upload, data), 200, "the LFS upload")
    pointer = f"version https://git-lfs.github.com/spec/v1\noid sha256:{oid}\nsize {size}\n"
    added = owner.contents.create(ref.owner, ref.name, path, pointer, message=f"add {path}")
    file_notes.note(repo, path, expect_status(added, 201, f'the pointer file "{path}"'))
    gitdata_notes.lfs_objects[path] = data


def _png(width: int) -> bytes:
    """A valid grey PNG one pixel high: binary bytes (not UTF-8) that Git must keep as they are."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, 1, 8, 0, 0, 0, 0)
    pixels = zlib.compress(b"\x00" + bytes(range(256))[:width])
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


@given(phrase('the repository "{repo}" has the PNG image "{path}"'))
def given_png(ctx: ScenarioContext, file_notes: FileNotes, gitdata_notes: GitDataNotes, repo: str, path: str) -> None:
    """A binary file committed through the contents API by the owner (base64 of the image's bytes)."""
    ref = ctx.repo(repo)
    data = _png(200)
    added = repo_owner(ctx, repo).contents.create(ref.owner, ref.name, path, data, message=f"add {path}")
    file_notes.note(repo, path, expect_status(added, 201, f'the image "{path}"'))
    gitdata_notes.images[path] = data


def _last_commit(file_notes: FileNotes, repo: str) -> str:
    commit = file_notes.last_commit(repo)
    assert commit is not None, f'the scenario added no file to "{repo}" in a Given step'
    return commit


def _sha(file_notes: FileNotes, repo: str, sha: str) -> str:
    """``the last commit`` is the head the Given steps left; ``the unknown commit`` one no forge has."""
    if sha == "the last commit":
        return _last_commit(file_notes, repo)
    if sha == "the unknown commit":
        return UNKNOWN_SHA
    return sha


# ---------------------------------------------------------------- When


@when(phrase('"{who}" reads the tree of "{sha}" of "{repo}"'))
def when_read_tree(ctx: ScenarioContext, file_notes: FileNotes, who: str, sha: str, repo: str) -> None:
    """``GET .../git/trees/{sha}`` (one level)."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, GitDataApi).tree(ref.owner, ref.name, _sha(file_notes, repo, sha))


@when(phrase('"{who}" reads the tree of "{sha}" of "{repo}" recursively'))
def when_read_tree_recursive(ctx: ScenarioContext, file_notes: FileNotes, who: str, sha: str, repo: str) -> None:
    """``GET .../git/trees/{sha}?recursive=true``."""
    ref = ctx.repo(repo)
    api = acting(ctx, who, GitDataApi)
    ctx.response = api.tree(ref.owner, ref.name, _sha(file_notes, repo, sha), recursive="true")


@when(phrase('"{who}" reads page {page:d} of the tree of "{sha}" of "{repo}" with {per_page:d} entries a page'))
def when_read_tree_page(
    ctx: ScenarioContext, file_notes: FileNotes, *, who: str, page: int, sha: str, repo: str, per_page: int
) -> None:
    """``GET .../git/trees/{sha}?recursive=true&page=&per_page=``."""
    ref = ctx.repo(repo)
    api = acting(ctx, who, GitDataApi)
    commit = _sha(file_notes, repo, sha)
    ctx.response = api.tree(ref.owner, ref.name, commit, recursive="true", page=page, per_page=per_page)


@when(phrase('"{who}" reads the blob of the file "{path}" of "{repo}"'))
def when_read_blob(ctx: ScenarioContext, file_notes: FileNotes, who: str, path: str, repo: str) -> None:
    """``GET .../git/blobs/{sha}`` with the blob SHA the contents API gave when the file was added."""
    ref = ctx.repo(repo)
    sha = str(file_notes.answer(repo, path)["content"]["sha"])
    ctx.response = acting(ctx, who, GitDataApi).blob(ref.owner, ref.name, sha)


@when(phrase('"{who}" reads the blob "{sha}" of "{repo}"'))
def when_read_blob_by_sha(ctx: ScenarioContext, file_notes: FileNotes, who: str, sha: str, repo: str) -> None:
    """``GET .../git/blobs/{sha}`` with a given (malformed or unknown) SHA."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, GitDataApi).blob(ref.owner, ref.name, _sha(file_notes, repo, sha))


@when(phrase('"{who}" lists the refs of "{repo}"'))
def when_list_all_refs(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``GET .../git/refs``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, GitDataApi).refs(ref.owner, ref.name)


@when(phrase('"{who}" lists the refs "{prefix}" of "{repo}"'))
def when_list_refs(ctx: ScenarioContext, who: str, prefix: str, repo: str) -> None:
    """``GET .../git/refs/{ref}``: the refs whose name starts with ``refs/<prefix>``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, GitDataApi).refs(ref.owner, ref.name, prefix)


@when(phrase('"{who}" downloads "{sha}" of "{repo}" as a {diff_type:w}'))
def when_commit_text(
    ctx: ScenarioContext, file_notes: FileNotes, *, who: str, sha: str, repo: str, diff_type: str
) -> None:
    """``GET .../git/commits/{sha}.diff`` or ``.patch``."""
    ref = ctx.repo(repo)
    api = acting(ctx, who, GitDataApi)
    ctx.response = api.commit_text(ref.owner, ref.name, _sha(file_notes, repo, sha), diff_type)


@when(phrase('"{who}" downloads the raw file "{path}" of "{repo}"'))
def when_raw(ctx: ScenarioContext, who: str, path: str, repo: str) -> None:
    """``GET .../raw/{filepath}`` without a ``ref`` query (the path may start with a ref)."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, GitDataApi).raw(ref.owner, ref.name, path)


@when(phrase('"{who}" downloads the raw file "{path}" of "{repo}" at the ref "{at}"'))
def when_raw_at(ctx: ScenarioContext, who: str, path: str, repo: str, at: str) -> None:
    """``GET .../raw/{filepath}?ref=``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, GitDataApi).raw(ref.owner, ref.name, path, ref=at)


@when(phrase('"{who}" downloads the archive "{name}" of "{repo}"'))
def when_archive(ctx: ScenarioContext, who: str, name: str, repo: str) -> None:
    """``GET .../archive/{archive}``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, GitDataApi).archive(ref.owner, ref.name, name)


@when(phrase('"{who}" reads the language statistics of "{repo}"'))
def when_languages(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``GET .../languages``; Gitea fills the statistics in the background after a push, so an empty answer
    is asked again for a few seconds before it counts."""
    ref = ctx.repo(repo)
    api = acting(ctx, who, GitDataApi)
    deadline = time.monotonic() + LANGUAGE_WAIT
    ctx.response = api.languages(ref.owner, ref.name)
    backoff = Backoff(cap=0.5)
    while ctx.response.status_code == 200 and ctx.response.json() == {} and time.monotonic() < deadline:
        backoff.sleep()
        ctx.response = api.languages(ref.owner, ref.name)


@when(phrase('"{who}" downloads the archive "{name}" of "{repo}" with only the path "{path}"'))
def when_archive_path(ctx: ScenarioContext, who: str, name: str, repo: str, path: str) -> None:
    """``GET .../archive/{archive}?path=``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, GitDataApi).archive(ref.owner, ref.name, name, path)


# ---------------------------------------------------------------- Then: trees


def _entries(ctx: ScenarioContext) -> dict[str, dict[str, Any]]:
    body = response_json(ctx)
    assert isinstance(body, dict), f"expected a GitTreeResponse: {str(body)[:300]}"
    return {str(entry["path"]): entry for entry in body.get("tree") or []}


@then(phrase('the tree lists "{path}" as a {kind:w}'))
def then_tree_lists(ctx: ScenarioContext, path: str, kind: str) -> None:
    """The entry exists with that type, and its URL leads to its tree or blob by its SHA."""
    entries = _entries(ctx)
    assert path in entries, f"{path!r} is not in the tree: {sorted(entries)}"
    entry = entries[path]
    assert entry["type"] == kind, f"{path!r} is a {entry['type']}, expected a {kind}"
    link = f"/git/{'trees' if kind == 'tree' else 'blobs'}/{entry['sha']}"
    assert str(entry["url"]).endswith(link), f"the URL of {path!r} is {entry['url']!r}, expected …{link}"


@then(phrase('the tree does not list "{path}"'))
def then_tree_lacks(ctx: ScenarioContext, path: str) -> None:
    """A one-level listing holds no entry of a sub-folder."""
    entries = _entries(ctx)
    assert path not in entries, f"{path!r} is listed: {sorted(entries)}"


@then(phrase('the tree answers the SHA of the last commit of "{repo}"'))
def then_tree_sha(ctx: ScenarioContext, file_notes: FileNotes, repo: str) -> None:
    """Gitea's ``sha`` is the object the name resolved to: the commit asked for, not its root tree."""
    body = response_json(ctx)
    commit = _last_commit(file_notes, repo)
    assert body["sha"] == commit, f"the tree's sha is {body['sha']!r}, expected the commit {commit!r}"


@then(phrase("the tree page holds {count:d} entries of {total:d} and is {state:w}"))
def then_tree_page(ctx: ScenarioContext, count: int, total: int, state: str) -> None:
    """The page's size, the count of every entry, and whether entries follow (``truncated`` or ``complete``)."""
    body = response_json(ctx)
    held = len(body.get("tree") or [])
    assert held == count, f"the page holds {held} entries, expected {count}"
    assert body["total_count"] == total, f"total_count is {body['total_count']}, expected {total}"
    assert body["truncated"] is (state == "truncated"), f"truncated is {body['truncated']}, expected {state}"


@then(phrase('the language statistics are "{pairs}"'))
def then_languages(ctx: ScenarioContext, pairs: str) -> None:
    """Exactly these languages with these byte counts (``Python: 9, HTML: 10``)."""
    expected = {name.strip(): int(size) for name, _, size in (pair.partition(":") for pair in comma_list(pairs))}
    body = response_json(ctx)
    assert body == expected, f"the statistics are {body}, expected {expected}"


@then(phrase('the note reads "{text}" and its commit is the notes commit pushed to "{repo}"'))
def then_note(ctx: ScenarioContext, gitdata_notes: GitDataNotes, text: str, repo: str) -> None:
    """Gitea's ``Note``: the message, and as ``commit`` the notes-ref commit that last changed the note."""
    body = response_json(ctx)
    assert body["message"].rstrip("\n") == text, f"the note reads {body['message']!r}"
    expected = gitdata_notes.notes_commits[repo]
    assert body["commit"]["sha"] == expected, f"the note's commit is {body['commit']['sha']}, expected {expected}"


@when(phrase('"{who}" reads the git note of the last commit of "{repo}"'))
def when_read_note(ctx: ScenarioContext, file_notes: FileNotes, who: str, repo: str) -> None:
    """``GET .../git/notes/{sha}`` for the head the Given steps left."""
    ref = ctx.repo(repo)
    api = acting(ctx, who, GitDataApi)
    ctx.response = api.note(ref.owner, ref.name, _last_commit(file_notes, repo))


# ---------------------------------------------------------------- Then: blobs and refs


@then(phrase('the blob holds "{content}" in base64'))
def then_blob_content(ctx: ScenarioContext, content: str) -> None:
    """The content decodes to the file's text; size and encoding agree."""
    body = response_json(ctx)
    assert body["encoding"] == "base64", f"encoding is {body['encoding']!r}"
    assert base64.b64decode(body["content"]) == content.encode(), f"content decodes to {body['content']!r}"
    assert body["size"] == len(content.encode()), f"size is {body['size']}, expected {len(content.encode())}"


@then(phrase('the refs are "{names}"'))
def then_refs(ctx: ScenarioContext, names: str) -> None:
    """Exactly these full ref names, in this order (a list even for one ref)."""
    body = response_json(ctx)
    assert isinstance(body, list), f"expected a list of References: {str(body)[:300]}"
    found = [ref["ref"] for ref in body]
    assert found == comma_list(names), f"the refs are {found}, expected {comma_list(names)}"


@then(phrase('the ref "{name}" points at the last commit of "{repo}"'))
def then_ref_points(ctx: ScenarioContext, file_notes: FileNotes, name: str, repo: str) -> None:
    """The ref's object is that commit, with its type and its ``/git/commits/{sha}`` URL."""
    body = response_json(ctx)
    refs = {ref["ref"]: ref for ref in body}
    assert name in refs, f"{name!r} is not listed: {sorted(refs)}"
    target = refs[name]["object"]
    commit = _last_commit(file_notes, repo)
    assert target["sha"] == commit and target["type"] == "commit", f"{name} points at {target}"
    assert str(target["url"]).endswith(f"/git/commits/{commit}"), f"the object URL is {target['url']!r}"
    assert str(refs[name]["url"]).endswith(f"/git/{name}"), f"the ref URL is {refs[name]['url']!r}"


# ---------------------------------------------------------------- Then: text, files and archives


@then(phrase('the downloaded text starts with "{prefix}"'))
def then_text_starts(ctx: ScenarioContext, file_notes: FileNotes, prefix: str) -> None:
    """``{last commit}`` in the prefix stands for the head the Given steps left (of any repository)."""
    commits = [str(answer["commit"]["sha"]) for answer in file_notes.answers.values()]
    expected = prefix.replace("{last commit}", commits[-1] if commits else "")
    text = ctx.last_response().text
    assert text.startswith(expected), f"the text starts {text[:120]!r}, expected {expected!r}"


@then(phrase('the downloaded bytes are the LFS object of "{path}"'))
def then_lfs_bytes(ctx: ScenarioContext, gitdata_notes: GitDataNotes, path: str) -> None:
    """The body is the stored object, not the pointer file."""
    data = ctx.last_response().content
    expected = gitdata_notes.lfs_objects[path]
    assert data == expected, (
        f"downloaded {len(data)} bytes starting {data[:60]!r}, expected the {len(expected)}-byte object"
    )


@then(phrase('the downloaded bytes are those of the image "{path}"'))
def then_image_bytes(ctx: ScenarioContext, gitdata_notes: GitDataNotes, path: str) -> None:
    """The body is the committed image, byte for byte."""
    data = ctx.last_response().content
    expected = gitdata_notes.images[path]
    assert data == expected, (
        f"downloaded {len(data)} bytes starting {data[:24]!r}, expected the {len(expected)}-byte image"
    )


@then(phrase('the downloaded bytes are "{content}"'))
def then_bytes(ctx: ScenarioContext, content: str) -> None:
    """The body is exactly the file's content."""
    data = ctx.last_response().content
    assert data == content.encode(), f"downloaded {data[:200]!r}, expected {content!r}"


def _archive_names(data: bytes) -> list[str]:
    if data.startswith(b"PK"):
        return zipfile.ZipFile(io.BytesIO(data)).namelist()
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        return archive.getnames()


@then(phrase('the archive holds "{path}" under the folder named after "{repo}"'))
def then_archive_holds(ctx: ScenarioContext, path: str, repo: str) -> None:
    """A zip or tar.gz whose paths start with the repository's directory name (Gitea's prefix)."""
    names = _archive_names(ctx.last_response().content)
    expected = f"{ctx.repo(repo).name.lower()}/{path}"
    assert expected in names, f"{expected!r} is not in the archive: {names[:20]}"


@then(phrase('the archive does not hold "{path}"'))
def then_archive_lacks(ctx: ScenarioContext, path: str) -> None:
    """No entry of the zip or tar.gz ends with the path."""
    names = _archive_names(ctx.last_response().content)
    found = [name for name in names if name.endswith(f"/{path}")]
    assert not found, f"the archive holds {found}"


@then(phrase('the archive is a Git bundle whose branch "bundle" is at the last commit of "{repo}"'))
def then_bundle(ctx: ScenarioContext, file_notes: FileNotes, repo: str) -> None:
    """A v2 bundle whose header names ``refs/heads/bundle`` and ``HEAD`` at the commit."""
    data = ctx.last_response().content
    header = data.split(b"\n\n", 1)[0].decode("utf-8", "replace").splitlines()
    assert header and header[0] == "# v2 git bundle", f"not a v2 bundle: {data[:60]!r}"
    commit = _last_commit(file_notes, repo)
    assert f"{commit} refs/heads/bundle" in header, f"the bundle's refs: {header[1:]}"
    assert f"{commit} HEAD" in header, f"the bundle's refs: {header[1:]}"


@then(phrase('the download is named after "{repo}" with "{suffix}"'))
def then_download_name(ctx: ScenarioContext, repo: str, suffix: str) -> None:
    """``Content-Disposition`` names the file ``<repository name>-<suffix>``, as Gitea names archives."""
    disposition = ctx.last_response().headers.get("Content-Disposition", "")
    expected = f"{ctx.repo(repo).name}-{suffix}"
    assert f'filename="{expected}"' in disposition, f"Content-Disposition is {disposition!r}, expected {expected}"

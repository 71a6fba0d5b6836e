"""Steps of the contents area: single-file create, read, update, delete, and directory listings.

Each successful change is a commit: the steps keep the branch head they know (from the Given that
added a file, then from every change) so a Then can check that the new commit sits on top of it.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

import pytest
from pytest_bdd import then, when

from conformance.client import json_of
from conformance.context import RepoRef, ScenarioContext
from steps.actors import acting_api
from steps.common import FileNotes
from steps.parsing import phrase

__all__ = ["ContentsNotes"]


@dataclass
class ContentsNotes:
    """The branch head the contents steps know per repository (from the Given files, then from each change),
    the head before the last change, and the branches the Git protocol advertised before it."""

    files: FileNotes
    heads: dict[str, str] = field(default_factory=dict)
    previous_heads: dict[str, str | None] = field(default_factory=dict)
    refs_before: dict[str, dict[str, str]] = field(default_factory=dict)

    def head(self, repo: str) -> str | None:
        """The head of ``repo``'s default branch as the scenario last saw it."""
        return self.heads.get(repo) or self.files.last_commit(repo)

    def previous_head(self, repo: str) -> str:
        """The head before the last change; an error when no change was made."""
        previous = self.previous_heads.get(repo)
        assert previous, f'the scenario does not know the head of "{repo}" before the change'
        return previous

    def change(self, ctx: ScenarioContext, repo: RepoRef, result: Any) -> None:
        """Keep the head before and after a change (the answer's commit) so Then steps can check the chain."""
        self.previous_heads[repo.short] = self.head(repo.short)
        ctx.response = result
        if result.status_code in (200, 201):
            body = json_of(result)
            commit = body.get("commit") if isinstance(body, dict) else None
            if isinstance(commit, dict) and commit.get("sha"):
                self.heads[repo.short] = str(commit["sha"])


@pytest.fixture
def contents_notes(file_notes: FileNotes) -> ContentsNotes:
    """The scenario's contents notes, over its committed files."""
    return ContentsNotes(file_notes)


def _sha_of(contents_notes: ContentsNotes, repo: str, path: str) -> str:
    """The blob sha of a file a Given step added."""
    return str(contents_notes.files.answer(repo, path)["content"]["sha"])


@when(phrase('"{who}" creates the file "{path}" in "{repo}" with content "{content}"'))
def create_file(
    ctx: ScenarioContext, contents_notes: ContentsNotes, *, who: str, path: str, repo: str, content: str
) -> None:
    """``POST .../contents/{path}`` on the default branch."""
    ref = ctx.repo(repo)
    contents_notes.change(
        ctx, ref, acting_api(ctx, who).contents.create(ref.owner, ref.name, path, content, message=f"create {path}")
    )


@when(phrase('"{who}" creates the file "{path}" in "{repo}" on the branch "{branch}" with content "{content}"'))
def create_file_on_branch(
    ctx: ScenarioContext, contents_notes: ContentsNotes, *, who: str, path: str, repo: str, branch: str, content: str
) -> None:
    """``POST .../contents/{path}`` naming a branch."""
    ref = ctx.repo(repo)
    contents_notes.change(
        ctx, ref, acting_api(ctx, who).contents.create(ref.owner, ref.name, path, content, branch=branch)
    )


@when(phrase('"{who}" updates the file "{path}" in "{repo}" to "{content}"'))
def update_file(
    ctx: ScenarioContext, contents_notes: ContentsNotes, *, who: str, path: str, repo: str, content: str
) -> None:
    """``PUT .../contents/{path}`` with the sha of the version the Given step added."""
    ref = ctx.repo(repo)
    sha = _sha_of(contents_notes, repo, path)
    contents_notes.change(
        ctx,
        ref,
        acting_api(ctx, who).contents.update(ref.owner, ref.name, path, content, sha, message=f"update {path}"),
    )


@when(phrase('"{who}" updates the file "{path}" in "{repo}" to "{content}" based on an outdated sha'))
def update_file_stale(
    ctx: ScenarioContext, contents_notes: ContentsNotes, *, who: str, path: str, repo: str, content: str
) -> None:
    """``PUT .../contents/{path}`` with a sha that is not the file's current blob."""
    ref = ctx.repo(repo)
    sha = _sha_of(contents_notes, repo, path)
    stale = ("0" if sha[0] != "0" else "1") + sha[1:]
    contents_notes.change(ctx, ref, acting_api(ctx, who).contents.update(ref.owner, ref.name, path, content, stale))


@when(phrase('"{who}" deletes the file "{path}" from "{repo}"'))
def delete_file(ctx: ScenarioContext, contents_notes: ContentsNotes, who: str, path: str, repo: str) -> None:
    """``DELETE .../contents/{path}`` with the sha of the version the Given step added."""
    ref = ctx.repo(repo)
    sha = _sha_of(contents_notes, repo, path)
    contents_notes.change(
        ctx, ref, acting_api(ctx, who).contents.delete(ref.owner, ref.name, path, sha, message=f"delete {path}")
    )


@when(phrase('"{who}" reads the file "{path}" of "{repo}"'))
def read_file(ctx: ScenarioContext, who: str, path: str, repo: str) -> None:
    """``GET .../contents/{path}``."""
    ref = ctx.repo(repo)
    ctx.response = acting_api(ctx, who).contents.get(ref.owner, ref.name, path)


@when(phrase('"{who}" lists the directory "{path}" of "{repo}"'))
def list_directory(ctx: ScenarioContext, who: str, path: str, repo: str) -> None:
    """``GET .../contents/{path}`` of a directory."""
    ref = ctx.repo(repo)
    ctx.response = acting_api(ctx, who).contents.get(ref.owner, ref.name, path)


@when(phrase('"{who}" lists the root directory of "{repo}"'))
def list_root(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``GET .../contents``."""
    ref = ctx.repo(repo)
    ctx.response = acting_api(ctx, who).contents.get(ref.owner, ref.name, "")


def _decoded(entry: dict[str, Any]) -> str:
    assert entry.get("encoding") == "base64", f"content encoding is {entry.get('encoding')!r}, expected base64"
    return base64.b64decode(str(entry.get("content", ""))).decode("utf-8")


@then(phrase('the response holds the file "{path}" with content "{content}"'))
def response_holds_file(ctx: ScenarioContext, path: str, content: str) -> None:
    """The answer (a ContentsResponse, or a FileResponse's content) is that file with that content."""
    body = json_of(ctx.last_response())
    entry = body.get("content") if isinstance(body, dict) and "commit" in body else body
    assert isinstance(entry, dict), f"expected a file object, got {body!r:.300}"
    assert entry.get("type") == "file", f"type is {entry.get('type')!r}, expected file"
    assert entry.get("path") == path, f"path is {entry.get('path')!r}, expected {path!r}"
    if "content" in entry and entry.get("content") is not None:
        assert _decoded(entry) == content, f"the file holds {_decoded(entry)!r}, expected {content!r}"


@then(phrase('the file "{path}" of "{repo}" holds "{content}"'))
def file_holds(ctx: ScenarioContext, path: str, repo: str, content: str) -> None:
    """Reading the file back gives exactly the content."""
    ref = ctx.repo(repo)
    response = ctx.admin.contents.get(ref.owner, ref.name, path)
    assert response.status_code == 200, f'reading "{path}" answered {response.status_code}'
    actual = _decoded(json_of(response))
    assert actual == content, f'"{path}" holds {actual!r}, expected {content!r}'


@then(phrase('the file "{path}" of "{repo}" does not exist'))
def file_absent(ctx: ScenarioContext, path: str, repo: str) -> None:
    """Reading the file answers 404."""
    ref = ctx.repo(repo)
    response = ctx.admin.contents.get(ref.owner, ref.name, path)
    assert response.status_code == 404, f'"{path}" should not exist, reading it answered {response.status_code}'


@then(phrase('the listing names exactly "{names}"'))
def listing_names(ctx: ScenarioContext, names: str) -> None:
    """The directory listing has exactly these entry names (comma separated), in any order."""
    body = json_of(ctx.last_response())
    assert isinstance(body, list), f"a directory listing is an array, got {type(body).__name__}"
    actual = sorted(str(entry.get("name")) for entry in body)
    expected = sorted(name.strip() for name in names.split(","))
    assert actual == expected, f"the listing names {actual}, expected {expected}"


@then(phrase('the listing shows "{name}" as a {kind:w}'))
def listing_kind(ctx: ScenarioContext, name: str, kind: str) -> None:
    """An entry of the listing has the type ``file`` or ``dir``."""
    body = json_of(ctx.last_response())
    entries = [entry for entry in body if isinstance(entry, dict) and entry.get("name") == name]
    assert entries, f'the listing has no entry "{name}"'
    kinds = {"file": "file", "directory": "dir"}
    assert entries[0].get("type") == kinds.get(kind, kind), f'"{name}" is a {entries[0].get("type")!r}'


@then(phrase('the change is a new commit on top of the previous head of "{repo}"'))
def new_commit_on_head(ctx: ScenarioContext, contents_notes: ContentsNotes, repo: str) -> None:
    """The answer's commit is new and its first parent is the branch head before the change."""
    previous = contents_notes.previous_head(repo)
    commit = json_of(ctx.last_response()).get("commit")
    assert isinstance(commit, dict), "the answer has no commit object"
    assert commit.get("sha") and commit["sha"] != previous, "the change did not make a new commit"
    parents = [parent.get("sha") for parent in commit.get("parents", []) if isinstance(parent, dict)]
    assert parents[:1] == [previous], f"the new commit's parents are {parents}, expected [{previous}]"


@then(phrase('the file "{path}" of "{repo}" was last changed by that commit'))
def file_last_commit(ctx: ScenarioContext, path: str, repo: str) -> None:
    """Reading the file on the default branch names the answer's commit as its last commit."""
    ref = ctx.repo(repo)
    sha = json_of(ctx.last_response())["commit"]["sha"]
    response = ctx.admin.contents.get(ref.owner, ref.name, path, ref=ref.default_branch)
    assert response.status_code == 200, f'reading "{path}" answered {response.status_code}'
    last = json_of(response).get("last_commit_sha")
    assert last == sha, f'"{path}" was last changed by {last!r}, expected {sha!r}'


@when(phrase('"{who}" updates the file "{path}" in "{repo}" to "{content}" without a sha'))
def update_file_without_sha(
    ctx: ScenarioContext, contents_notes: ContentsNotes, *, who: str, path: str, repo: str, content: str
) -> None:
    """``PUT .../contents/{path}`` with no ``sha``: Gitea then creates the file."""
    ref = ctx.repo(repo)
    contents_notes.change(
        ctx, ref, acting_api(ctx, who).contents.update(ref.owner, ref.name, path, content, None, message=f"put {path}")
    )


@when(phrase('"{who}" creates the file "{path}" in "{repo}" with content that is not base64'))
def create_file_bad_base64(ctx: ScenarioContext, contents_notes: ContentsNotes, who: str, path: str, repo: str) -> None:
    """``POST .../contents/{path}`` whose ``content`` does not decode."""
    ref = ctx.repo(repo)
    contents_notes.change(
        ctx, ref, acting_api(ctx, who).contents.create_raw(ref.owner, ref.name, path, {"content": "%%% not base64 %%%"})
    )


@when(phrase('"{who}" deletes the file "{path}" from "{repo}" giving the sha of "{other}"'))
def delete_missing_file(
    ctx: ScenarioContext, contents_notes: ContentsNotes, *, who: str, path: str, repo: str, other: str
) -> None:
    """``DELETE .../contents/{path}`` of a path that does not exist (with some real blob sha)."""
    ref = ctx.repo(repo)
    sha = _sha_of(contents_notes, repo, other)
    contents_notes.change(ctx, ref, acting_api(ctx, who).contents.delete(ref.owner, ref.name, path, sha))


@then(phrase('the file "{path}" of "{repo}" at the previous head holds "{content}"'))
def file_at_previous_head(
    ctx: ScenarioContext, contents_notes: ContentsNotes, path: str, repo: str, content: str
) -> None:
    """Reading the file at the commit before the change (``?ref=<sha>``) gives the old content."""
    previous = contents_notes.previous_head(repo)
    ref = ctx.repo(repo)
    response = ctx.admin.contents.get(ref.owner, ref.name, path, ref=str(previous))
    assert response.status_code == 200, f'reading "{path}" at {previous} answered {response.status_code}'
    actual = _decoded(json_of(response))
    assert actual == content, f'at {previous} "{path}" holds {actual!r}, expected {content!r}'


@when(phrase('"{who}" moves the file "{source}" in "{repo}" to "{path}" with content "{content}"'))
def move_file(
    ctx: ScenarioContext, contents_notes: ContentsNotes, *, who: str, source: str, repo: str, path: str, content: str
) -> None:
    """``PUT .../contents/{path}`` with ``from_path`` and the sha of the file the Given step added."""
    ref = ctx.repo(repo)
    sha = _sha_of(contents_notes, repo, source)
    api = acting_api(ctx, who).contents
    contents_notes.change(ctx, ref, api.update(ref.owner, ref.name, path, content, sha, from_path=source))

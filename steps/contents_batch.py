"""Steps of the contents area beyond one file: the multi-file change, reading several files in one call,
the extended contents and diff patches.

A When step that changes files first notes the branches the Git protocol advertises, so a Then can
check that a refused change left every ref exactly where it was.
"""

from __future__ import annotations

import base64
import json
from datetime import datetime
from typing import Any

from pytest_bdd import given, then, when

from conformance.client import json_of
from conformance.context import RepoRef, ScenarioContext
from conformance.identities import IdentityFactory
from steps.actors import acting_api, repo_owner, scoped_token_api
from steps.common import expect_status
from steps.contents import ContentsNotes
from steps.parsing import phrase


def _snapshot(ctx: ScenarioContext, contents_notes: ContentsNotes, repo: RepoRef) -> None:
    """Note the advertised branches before a change."""
    contents_notes.refs_before[repo.short] = ctx.admin.contents.advertised_branches(repo.owner, repo.name)


def _options(text: str) -> dict[str, Any]:
    """``key=value; a.b=value`` into a (nested) body; ``true``/``false`` become booleans."""
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in text.split(";"))):
        key, _, raw = item.partition("=")
        value: Any = {"true": True, "false": False}.get(raw.strip(), raw.strip())
        target = options
        *parents, leaf = key.strip().split(".")
        for parent in parents:
            target = target.setdefault(parent, {})
        target[leaf] = value
    return options


def _operations(contents_notes: ContentsNotes, repo: str, datatable: list[list[str]]) -> list[dict[str, Any]]:
    """The table's rows (operation, path, content, from, sha) as ``ChangeFileOperation`` objects.

    ``sha`` is ``current`` (the sha the Given step saw for the source path), ``stale`` (a wrong one), a
    literal 40-digit sha, or empty; ``content`` ``<not base64>`` sends text that does not decode.
    """
    header, *rows = datatable
    files = []
    for row in rows:
        cells = dict(zip(header, row, strict=True))
        item: dict[str, Any] = {"operation": cells["operation"], "path": cells["path"]}
        source = cells.get("from") or cells["path"]
        if cells.get("from"):
            item["from_path"] = cells["from"]
        content = cells.get("content", "")
        if content == "<not base64>":
            item["content"] = "%%% not base64 %%%"
        elif content:
            item["content"] = base64.b64encode(content.encode()).decode()
        sha = cells.get("sha", "")
        if len(sha) == 40:
            item["sha"] = sha
        elif sha in ("current", "stale"):
            known = str(contents_notes.files.answer(repo, source)["content"]["sha"])
            item["sha"] = known if sha == "current" else ("0" if known[0] != "0" else "1") + known[1:]
        files.append(item)
    return files


@given(phrase('the repository "{repo}" has the file "{path}" with content "{content}" on the new branch "{branch}"'))
def given_file_on_new_branch(ctx: ScenarioContext, repo: str, path: str, content: str, branch: str) -> None:
    """A branch started from the default branch by a commit adding one file (by the owner)."""
    ref = ctx.repo(repo)
    encoded = base64.b64encode(content.encode()).decode()
    files = [{"operation": "create", "path": path, "content": encoded}]
    created = repo_owner(ctx, repo).contents.change_files(ref.owner, ref.name, files, new_branch=branch)
    expect_status(created, 201, f"start the branch {branch}")


def _send_change(
    ctx: ScenarioContext,
    contents_notes: ContentsNotes,
    who: str,
    repo: str,
    *,
    datatable: list[list[str]],
    options: str,
) -> None:
    ref = ctx.repo(repo)
    _snapshot(ctx, contents_notes, ref)
    files = _operations(contents_notes, repo, datatable)
    answer = acting_api(ctx, who).contents.change_files(ref.owner, ref.name, files, **_options(options))
    contents_notes.change(ctx, ref, answer)


@when(phrase('"{who}" changes files of "{repo}" in one commit:'))
def change_files(
    ctx: ScenarioContext, contents_notes: ContentsNotes, who: str, repo: str, datatable: list[list[str]]
) -> None:
    """``POST .../contents`` with the table's operations on the default branch."""
    _send_change(ctx, contents_notes, who, repo, datatable=datatable, options="")


@when(phrase('"{who}" changes files of "{repo}" in one commit with the options "{options}":'))
def change_files_with_options(
    ctx: ScenarioContext,
    contents_notes: ContentsNotes,
    *,
    who: str,
    repo: str,
    options: str,
    datatable: list[list[str]],
) -> None:
    """``POST .../contents`` with FileOptions given as ``key=value; ...`` (``author.name=...``)."""
    _send_change(ctx, contents_notes, who, repo, datatable=datatable, options=options)


@then(phrase('the branches of "{repo}" did not move'))
def branches_unchanged(ctx: ScenarioContext, contents_notes: ContentsNotes, repo: str) -> None:
    """Every branch the Git protocol advertises is where it was before the refused change."""
    ref = ctx.repo(repo)
    before = contents_notes.refs_before.get(repo)
    assert before is not None, "the scenario did not note the branches before the change"
    after = ctx.admin.contents.advertised_branches(ref.owner, ref.name)
    assert after == before, f"the branches moved: before {before}, after {after}"


@then(phrase('the branch "{branch}" of "{repo}" is at the new commit'))
def branch_at_new_commit(ctx: ScenarioContext, branch: str, repo: str) -> None:
    """The advertised head of the branch is the answer's commit."""
    ref = ctx.repo(repo)
    sha = json_of(ctx.last_response())["commit"]["sha"]
    heads = ctx.admin.contents.advertised_branches(ref.owner, ref.name)
    assert heads.get(branch) == sha, f"{branch} is at {heads.get(branch)!r}, expected {sha}"


@then(phrase('the commit message is "{message}"'))
def commit_message(ctx: ScenarioContext, message: str) -> None:
    """The answer's commit message, ``\\n`` standing for a line break (a trailing one is ignored)."""
    actual = str(json_of(ctx.last_response())["commit"]["message"]).rstrip("\n")
    assert actual == message.replace("\\n", "\n"), f"the commit message is {actual!r}"


@then(phrase('the commit\'s {role:w} is "{name}" <{email}> at "{date}"'))
def commit_person(ctx: ScenarioContext, role: str, name: str, email: str, date: str) -> None:
    """The answer's author or committer, with the date (compared as an instant)."""
    person = json_of(ctx.last_response())["commit"][role]
    assert (person["name"], person["email"]) == (name, email), f"the {role} is {person}"
    stamp = datetime.fromisoformat(str(person["date"]).replace("Z", "+00:00"))
    assert stamp == datetime.fromisoformat(date.replace("Z", "+00:00")), f"the {role} date is {person['date']}"


@then(phrase('the answer lists the files "{paths}"'))
def answer_lists_files(ctx: ScenarioContext, paths: str) -> None:
    """The answer's ``files`` (multi-file change) or the array (file-contents) names these paths in order;
    ``null`` stands for an entry that is null."""
    body = json_of(ctx.last_response())
    entries = body["files"] if isinstance(body, dict) else body
    actual = ["null" if entry is None else entry.get("path") for entry in entries]
    expected = [path.strip() for path in paths.split(",")]
    assert actual == expected, f"the answer lists {actual}, expected {expected}"


@then(phrase('the answer\'s entry "{path}" holds "{content}"'))
def answer_entry_holds(ctx: ScenarioContext, path: str, content: str) -> None:
    """An entry of the answer (files array or list) is that file, with that base64-decoded content."""
    body = json_of(ctx.last_response())
    entries = body["files"] if isinstance(body, dict) else body
    found = [entry for entry in entries if isinstance(entry, dict) and entry.get("path") == path]
    assert found, f'the answer has no entry "{path}"'
    raw = base64.b64decode(str(found[0].get("content") or ""))
    assert raw.decode("utf-8") == content, f'"{path}" holds {raw!r}, expected {content!r}'


@then(phrase('the file "{path}" of "{repo}" on the branch "{branch}" holds "{content}"'))
def file_on_branch_holds(ctx: ScenarioContext, path: str, repo: str, branch: str, content: str) -> None:
    """Reading the file at the branch gives exactly the content."""
    ref = ctx.repo(repo)
    response = ctx.admin.contents.get(ref.owner, ref.name, path, ref=branch)
    assert response.status_code == 200, f'reading "{path}" at {branch} answered {response.status_code}'
    actual = base64.b64decode(str(json_of(response)["content"])).decode("utf-8")
    assert actual == content, f'"{path}" at {branch} holds {actual!r}, expected {content!r}'


# ---------------------------------------------------------------- several files, extended contents


def _paths(text: str) -> list[str]:
    return [path.strip() for path in text.split(",")]


@when(phrase('"{who}" reads the files "{paths}" of "{repo}" in one call'))
def read_files(ctx: ScenarioContext, who: str, paths: str, repo: str) -> None:
    """``POST .../file-contents``."""
    ref = ctx.repo(repo)
    ctx.response = acting_api(ctx, who).contents.get_files(ref.owner, ref.name, _paths(paths))


@when(phrase('"{who}" reads the files "{paths}" of "{repo}" at the ref "{at}" in one call'))
def read_files_at(ctx: ScenarioContext, who: str, paths: str, repo: str, at: str) -> None:
    """``POST .../file-contents?ref=``."""
    ref = ctx.repo(repo)
    ctx.response = acting_api(ctx, who).contents.get_files(ref.owner, ref.name, _paths(paths), ref=at)


@when(phrase('"{who}" reads the files "{paths}" of "{repo}" in one GET call'))
def read_files_get(ctx: ScenarioContext, who: str, paths: str, repo: str) -> None:
    """``GET .../file-contents?body={"files": [...]}``."""
    ref = ctx.repo(repo)
    body = json.dumps({"files": _paths(paths)})
    ctx.response = acting_api(ctx, who).contents.get_files_by_query(ref.owner, ref.name, body)


@when(phrase('"{who}" reads several files of "{repo}" with the query body "{raw}"'))
def read_files_raw_query(ctx: ScenarioContext, who: str, repo: str, raw: str) -> None:
    """``GET .../file-contents?body=`` with the text exactly as given."""
    ref = ctx.repo(repo)
    ctx.response = acting_api(ctx, who).contents.get_files_by_query(ref.owner, ref.name, raw)


@when(phrase('"{who}" reads the file "{path}" of "{repo}" {count:d} times in one call'))
def read_file_many_times(ctx: ScenarioContext, who: str, path: str, repo: str, count: int) -> None:
    """``POST .../file-contents`` naming one path many times."""
    ref = ctx.repo(repo)
    ctx.response = acting_api(ctx, who).contents.get_files(ref.owner, ref.name, [path] * count)


@when(phrase('"{who}" reads the files "{paths}" of "{repo}" in one call with a read-only token'))
def read_files_read_only(ctx: ScenarioContext, identities: IdentityFactory, who: str, paths: str, repo: str) -> None:
    """``POST .../file-contents`` with a ``read:repository`` token (Gitea asks a POST for write)."""
    ref = ctx.repo(repo)
    api = scoped_token_api(ctx, identities, who, ["read:repository"])
    ctx.response = api.contents.get_files(ref.owner, ref.name, _paths(paths))


@when(phrase('"{who}" reads the extended contents of "{path}" in "{repo}"'))
def read_ext(ctx: ScenarioContext, who: str, path: str, repo: str) -> None:
    """``GET .../contents-ext/{path}`` without includes."""
    ref = ctx.repo(repo)
    ctx.response = acting_api(ctx, who).contents.get_ext(ref.owner, ref.name, path)


@when(phrase('"{who}" reads the extended contents of "{path}" in "{repo}" including "{includes}"'))
def read_ext_including(ctx: ScenarioContext, who: str, path: str, repo: str, includes: str) -> None:
    """``GET .../contents-ext/{path}?includes=``."""
    ref = ctx.repo(repo)
    ctx.response = acting_api(ctx, who).contents.get_ext(ref.owner, ref.name, path, includes=includes)


@then(phrase('the extended answer is the file "{path}" with content "{content}"'))
def ext_file_with_content(ctx: ScenarioContext, path: str, content: str) -> None:
    """``file_contents`` is the file, with its content."""
    entry = json_of(ctx.last_response())["file_contents"]
    assert entry["path"] == path and entry["type"] == "file", f"file_contents is {entry!r:.300}"
    actual = base64.b64decode(str(entry.get("content") or "")).decode("utf-8")
    assert actual == content, f'"{path}" holds {actual!r}, expected {content!r}'


@then(phrase('the extended answer is the file "{path}" without content or commit fields'))
def ext_file_bare(ctx: ScenarioContext, path: str) -> None:
    """Without includes, ``file_contents`` has no content and no last-commit fields."""
    entry = json_of(ctx.last_response())["file_contents"]
    assert entry["path"] == path, f"file_contents is {entry.get('path')!r}"
    assert entry.get("content") is None, "content was sent without file_content"
    assert entry.get("last_commit_sha") is None, "last_commit_sha was sent without commit_metadata"


@then(phrase('the extended answer names the last commit of "{path}" with the message "{message}"'))
def ext_file_commit(ctx: ScenarioContext, contents_notes: ContentsNotes, path: str, message: str) -> None:
    """``last_commit_sha`` is the commit that added the file, ``last_commit_message`` its message."""
    entry = json_of(ctx.last_response())["file_contents"]
    added = contents_notes.files.last_of_path(path)
    assert added is not None, f'the scenario did not add "{path}" in a Given step'
    assert entry.get("last_commit_sha") == added["commit"]["sha"], f"last_commit_sha is {entry}"
    assert str(entry.get("last_commit_message", "")).rstrip("\n") == message, entry.get("last_commit_message")


@then(phrase('the extended answer lists the directory entries "{names}"'))
def ext_dir_lists(ctx: ScenarioContext, names: str) -> None:
    """``dir_contents`` names exactly these entries."""
    body = json_of(ctx.last_response())
    assert "file_contents" not in body, "a directory answer must not carry file_contents"
    actual = sorted(str(entry["name"]) for entry in body["dir_contents"])
    assert actual == sorted(_paths(names)), f"dir_contents names {actual}"


# ---------------------------------------------------------------- diff patch


def _patch(path: str, old: str, new: str) -> str:
    """A one-line unified diff of a file without a final newline (as the Given steps write files)."""
    bare = "\\ No newline at end of file\n"
    return f"--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n-{old}\n{bare}+{new}\n{bare}"


@when(phrase('"{who}" applies a patch to "{repo}" changing "{path}" from "{old}" to "{new}"'))
def apply_patch(
    ctx: ScenarioContext, contents_notes: ContentsNotes, *, who: str, repo: str, path: str, old: str, new: str
) -> None:
    """``POST .../diffpatch`` with a one-line unified diff."""
    ref = ctx.repo(repo)
    _snapshot(ctx, contents_notes, ref)
    contents_notes.change(
        ctx, ref, acting_api(ctx, who).contents.apply_diff_patch(ref.owner, ref.name, _patch(path, old, new))
    )

"""Value checks against an independent source: what Git itself says a blob's sha is, what a clone made over
smart HTTP holds, and which files the scenario's own commits changed, rather than whatever the forge answers
about itself."""

from __future__ import annotations

import hashlib
import io
import tarfile
import zipfile
from pathlib import Path
from typing import NamedTuple

from pytest_bdd import then

from conformance.context import ScenarioContext
from steps.actors import git_credentials
from steps.common import comma_list, field_value, response_json
from steps.git_https import GitWorld
from steps.parsing import phrase


class GitEntry(NamedTuple):
    """One line of ``git ls-tree -l``: what a tree listing must answer for that path."""

    mode: str
    type: str
    sha: str
    size: int


def git_blob_sha(content: bytes) -> str:
    """The object id Git gives a blob of ``content`` (``git hash-object``)."""
    return hashlib.sha1(b"blob %d\0" % len(content) + content, usedforsecurity=False).hexdigest()


def _remote_url(ctx: ScenarioContext, repo: str) -> str:
    ref = ctx.repo(repo)
    return f"{ctx.admin.site_url.rstrip('/')}/{ref.owner}/{ref.name}.git"


def clone_of(ctx: ScenarioContext, git_world: GitWorld, repo: str) -> Path:
    """A fresh clone of the repository over smart HTTP, with its owner's credentials."""
    ref = ctx.repo(repo)
    credentials = git_credentials(ctx, repo.split("/", 1)[0])
    clone, cloned = git_world.client.clone(_remote_url(ctx, repo), f"values-{ref.owner}-{ref.name}", credentials)
    assert cloned.ok, cloned.describe()
    return clone


def git_entries(git_world: GitWorld, clone: Path, rev: str, *, recursive: bool) -> dict[str, GitEntry]:
    """The entries ``git ls-tree -l`` lists for ``rev`` (every level, trees included, when recursive)."""
    options = ["-r", "-t"] if recursive else []
    listed = git_world.client.run("ls-tree", "-l", "-z", *options, rev, cwd=clone, record=False)
    assert listed.ok, listed.describe()
    entries: dict[str, GitEntry] = {}
    for line in filter(None, listed.stdout.split("\0")):
        meta, _, path = line.partition("\t")
        mode, kind, sha, size = meta.split()
        entries[path] = GitEntry(mode, kind, sha, 0 if size == "-" else int(size))
    return entries


def _tree_holds_what_git_lists(ctx: ScenarioContext, git_world: GitWorld, repo: str, *, recursive: bool) -> None:
    """Every entry's mode, type, SHA and size, and the set of paths, are those of the clone's HEAD."""
    body = response_json(ctx)
    clone = clone_of(ctx, git_world, repo)
    head = git_world.client.rev_parse(clone, "HEAD")
    assert body["sha"] == head, f"the tree answers {body['sha']!r}, but the clone's HEAD is {head}"
    expected = git_entries(git_world, clone, head, recursive=recursive)
    found = {
        str(entry["path"]): GitEntry(entry["mode"], entry["type"], entry["sha"], entry["size"])
        for entry in body.get("tree") or []
    }
    assert sorted(found) == sorted(expected), f"the tree lists {sorted(found)}, Git lists {sorted(expected)}"
    wrong = {path: (found[path], git) for path, git in expected.items() if found[path] != git}
    assert not wrong, f"entries that differ from Git's (answered, Git): {wrong}"


@then(phrase('the tree holds exactly the entries Git lists at the first level of a clone of "{repo}"'))
def tree_matches_git(ctx: ScenarioContext, git_world: GitWorld, repo: str) -> None:
    _tree_holds_what_git_lists(ctx, git_world, repo, recursive=False)


@then(phrase('the tree holds exactly the entries Git lists at every level of a clone of "{repo}"'))
def tree_matches_git_recursive(ctx: ScenarioContext, git_world: GitWorld, repo: str) -> None:
    _tree_holds_what_git_lists(ctx, git_world, repo, recursive=True)


def _archive_files(data: bytes) -> dict[str, bytes]:
    """The regular files of a zip or tar.gz, by path, with their bytes."""
    if data.startswith(b"PK"):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return {info.filename: archive.read(info) for info in archive.infolist() if not info.is_dir()}
    files: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        for member in archive.getmembers():
            extracted = archive.extractfile(member) if member.isfile() else None
            if extracted is not None:
                files[member.name] = extracted.read()
    return files


@then(phrase('the archive holds every file of a clone of "{repo}" with the same bytes, and nothing else'))
def archive_matches_clone(ctx: ScenarioContext, git_world: GitWorld, repo: str) -> None:
    """The archive's files (under the repository's folder) are the files Git checked out, byte for byte."""
    files = _archive_files(ctx.last_response().content)
    clone = clone_of(ctx, git_world, repo)
    prefix = f"{ctx.repo(repo).name.lower()}/"
    entries = git_entries(git_world, clone, "HEAD", recursive=True)
    expected = {prefix + path: entry for path, entry in entries.items() if entry.type == "blob"}
    assert sorted(files) == sorted(expected), f"the archive holds {sorted(files)}, the clone {sorted(expected)}"
    wrong = [path for path in expected if files[path] != (clone / path.removeprefix(prefix)).read_bytes()]
    assert not wrong, f"files whose bytes differ from the clone's: {wrong}"


def remote_refs(ctx: ScenarioContext, git_world: GitWorld, repo: str) -> dict[str, str]:
    """Every ref ``git ls-remote`` sees over smart HTTP, with its object (peeled ``^{}`` lines left out)."""
    credentials = git_credentials(ctx, repo.split("/", 1)[0])
    listed = git_world.client.run("ls-remote", _remote_url(ctx, repo), credentials=credentials)
    assert listed.ok, listed.describe()
    pairs = (line.split("\t", 1) for line in listed.stdout.splitlines() if line.strip())
    return {name: sha for sha, name in pairs if name != "HEAD" and not name.endswith("^{}")}


@then(phrase('the response field "{path}" is the object Git resolves "{rev}" to in a clone of "{repo}"'))
def field_is_git_object(ctx: ScenarioContext, git_world: GitWorld, path: str, rev: str, repo: str) -> None:
    """``git rev-parse REV`` in a fresh clone: a tag object, a peeled commit, a tree."""
    clone = clone_of(ctx, git_world, repo)
    expected = git_world.client.rev_parse(clone, rev)
    found = field_value(response_json(ctx), path)
    assert found == expected, f"{path} is {found!r}, but Git resolves {rev} to {expected}"


@then(phrase('the refs listed are exactly those Git lists over smart HTTP for "{repo}"'))
def refs_match_remote(ctx: ScenarioContext, git_world: GitWorld, repo: str) -> None:
    """Every ref, with the object it points at, is what ``git ls-remote`` lists, and nothing else."""
    body = response_json(ctx)
    assert isinstance(body, list), f"expected a list of Reference: {str(body)[:200]}"
    found = {str(item["ref"]): str(item["object"]["sha"]) for item in body}
    expected = remote_refs(ctx, git_world, repo)
    assert found == expected, f"the refs are {found}, Git lists {expected}"


@then(phrase('Git lists the same branches and tags over smart HTTP for "{target}" as for "{repo}"'))
def same_remote_refs(ctx: ScenarioContext, git_world: GitWorld, target: str, repo: str) -> None:
    """A mirror holds every branch and tag of its source, each at the same object (``git ls-remote`` of both)."""

    def shared(refs: dict[str, str]) -> dict[str, str]:
        return {name: sha for name, sha in refs.items() if name.startswith(("refs/heads/", "refs/tags/"))}

    source = shared(remote_refs(ctx, git_world, repo))
    mirrored = shared(remote_refs(ctx, git_world, target))
    assert mirrored == source, f'"{target}" has {mirrored}, "{repo}" has {source}'


@then(phrase('the tags listed are exactly those of a clone of "{repo}", each with its object and its commit'))
def tags_match_clone(ctx: ScenarioContext, git_world: GitWorld, repo: str) -> None:
    """Each ``Tag``'s ``id`` is the tag's object and ``commit.sha`` the commit it peels to, as Git says."""
    body = response_json(ctx)
    assert isinstance(body, list), f"expected a list of Tag: {str(body)[:200]}"
    clone = clone_of(ctx, git_world, repo)
    names = git_world.client.run("tag", "--list", cwd=clone, record=False).stdout.split()
    expected = {
        name: (
            git_world.client.rev_parse(clone, f"refs/tags/{name}"),
            git_world.client.rev_parse(clone, f"refs/tags/{name}^{{commit}}"),
        )
        for name in names
    }
    found = {str(tag["name"]): (str(tag["id"]), str(tag["commit"]["sha"])) for tag in body}
    assert found == expected, f"the tags are {found}, Git has {expected}"


@then(phrase('the bundle clones to the commit and files of a clone of "{repo}"'))
def bundle_matches_clone(ctx: ScenarioContext, git_world: GitWorld, repo: str) -> None:
    """Git itself clones the downloaded bundle, to the same commit and tree as the repository over HTTP."""
    bundle = git_world.client.workdir / "download.bundle"
    bundle.parent.mkdir(parents=True, exist_ok=True)
    bundle.write_bytes(ctx.last_response().content)
    unbundled, cloned = git_world.client.clone(str(bundle), "from-bundle")
    assert cloned.ok, f"git cannot clone the bundle: {cloned.describe()}"
    clone = clone_of(ctx, git_world, repo)
    for rev in ("HEAD", "HEAD^{tree}"):
        got, expected = git_world.client.rev_parse(unbundled, rev), git_world.client.rev_parse(clone, rev)
        assert got == expected, f"the bundle's {rev} is {got}, the repository's {expected}"


@then(phrase('a clone of "{repo}" has one commit, whose files are those of a clone of "{template}"'))
def one_commit_same_tree(ctx: ScenarioContext, git_world: GitWorld, repo: str, template: str) -> None:
    """A repository generated with git_content: a history of one commit whose tree is the template's tree."""
    copy = clone_of(ctx, git_world, repo)
    count = git_world.client.run("rev-list", "--count", "HEAD", cwd=copy, record=False)
    assert count.ok and count.stdout.strip() == "1", f'"{repo}" has {count.stdout.strip()} commits'
    source = clone_of(ctx, git_world, template)
    got, expected = git_world.client.rev_parse(copy, "HEAD^{tree}"), git_world.client.rev_parse(source, "HEAD^{tree}")
    assert got == expected, f'the tree of "{repo}" is {got}, the template\'s {expected}'


@then(phrase('the response field "{path}" is the Git blob hash of "{content}"'))
def field_is_blob_hash(ctx: ScenarioContext, path: str, content: str) -> None:
    found = field_value(response_json(ctx), path)
    expected = git_blob_sha(content.encode("utf-8"))
    assert found == expected, f'{path} is {found!r}, but Git hashes "{content}" to {expected}'


@then(phrase('the compared commits changed exactly the files "{paths}"'))
def compared_files(ctx: ScenarioContext, paths: str) -> None:
    """The union of the files of every commit of the comparison is the files the scenario's commits touched."""
    commits = response_json(ctx)["commits"]
    changed = sorted({item["filename"] for commit in commits for item in commit.get("files") or []})
    assert changed == sorted(comma_list(paths)), f"the comparison's commits changed {changed}"


__all__ = ["GitEntry", "clone_of", "git_blob_sha", "git_entries"]

"""Repository archives (``<ref>.zip``, ``<ref>.tar.gz``, ``<ref>.bundle``) streamed from ``git archive`` and
``git bundle`` as they are produced, never held whole in memory or stored, named as Gitea names them."""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..gitcli import ZERO_SHA, Git
from ..repos.models import Repo
from .errors import ArchivePathNotFound, ArchiveRefNotFound, InvalidArchivePath, UnknownArchiveFormat
from .models import primed

__all__ = ["FORMATS", "Archive", "archive_request", "archive_stream"]

FORMATS: tuple[str, ...] = ("zip", "tar.gz", "bundle")
"""The archive types Gitea knows, in the order it tries their suffixes."""
_SHORT_SHA = re.compile(r"^[0-9a-f]{4,64}$")
_BUNDLE_BRANCH = "bundle"
"""The one branch of a Gitea bundle (with ``HEAD`` on it)."""


@dataclass(frozen=True)
class Archive:
    """A resolved archive request: the commit, the type, and the name of the download."""

    commit: str
    type: str
    ref_name: str
    paths: tuple[str, ...] = ()
    """Only these files and folders (Gitea 1.27's ``path`` query); every path when empty."""

    @property
    def archive_name(self) -> str:
        """Gitea's ``GetArchiveName``: the ref with ``/`` as ``-``, then the type."""
        return f"{self.ref_name.replace('/', '-')}.{self.type}"


def archive_request(repo: Repo, requested: str, paths: list[str] | None = None) -> Archive:
    """The archive ``<ref>.<type>`` names: 400 ``unknown format`` for another suffix, 404 ``unrecognized
    repository reference`` when the ref is no branch, tag or commit (Gitea's ``NewRequest``); ``paths``
    limit a zip or tar.gz to those files and folders (400 for a path that leaves the tree or for a bundle,
    404 for one the commit lacks)."""
    kind = next((kind for kind in FORMATS if requested.endswith(f".{kind}")), None)
    if kind is None:
        raise UnknownArchiveFormat(f"unknown format: {requested}")
    ref = requested[: -len(kind) - 1]
    git = repo.git
    commit = None
    if ref and not ref.startswith("-"):
        if ref in git.branches():
            commit = git.rev_parse(f"refs/heads/{ref}")
        elif ref in git.tags():
            commit = git.rev_parse(f"refs/tags/{ref}")
        elif _SHORT_SHA.match(ref):
            commit = git.rev_parse(ref)
    if commit is None:
        raise ArchiveRefNotFound(f"unrecognized repository reference: {ref}")
    return Archive(commit, kind, ref, _checked_paths(git, commit, kind, paths or []))


def _checked_paths(git: Git, commit: str, kind: str, paths: list[str]) -> tuple[str, ...]:
    """The requested paths, each checked to stay inside the tree and to exist at ``commit`` (one ls-tree)."""
    cleaned = tuple(dict.fromkeys(path.strip("/") for path in paths if path.strip("/")))
    if not cleaned:
        return ()
    if kind == "bundle":
        raise InvalidArchivePath("a bundle holds the whole history: paths cannot be chosen")
    for path in cleaned:
        if path.startswith("-") or any(part in ("", ".", "..") for part in path.split("/")) or "\x00" in path:
            raise InvalidArchivePath(f"invalid path: {path}")
    listed = git.run("--literal-pathspecs", "ls-tree", "-z", "--name-only", commit, "--", *cleaned, check=False)
    found = set(listed.stdout.decode("utf-8", "surrogateescape").split("\x00"))
    missing = [path for path in cleaned if path not in found]
    if listed.returncode != 0 or missing:
        raise ArchivePathNotFound(f"path does not exist: {missing[0] if missing else cleaned[0]}")
    return cleaned


def archive_stream(repo: Repo, archive: Archive) -> Iterator[bytes]:
    """The archive's bytes as git writes them; the first chunk is read before returning, so a git failure
    becomes an error answer. Paths inside zip and tar archives start with the repository's directory name
    (Gitea's ``PREFIX_ARCHIVE_FILES``)."""
    if archive.type == "bundle":
        return _bundle(repo, archive.commit)
    prefix = Path(repo.git_path).name.removesuffix(".git")
    args = ["archive", f"--format={archive.type}", f"--prefix={prefix}/", archive.commit]
    if archive.paths:
        args = ["--literal-pathspecs", *args, "--", *archive.paths]
    return primed(repo.git.stream(*args))


def _bundle(repo: Repo, commit: str) -> Iterator[bytes]:
    """A bundle with ``refs/heads/bundle`` and ``HEAD`` at ``commit``, made as Gitea makes it: a scratch
    repository borrowing the objects (nothing copied), removed when the stream ends."""
    scratch = Path(tempfile.mkdtemp(prefix="bundle-"))
    try:
        git = Git(scratch / "bundle.git")
        git.init_bare(_BUNDLE_BRANCH)
        alternates = git.path / "objects" / "info"
        alternates.mkdir(parents=True, exist_ok=True)
        (alternates / "alternates").write_text(f"{Path(repo.git_path).resolve() / 'objects'}\n")
        git.update_ref(f"refs/heads/{_BUNDLE_BRANCH}", commit, ZERO_SHA)
        chunks = primed(git.stream("bundle", "create", "--quiet", "-", f"refs/heads/{_BUNDLE_BRANCH}", "HEAD"))
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise

    def cleaned() -> Iterator[bytes]:
        try:
            yield from chunks
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    return cleaned()

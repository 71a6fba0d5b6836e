"""Reading beyond one file: the extended contents (``contents-ext`` with its ``includes``) and several
files in one call (``file-contents``), each answered with a fixed number of ``git`` processes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..context import forge
from ..errors import NotFound, Unprocessable
from ..misc import models as misc
from ..rest import decode_json
from . import contents, models, treeops
from .errors import ContentNotFound, InvalidBodyParameter, UnknownInclude

__all__ = ["INCLUDES", "files_from_body", "files_from_query", "get_contents_ext", "get_files", "parse_includes"]

INCLUDES = ("file_content", "lfs_metadata", "commit_metadata", "commit_message")


def parse_includes(raw: str | None) -> frozenset[str]:
    """The comma-separated ``includes``; 400 ``unknown include option "x"`` on anything else."""
    chosen = set()
    for item in (raw or "").split(","):
        name = item.strip()
        if not name:
            continue
        if name not in INCLUDES:
            raise UnknownInclude(f'unknown include option "{name}"')
        chosen.add(name)
    return frozenset(chosen)


def get_contents_ext(repo: models.Repo, path: str, ref: str | None, includes: frozenset[str]) -> dict[str, Any]:
    """``ContentsExtResponse``: ``file_contents`` for a file, ``dir_contents`` for a directory (``.``/``/``/''
    is the root); content, LFS and commit fields only as ``includes`` asks."""
    clean = "" if path.strip() in ("", ".", "/") else contents.validate_path(path, allow_root=True)
    resolved = contents.resolve_ref(repo, ref)
    if resolved is None:
        if not ref and not clean and repo.git.is_empty():
            return {"dir_contents": []}
        raise NotFound(f"object does not exist [id: {ref or repo.default_branch}, rel_path: {clean}]")
    entry = repo.git.stat(resolved.commit, clean)
    if entry is None:
        raise ContentNotFound(f"object does not exist [id: {resolved.commit}, rel_path: {clean}]")
    single = entry.type != "tree"
    describe = contents.Describe(
        content_paths=frozenset({entry.path}) if single and "file_content" in includes else frozenset(),
        commit_metadata="commit_metadata" in includes,
        commit_message="commit_message" in includes,
        lfs_metadata="lfs_metadata" in includes,
    )
    if single:
        return {"file_contents": contents.describe_entries(repo, resolved, [entry], describe)[0]}
    children = repo.git.list_tree(resolved.commit, clean)
    return {"dir_contents": contents.describe_entries(repo, resolved, children, describe)}


def files_from_body(body: Mapping[str, Any]) -> list[str]:
    """The ``files`` of a ``GetFilesOptions`` (absent: none); 422 when it is not a list of strings."""
    files = body.get("files")
    if files is None:
        return []
    if not isinstance(files, list) or not all(isinstance(item, str) for item in files):
        raise Unprocessable("[Files]: must be a list of paths")
    return list(files)


def files_from_query(raw: str | None) -> list[str]:
    """The ``?body=`` of the GET form: a JSON ``GetFilesOptions``; 400 ``invalid body parameter`` otherwise."""
    try:
        body = decode_json(raw or "")
    except ValueError as exc:
        raise InvalidBodyParameter("invalid body parameter") from exc
    if not isinstance(body, dict):
        raise InvalidBodyParameter("invalid body parameter")
    try:
        return files_from_body(body)
    except Unprocessable as exc:
        raise InvalidBodyParameter("invalid body parameter") from exc


def get_files(repo: models.Repo, paths: list[str], ref: str | None) -> list[dict[str, Any] | None]:
    """A ``ContentsResponse`` (or null when the path names nothing) per path, in order; stops after the
    default page size of files or before the base64 contents pass the maximum response size, as Gitea."""
    resolved = contents.resolve_ref(repo, ref)
    if resolved is None:
        raise NotFound(f"object does not exist [id: {ref or repo.default_branch}, rel_path: ]")
    limit = forge().config.limits.default_paging_num
    max_size = int(misc.api_settings()["default_max_response_size"])
    cleaned = [contents.validate_path(path, allow_root=True) for path in paths[:limit]]
    found = treeops.entries_at(repo.git, resolved.commit, [path for path in cleaned if path])
    root = repo.git.stat(resolved.commit, "") if "" in cleaned else None
    if root is not None:
        found[""] = root
    kept: list[str] = []
    total = 0
    for path in cleaned:
        entry = found.get(path)
        if entry is not None and entry.type == "blob":
            total += (entry.size + 2) // 3 * 4
        if total > max_size:
            break
        kept.append(path)
    present = list({path: found[path] for path in kept if path in found}.values())
    files = {entry.path for entry in present if entry.type == "blob"}
    described = contents.describe_entries(repo, resolved, present, contents.Describe(content_paths=frozenset(files)))
    by_path = {entry["path"]: entry for entry in described}
    return [by_path.get(path) for path in kept]

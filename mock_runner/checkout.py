"""``actions/checkout``, natively: the commit's tree into the workspace, with the job's token.

Preferred: ``git`` over the forge's smart HTTP (``<server>/<owner>/<repo>.git``), fetching just the
commit; when the forge serves no Git over HTTP (or ``git`` is missing), the tree is read file by file
through the contents API (``GET /api/v1/repos/{owner}/{repo}/contents/{path}?ref=<sha>``).
"""

from __future__ import annotations

import base64
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote

import requests

from .jobenv import StepError

__all__ = ["checkout", "git_with_token", "token_header"]

Log = Callable[[str], None]


def token_header(token: str) -> str:
    """Basic auth with the token as password, as Git over HTTP takes a job token."""
    return "Basic " + base64.b64encode(f"x-access-token:{token}".encode()).decode("ascii")


def _serves_git(server: str, repository: str, token: str) -> bool:
    """Whether the forge answers the smart-HTTP advertisement for this repository."""
    if shutil.which("git") is None:
        return False
    url = f"{server}/{repository}.git/info/refs?service=git-upload-pack"
    try:
        response = requests.get(url, headers={"Authorization": token_header(token)}, timeout=30)
    except requests.RequestException:
        return False
    return response.status_code == 200 and "git-upload-pack-advertisement" in response.headers.get("Content-Type", "")


def git_with_token(args: list[str], cwd: Path, token: str) -> subprocess.CompletedProcess[str]:
    """Run git with the token in an extra header (never in the URL, so it is not stored in the config)."""
    command = ["git", "-c", f"http.extraHeader=Authorization: {token_header(token)}", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600, check=False)


def _checkout_with_git(server: str, repository: str, *, ref: str, sha: str, token: str, target: Path, log: Log) -> None:
    target.mkdir(parents=True, exist_ok=True)
    url = f"{server}/{repository}.git"
    for args in (["init", "-q"], ["remote", "add", "origin", url]):
        result = git_with_token(args, target, token)
        if result.returncode != 0:
            raise StepError(f"git {args[0]} failed: {result.stderr.strip()}")
    wanted = sha or ref
    fetched = git_with_token(["fetch", "-q", "--depth=1", "origin", wanted], target, token)
    if fetched.returncode != 0 and ref and sha:
        fetched = git_with_token(["fetch", "-q", "origin", ref], target, token)
    if fetched.returncode != 0:
        raise StepError(f"git fetch of {wanted} from {url} failed: {fetched.stderr.strip()}")
    done = git_with_token(["checkout", "-q", "--detach", sha or "FETCH_HEAD"], target, token)
    if done.returncode != 0:
        raise StepError(f"git checkout of {wanted} failed: {done.stderr.strip()}")
    log(f"Checked out {repository}@{wanted} with git over HTTP into {target}")


class _ContentsReader:
    """Walks a tree through the contents API."""

    def __init__(self, api: str, repository: str, ref: str, token: str) -> None:
        self.base = f"{api}/repos/{repository}/contents"
        self.ref = ref
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"token {token}"

    def get(self, path: str) -> Any:
        url = f"{self.base}/{quote(path)}" if path else self.base
        try:
            response = self.session.get(url, params={"ref": self.ref}, timeout=60)
        except requests.RequestException as exc:
            raise StepError(f"contents API unreachable at {url}: {exc}") from exc
        if response.status_code != 200:
            raise StepError(f"contents API answered {response.status_code} for {url}: {response.text[:200]}")
        try:
            return response.json()
        except ValueError as exc:
            raise StepError(f"contents API answered non-JSON for {url}") from exc

    def file_bytes(self, entry: dict[str, Any]) -> bytes:
        if entry.get("content") is None:
            entry = self.get(str(entry["path"]))
        content = entry.get("content")
        if isinstance(content, str) and entry.get("encoding", "base64") == "base64":
            return base64.b64decode(content)
        download = entry.get("download_url")
        if download:
            response = self.session.get(download, timeout=120)
            if response.status_code == 200:
                return response.content
        raise StepError(f"contents API gave no content for {entry.get('path')!r}")

    def copy_tree(self, path: str, target: Path) -> int:
        listing = self.get(path)
        entries = listing if isinstance(listing, list) else [listing]
        count = 0
        for entry in entries:
            relative = PurePosixPath(str(entry.get("path", "")))
            if relative.is_absolute() or ".." in relative.parts:
                raise StepError(f"contents API returned an unsafe path {str(relative)!r}")
            destination = target.joinpath(*relative.parts)
            kind = entry.get("type")
            if kind == "dir":
                destination.mkdir(parents=True, exist_ok=True)
                count += self.copy_tree(str(relative), target)
            elif kind == "file":
                destination.parent.mkdir(parents=True, exist_ok=True)
                destination.write_bytes(self.file_bytes(entry))
                count += 1
            elif kind == "symlink" and entry.get("target"):
                destination.parent.mkdir(parents=True, exist_ok=True)
                destination.symlink_to(str(entry["target"]))
                count += 1
        return count


def checkout(
    inputs: dict[str, str], *, context: dict[str, Any], instance_url: str, workspace: Path, token: str, log: Log
) -> dict[str, str]:
    """Check out the job's commit (or ``with: repository/ref``) into the workspace (or ``with: path``)."""
    repository = inputs.get("repository") or str(context.get("repository") or "")
    if repository.count("/") != 1:
        raise StepError(f"checkout: repository {repository!r} is not owner/name")
    own_repository = repository == context.get("repository")
    sha = str(context.get("sha") or "") if own_repository and not inputs.get("ref") else ""
    ref = inputs.get("ref") or str(context.get("ref") or "")
    if not sha and not ref:
        raise StepError("checkout: no commit to check out (the task context has no sha and no ref was given)")
    relative = Path(inputs.get("path") or ".")
    target = (workspace / relative).resolve()
    if not target.is_relative_to(workspace.resolve()):
        raise StepError(f"checkout: path {relative} is outside the workspace")
    secret = inputs.get("token") or token
    server = instance_url.rstrip("/")
    if _serves_git(server, repository, secret):
        _checkout_with_git(server, repository, ref=ref, sha=sha, token=secret, target=target, log=log)
    else:
        reader = _ContentsReader(f"{server}/api/v1", repository, sha or ref, secret)
        target.mkdir(parents=True, exist_ok=True)
        count = reader.copy_tree("", target)
        log(f"Checked out {repository}@{sha or ref} through the contents API ({count} files) into {target}")
    return {"ref": ref, "commit": sha}

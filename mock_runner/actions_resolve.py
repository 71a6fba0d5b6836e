"""Where a ``uses:`` action comes from, and its ``action.yml``: resolved as act_runner does against Gitea.

``owner/repo[/path]@ref`` is looked up on the actions instance (the runner's ``--actions-url``, else the
task's ``gitea_default_actions_url`` unless it is github.com, else the forge the runner is registered
with: Gitea's ``DEFAULT_ACTIONS_URL = self``) and fetched over Git smart HTTP with the job's token, once per
(URL, ref) into the runner's action cache. ``https://host/owner/repo[/path]@ref`` is fetched as given,
``./path`` is read from the workspace and ``docker://`` is refused (host mode has no containers).
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import shutil
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

import requests
import yaml

from .checkout import git_with_token, token_header
from .jobenv import StepError

__all__ = [
    "DOCKER_REFUSAL",
    "ActionCache",
    "ActionManifest",
    "ActionRef",
    "ActionsUnreachable",
    "actions_base_url",
    "input_variable",
    "load_manifest",
    "parse_uses",
]

DOCKER_REFUSAL = "docker actions are not supported in host mode: mock-runner runs no containers"
GITHUB = "https://github.com"
_NAME = re.compile(r"^[A-Za-z0-9_.\-]+$")


class ActionsUnreachable(StepError):
    """The actions instance did not answer (connection refused, name unknown, timeout)."""


@dataclass(frozen=True)
class ActionRef:
    """A parsed ``uses:``: ``kind`` is ``remote``, ``local`` or ``docker``."""

    kind: str
    uses: str
    base_url: str = ""
    repository: str = ""
    path: str = ""
    ref: str = ""

    @property
    def clone_url(self) -> str:
        return f"{self.base_url}/{self.repository}.git"

    @property
    def action_name(self) -> str:
        """``owner/repo[/path]``, lower-cased: how the native fallbacks are named."""
        return "/".join(part for part in (self.repository, self.path) if part).lower()


def actions_base_url(option: str | None, context: dict[str, Any], instance_url: str) -> str:
    """The instance ``owner/repo@ref`` actions come from (see the module's docstring for the order)."""
    if option:
        return option.rstrip("/")
    default = str(context.get("gitea_default_actions_url") or "").rstrip("/")
    if default and default.lower() != GITHUB:
        return default
    return instance_url.rstrip("/")


def _checked_path(path: str, uses: str) -> str:
    parts = PurePosixPath(path).parts if path else ()
    if any(part in ("..", "") for part in parts) or path.startswith("/"):
        raise StepError(f"uses: {uses!r} has an unsafe path {path!r}")
    return "/".join(parts)


def parse_uses(uses: str, base_url: str) -> ActionRef:
    """Parse a step's ``uses:``; a malformed one raises ``StepError`` saying what is expected."""
    text = uses.strip()
    if text.startswith("docker://"):
        return ActionRef("docker", text)
    if text.startswith("./") or text == ".":
        return ActionRef("local", text, path=_checked_path(text[2:].rstrip("/"), text) if text != "." else "")
    base = base_url.rstrip("/")
    reference = text
    if re.match(r"^https?://", text):
        split = urlsplit(text)
        base = f"{split.scheme}://{split.netloc}"
        reference = split.path.lstrip("/") + (f"?{split.query}" if split.query else "")
    name, at, ref = reference.partition("@")
    parts = name.split("/")
    if not at or not ref or len(parts) < 2 or not all(_NAME.match(part) for part in parts[:2]):
        raise StepError(f"uses: {uses!r} is not owner/repo[/path]@ref, ./path or docker://image")
    return ActionRef(
        "remote",
        text,
        base_url=base,
        repository=f"{parts[0]}/{parts[1].removesuffix('.git')}",
        path=_checked_path("/".join(parts[2:]), text),
        ref=ref,
    )


@dataclass
class ActionCache:
    """Fetched actions, one directory per (clone URL, ref), shared by the runner's jobs."""

    root: Path
    _locks: dict[str, threading.Lock] = field(default_factory=dict)
    _guard: threading.Lock = field(default_factory=threading.Lock)

    def _lock(self, key: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(key, threading.Lock())

    def fetch(self, action: ActionRef, token: str, log: Any) -> Path | None:
        """The repository at ``ref``, or None when the instance has no such repository.

        The cache is keyed by the commit the ref names now (``git ls-remote``), so a moved branch or tag is
        fetched again while an unchanged one is reused, as act_runner updates its clone of a ref.
        """
        if not _exists(action, token):
            return None
        commit = _remote_commit(action, token)
        key = hashlib.sha256(f"{action.clone_url}@{action.ref}@{commit}".encode()).hexdigest()[:24]
        target = self.root / key
        with self._lock(key):
            if target.is_dir():
                log(f"Using the cached {action.repository}@{action.ref} ({commit[:12]})")
                return target
            self.root.mkdir(parents=True, exist_ok=True)
            scratch = Path(tempfile.mkdtemp(prefix="fetch-", dir=self.root))
            try:
                _git_fetch(action, token, scratch)
                shutil.rmtree(scratch / ".git", ignore_errors=True)
                with contextlib.suppress(OSError):  # another job of this runner fetched it meanwhile
                    scratch.rename(target)
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
            if not target.is_dir():
                raise StepError(f"cannot keep {action.repository}@{action.ref} in the action cache {self.root}")
            log(f"Fetched {action.repository}@{action.ref} ({commit[:12]}) from {action.base_url} over Git")
            return target


def _remote_commit(action: ActionRef, token: str) -> str:
    """The object the ref names on the instance now; a ref it does not have fails the step."""
    if re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", action.ref):
        return action.ref
    if shutil.which("git") is None:
        raise StepError(f"git is not on the PATH: cannot fetch {action.uses!r}")
    listed = git_with_token(["ls-remote", action.clone_url, action.ref], Path(tempfile.gettempdir()), token)
    if listed.returncode != 0:
        raise StepError(f"cannot list the refs of {action.clone_url}: {listed.stderr.strip()}")
    wanted = {f"refs/heads/{action.ref}", f"refs/tags/{action.ref}", action.ref}
    for line in listed.stdout.splitlines():
        sha, _, name = line.partition("\t")
        if name in wanted:
            return sha
    raise StepError(f"{action.uses}: {action.repository} on {action.base_url} has no branch or tag {action.ref!r}")


def _exists(action: ActionRef, token: str) -> bool:
    """Whether the instance serves the repository: 200 on the upload-pack advertisement, False on 404."""
    url = f"{action.clone_url}/info/refs?service=git-upload-pack"
    headers = {"Authorization": token_header(token)} if token else {}
    try:
        response = requests.get(url, headers=headers, timeout=30)
    except requests.RequestException as exc:
        reason = type(exc).__name__
        raise ActionsUnreachable(f"cannot reach {action.base_url} to fetch {action.uses!r} ({reason})") from exc
    if response.status_code == 404:
        return False
    if response.status_code != 200:
        raise StepError(f"fetching {action.uses!r}: {action.clone_url} answered {response.status_code}")
    return True


def _git_fetch(action: ActionRef, token: str, target: Path) -> None:
    if shutil.which("git") is None:
        raise StepError(f"git is not on the PATH: cannot fetch {action.uses!r}")
    for args in (["init", "-q"], ["remote", "add", "origin", action.clone_url]):
        done = git_with_token(args, target, token)
        if done.returncode != 0:
            raise StepError(f"git {args[0]} failed: {done.stderr.strip()}")
    fetched = git_with_token(["fetch", "-q", "--depth=1", "origin", action.ref], target, token)
    if fetched.returncode != 0:
        raise StepError(f"cannot fetch {action.ref!r} of {action.clone_url}: {fetched.stderr.strip()}")
    checked = git_with_token(["checkout", "-q", "--detach", "FETCH_HEAD"], target, token)
    if checked.returncode != 0:
        raise StepError(f"cannot check out {action.ref!r} of {action.clone_url}: {checked.stderr.strip()}")


def input_variable(name: str) -> str:
    """``INPUT_<NAME>``: upper-cased, every character but A-Z, 0-9 and ``-`` becoming ``_`` (as act does)."""
    return "INPUT_" + re.sub(r"[^A-Z0-9-]", "_", name.upper())


@dataclass(frozen=True)
class ActionManifest:
    """An ``action.yml``: inputs (name → default, required), outputs and ``runs``."""

    name: str
    using: str
    runs: dict[str, Any]
    inputs: dict[str, dict[str, Any]]
    outputs: dict[str, dict[str, Any]]


def _section(document: dict[str, Any], key: str, where: Path) -> dict[str, dict[str, Any]]:
    value = document.get(key) or {}
    if not isinstance(value, dict):
        raise StepError(f"{where}: {key} must be a mapping")
    return {str(name): (item if isinstance(item, dict) else {}) for name, item in value.items()}


def load_manifest(directory: Path, uses: str) -> ActionManifest:
    """Read ``action.yml`` (or ``action.yaml``) of an action directory; a missing or bad one fails the step."""
    for name in ("action.yml", "action.yaml"):
        path = directory / name
        if path.is_file():
            break
    else:
        if (directory / "Dockerfile").is_file():
            raise StepError(f"{uses}: {DOCKER_REFUSAL}")
        raise StepError(f"{uses}: no action.yml or action.yaml in the action's directory")
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise StepError(f"{uses}: {name} is not valid YAML: {exc}") from exc
    if not isinstance(document, dict) or not isinstance(document.get("runs"), dict):
        raise StepError(f"{uses}: {name} has no runs: mapping")
    runs: dict[str, Any] = document["runs"]
    return ActionManifest(
        name=str(document.get("name") or uses),
        using=str(runs.get("using") or "").strip().lower(),
        runs=runs,
        inputs=_section(document, "inputs", path),
        outputs=_section(document, "outputs", path),
    )

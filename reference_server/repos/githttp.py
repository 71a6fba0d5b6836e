"""Git smart HTTP (``/<owner>/<repo>.git/info/refs``, ``git-upload-pack``, ``git-receive-pack``) through
``git http-backend``, with the forge's own access rules; every ref a push moves becomes a ``PushEvent``.

Anonymous callers are challenged (401 with ``WWW-Authenticate``) where credentials could help, so a
Git client retries with the user's password or token.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from flask import Response, request

from ..auth import Principal, has_scope, optional_principal
from ..context import forge
from ..events import PushEvent
from ..gitcli import ZERO_SHA, BackendProcess, http_backend
from ..permissions import git_permission
from ..protections.guard import ReceivePackSettings, receive_pack_settings
from . import models
from .errors import RepoNotFound

__all__ = ["info_refs", "service_rpc"]

log = logging.getLogger(__name__)

SERVICES = {"git-upload-pack": False, "git-receive-pack": True}
"""Each smart-HTTP service and whether it writes."""
CHUNK = 64 * 1024
REALM = 'Basic realm="Gitea"'


def _text(status: int, message: str, *, challenge: bool = False) -> Response:
    headers = {"WWW-Authenticate": REALM} if challenge else {}
    return Response(message + "\n", status=status, headers=headers, content_type="text/plain; charset=utf-8")


def _authorize(owner: str, name: str, service: str) -> models.Repo | Response:
    """The repository when the caller may use ``service`` on it, else the answer to give."""
    principal = optional_principal()
    write = SERVICES[service]
    try:
        repo = models.get_repo(owner, name)
    except RepoNotFound:
        return _text(401, "authentication required", challenge=True) if principal is None else _text(404, "not found")
    allowed = git_permission(principal, repo)  # a deploy token binds the request to its repository
    if principal is None and (not allowed.can_read or write):
        return _text(401, "authentication required", challenge=True)
    if not allowed.can_read:
        return _text(404, "not found")
    if principal is not None and not has_scope(principal, "repository", write):
        level = "write" if write else "read"
        return _text(403, f"token does not have at least one of required scope(s), required=[{level}:repository]")
    if write and not allowed.can_write:
        return _text(403, "user should have a permission to write to a repo")
    return repo


WIKI_SUFFIX = ".wiki"
"""``<repo>.wiki.git`` names a repository's wiki (no repository may end in ``.wiki``)."""


@dataclass(frozen=True)
class Target:
    """What a Git request reaches: the repository whose permissions apply, and the Git directory served (the
    repository's own, or its wiki's)."""

    repo: models.Repo
    path: Path

    @property
    def is_wiki(self) -> bool:
        return self.path != self.repo.git_path


def _target(owner: str, name: str, service: str) -> Target | Response:
    """The repository or wiki a Git request names, when the caller may use ``service`` on it (a wiki with the
    permissions of its repository; 404 while the wiki has no page yet), else the answer to give."""
    wiki = name.lower().endswith(WIKI_SUFFIX)
    found = _authorize(owner, name[: -len(WIKI_SUFFIX)] if wiki else name, service)
    if isinstance(found, Response):
        return found
    if not wiki:
        return Target(found, found.git_path)
    path = found.git_path.with_name(found.git_path.name.removesuffix(".git") + ".wiki.git")
    return Target(found, path) if path.is_dir() else _text(404, "not found")


def _spool_body() -> tuple[BinaryIO, int]:
    body = tempfile.TemporaryFile()  # noqa: SIM115 - handed to the backend, closed by the caller
    shutil.copyfileobj(request.stream, body, CHUNK)
    size = body.tell()
    body.seek(0)
    return body, size


def _start(
    path: Path,
    suffix: str,
    principal: Principal | None,
    body: BinaryIO,
    size: int,
    *,
    hook: ReceivePackSettings | None = None,
) -> BackendProcess:
    root = forge().config.data_dir / "git"
    relative = path.relative_to(root).as_posix()
    cgi = {
        "PATH_INFO": f"/{relative}/{suffix}",
        "REQUEST_METHOD": request.method,
        "QUERY_STRING": request.query_string.decode("latin-1"),
        "CONTENT_TYPE": request.headers.get("Content-Type", ""),
        "REMOTE_USER": principal.username if principal else "",
        "REMOTE_ADDR": request.remote_addr or "",
        "HTTP_CONTENT_ENCODING": request.headers.get("Content-Encoding", ""),
        "HTTP_GIT_PROTOCOL": request.headers.get("Git-Protocol", ""),
    }
    if request.method == "POST":
        cgi["CONTENT_LENGTH"] = str(size)
    if hook is not None:  # receive-pack runs the protections pre-receive hook for this pusher
        cgi.update(hook.environment)
    return http_backend(root, cgi, body, hook.config if hook is not None else None)


def _cgi_headers(backend: BackendProcess) -> tuple[int, list[tuple[str, str]]]:
    """Status and headers the CGI printed before its body."""
    assert backend.process.stdout is not None
    status, headers = 200, []
    while True:
        line = backend.process.stdout.readline().rstrip(b"\r\n")
        if not line:
            break
        name, _, value = line.decode("latin-1").partition(":")
        if name.lower() == "status":
            status = int(value.strip().split()[0])
        else:
            headers.append((name.strip(), value.strip()))
    return status, headers


def _streamed(backend: BackendProcess, body: BinaryIO) -> Response:
    status, headers = _cgi_headers(backend)

    def chunks() -> Iterator[bytes]:
        assert backend.process.stdout is not None
        try:
            while piece := backend.process.stdout.read(CHUNK):
                yield piece
        finally:
            backend.close()
            body.close()

    response = Response(chunks(), status=status, direct_passthrough=True)
    for name, value in headers:
        response.headers[name] = value
    return response


def info_refs(owner: str, repo: str) -> Response:
    """The ref advertisement of the service named by ``?service=`` (the dumb protocol is not served)."""
    service = request.args.get("service", "")
    if service not in SERVICES:
        return _text(403, "only the smart HTTP protocol is served: give ?service=git-upload-pack or git-receive-pack")
    found = _target(owner, repo, service)
    if isinstance(found, Response):
        return found
    body = tempfile.TemporaryFile()  # noqa: SIM115 - closed when the answer has been streamed
    return _streamed(_start(found.path, "info/refs", optional_principal(), body, 0), body)


def service_rpc(owner: str, repo: str, service: str) -> Response:
    """Run ``git-upload-pack`` (streamed back) or ``git-receive-pack`` (then announce the moved refs)."""
    target = _target(owner, repo, service)
    if isinstance(target, Response):
        return target
    principal = optional_principal()
    body, size = _spool_body()
    if not SERVICES[service]:
        return _streamed(_start(target.path, service, principal, body, size), body)
    assert principal is not None  # _authorize challenges anonymous pushes
    if target.is_wiki:  # a wiki has no protections, hooks or push events of its repository
        with models.repo_lock(target.repo):
            status, headers, output = _run_to_end(_start(target.path, service, principal, body, size), body)
        return _answer(status, headers, output)
    found = target.repo
    with models.repo_lock(found):
        before = found.git.ref_commits()
        backend = _start(found.git_path, service, principal, body, size, hook=receive_pack_settings(found, principal))
        status, headers, output = _run_to_end(backend, body)
        after = found.git.ref_commits()
        moved = sorted(ref for ref in before.keys() | after.keys() if before.get(ref) != after.get(ref))
        if moved:
            _after_push(found, before, after)
    for ref in moved:
        forge().events.publish(
            PushEvent(found.id, ref, before.get(ref, ZERO_SHA), after.get(ref, ZERO_SHA), principal.user_id)
        )
    return _answer(status, headers, output)


def _run_to_end(backend: BackendProcess, body: BinaryIO) -> tuple[int, list[tuple[str, str]], bytes]:
    """Run a receive-pack to its end (inside the caller's lock); its status, headers and whole output."""
    try:
        status, headers = _cgi_headers(backend)
        assert backend.process.stdout is not None
        output = backend.process.stdout.read()
        backend.process.wait()
        if backend.process.returncode != 0:
            log.warning("git receive-pack failed: %s", backend.error_text())
    finally:
        backend.close()
        body.close()
    return status, headers, output


def _answer(status: int, headers: list[tuple[str, str]], output: bytes) -> Response:
    response = Response(output, status=status)
    for header, value in headers:
        response.headers[header] = value
    return response


def _after_push(repo: models.Repo, before: dict[str, str], after: dict[str, str]) -> None:
    """Record the change; a first push into an empty repository makes a pushed branch the default."""
    models.touch(repo)
    had_branches = any(ref.startswith("refs/heads/") for ref in before)
    branches = sorted(ref[len("refs/heads/") :] for ref in after if ref.startswith("refs/heads/"))
    if not had_branches and branches and repo.default_branch not in branches:
        models.set_default_branch(repo, "main" if "main" in branches else branches[0])

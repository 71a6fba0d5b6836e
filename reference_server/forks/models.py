"""Forks (an independent copy of the parent's Git data), migrations from any http(s) Git URL, and pull
mirrors kept up to date by ``mirror-sync``.

Migration rule (security): only ``http://`` and ``https://`` clone addresses are accepted; ``file://``,
local paths, ``ssh``, ``git`` and every other transport are refused with 422 before Git runs, and Git
itself is started with every other protocol disabled and without redirects. The host must be allowed by
``Config.migrations_allowed_hosts`` (default ``external``, as Gitea's ``ALLOW_LOCALNETWORKS = false``): checked
when the address is given, and again, after DNS, before every fetch, with git pinned to the checked
address (422 "You can not import from disallowed hosts."). Credentials travel as an HTTP ``Authorization`` header
through Git's environment, never in a URL or on a command line, and are stored sealed.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..actions.secrets import seal, unseal
from ..auth import Principal
from ..context import forge, now_seconds
from ..events import PushEvent, RepoCreatedEvent
from ..gitcli import ZERO_SHA, Git, GitError
from ..orgs import models as orgs
from ..orgs.errors import OrgNotFound
from ..outgoing import curl_pin
from ..permissions import is_org_member, is_org_owner, permission
from ..repos import models as repos
from ..repos.creation import create_repo_from_git
from ..users import models as users
from ..users.errors import UserNotFound
from . import store
from .errors import ForkExists, InvalidCloneAddress, MigrationFailed, NotAMirror, OwnerNotAllowed

__all__ = ["create_fork", "list_forks", "migrate", "sync_mirror"]

log = logging.getLogger(__name__)

DEFAULT_BRANCH = "main"
LOCAL_IMPORT_REFUSED = "You are not allowed to import local repositories."
DISALLOWED_HOST = "You can not import from disallowed hosts."


def _text(options: Mapping[str, Any], key: str, field: str, *, required: bool = False) -> str:
    value = options.get(key)
    if value is None or value == "":
        if required:
            raise InvalidCloneAddress(f"[{field}]: Required")
        return ""
    if not isinstance(value, str):
        raise InvalidCloneAddress(f"[{field}]: must be a string")
    return value


def _publish_created(repo: repos.Repo, kind: str) -> repos.Repo:
    forge().events.publish(RepoCreatedEvent(repo.id, kind))
    return repo


# -- forks ----------------------------------------------------------------------------------------


def _fork_owner(principal: Principal, organization: str) -> users.User:
    """The caller, or an organization the caller belongs to (422 unknown, 403 not a member)."""
    if not organization:
        return users.get_user(principal.user_id)
    try:
        org = orgs.get_org(organization, principal)
    except OrgNotFound as exc:
        raise InvalidCloneAddress(f"organization does not exist [name: {organization}]") from exc
    if not principal.is_admin and not is_org_member(principal.user_id, org.id):
        raise OwnerNotAllowed(f"User is no Member of Organisation '{org.name}'")
    return org


def create_fork(parent: repos.Repo, principal: Principal, options: Mapping[str, Any]) -> repos.Repo:
    """``CreateForkOption``: copy ``parent`` (every branch and tag) under the caller or ``organization``
    as ``name`` (default: the parent's name); 409 when the owner already has that name or a fork of it."""
    organization = _text(options, "organization", "Organization")
    name = _text(options, "name", "Name") or parent.name
    owner = _fork_owner(principal, organization)
    if owner.id == parent.owner_id or repos.fork_owned_by(parent, owner.id) is not None:
        raise ForkExists(f"repository is already forked by user [uname: {owner.name}, repo path: {parent.full_name}]")

    def populate(git: Git) -> str:
        parent.git.copy_to(git.path)
        return parent.default_branch

    fork = create_repo_from_git(
        owner,
        {"name": name, "description": parent.description, "private": parent.private},
        populate,
        fork_of=parent.id,
    )
    return _publish_created(fork, "fork")


def list_forks(
    parent: repos.Repo, principal: Principal | None, offset: int, limit: int
) -> tuple[list[repos.Repo], int]:
    """The forks of ``parent`` the caller may see, oldest first, one page and the total."""
    forks, _ = repos.list_forks(parent, limit=1_000_000, offset=0)
    visible = [fork for fork in forks if permission(principal, fork).can_read]
    return visible[offset : offset + limit], len(visible)


# -- migrations and mirrors -----------------------------------------------------------------------


def clone_address(raw: str) -> tuple[str, str | None]:
    """The clone URL without credentials, and the ``user:password`` it carried; 422 unless http(s)."""
    stripped = raw.strip()
    lowered = stripped.lower()
    if lowered.startswith("file:") or stripped.startswith(("/", ".", "~")) or "://" not in stripped:
        raise InvalidCloneAddress(LOCAL_IMPORT_REFUSED)
    parts = urlsplit(stripped)
    if parts.scheme.lower() not in ("http", "https"):
        raise InvalidCloneAddress(f"Invalid clone address: only http and https are allowed, not {parts.scheme!r}")
    if not parts.hostname:
        raise InvalidCloneAddress("Invalid clone address: the URL has no host")
    credentials = None
    if parts.username is not None:
        credentials = f"{parts.username}:{parts.password or ''}"
    if forge().migration_hosts.refusal(parts.hostname) is not None:
        raise InvalidCloneAddress(DISALLOWED_HOST)
    netloc = parts.hostname + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme.lower(), netloc, parts.path, parts.query, "")), credentials


def _pinned(url: str) -> str:
    """Where git may connect for ``url``: its host resolved now and checked against the migrations
    allow-list (422 when refused), pinned so git cannot resolve it elsewhere."""
    services = forge()
    try:
        return curl_pin(url, services.migration_hosts, services.resolver)
    except PermissionError as refused:
        log.warning("migrations: refused %s: %s", urlsplit(url).hostname, refused)
        raise InvalidCloneAddress(DISALLOWED_HOST) from None
    except OSError as error:
        raise MigrationFailed(f"Migration failed: {urlsplit(url).hostname} does not resolve") from error


def _authorization(options: Mapping[str, Any], url_credentials: str | None) -> str | None:
    """The ``Authorization`` header value: a token, else username and password, else the URL's user info."""
    token = _text(options, "auth_token", "AuthToken")
    if token:
        return f"token {token}"
    username = _text(options, "auth_username", "AuthUsername")
    password = _text(options, "auth_password", "AuthPassword")
    pair = f"{username}:{password}" if username or password else url_credentials
    if not pair:
        return None
    return "Basic " + base64.b64encode(pair.encode("utf-8")).decode("ascii")


def _migration_owner(principal: Principal, owner_name: str) -> users.User:
    if not owner_name:
        return users.get_user(principal.user_id)
    try:
        owner = users.get_user_by_name(owner_name)
    except UserNotFound as exc:
        raise InvalidCloneAddress(f"user does not exist [name: {owner_name}]") from exc
    if owner.id == principal.user_id or principal.is_admin:
        return owner
    if owner.is_org and is_org_owner(principal.user_id, owner.id):
        return owner
    if owner.is_org:
        raise OwnerNotAllowed("Given user is not allowed to create repository in organization.")
    raise OwnerNotAllowed("Given user is not an organization.")


def _failure(error: GitError) -> MigrationFailed:
    lines = [line for line in error.stderr.splitlines() if line.strip()]
    detail = lines[-1] if lines else f"git exited with {error.returncode}"
    if "Authentication failed" in error.stderr or "401" in error.stderr or "403" in error.stderr:
        return MigrationFailed(f"Authentication failed: {detail}")
    return MigrationFailed(f"Migration failed: {detail}")


def migrate(principal: Principal, options: Mapping[str, Any]) -> repos.Repo:
    """``MigrateRepoOptions``: fetch every branch and tag of ``clone_addr`` into a new repository (a pull
    mirror when ``mirror``); only the Git data is migrated, whatever ``service`` says."""
    url, url_credentials = clone_address(_text(options, "clone_addr", "CloneAddr", required=True))
    repo_name = _text(options, "repo_name", "RepoName", required=True)
    owner = _migration_owner(principal, _text(options, "repo_owner", "RepoOwner"))
    authorization = _authorization(options, url_credentials)
    mirror = options.get("mirror") is True
    repos.validate_repo_name(repo_name)

    pinned = _pinned(url)

    def populate(git: Git) -> str:
        try:
            git.init_bare(DEFAULT_BRANCH)
            git.fetch_mirror(url, authorization=authorization, pinned=pinned)
            head = git.remote_head(url, authorization=authorization, pinned=pinned)
        except GitError as exc:
            raise _failure(exc) from exc
        branches = git.branches()
        default = head if head in branches else next(iter(sorted(branches)), DEFAULT_BRANCH)
        git.set_head(default)
        return default

    options_for_repo = {
        "name": repo_name,
        "description": options.get("description") or "",
        "private": options.get("private") is True,
    }
    repo = create_repo_from_git(owner, options_for_repo, populate, mirror=mirror, original_url=url)
    if mirror:
        with forge().db.transaction():
            store.insert_mirror(repo.id, url, seal(authorization) if authorization else "", now_seconds())
    return _publish_created(repo, "mirror" if mirror else "migrate")


def sync_mirror(repo: repos.Repo, principal: Principal) -> list[tuple[str, str, str]]:
    """Fetch a pull mirror's remote and announce every moved branch or tag as a push (bypassing branch
    protection, as Gitea's mirror updates do); 400 when the repository is not a mirror."""
    row = store.mirror_of(repo.id) if repo.is_mirror else None
    if row is None:
        raise NotAMirror("Repository is not a mirror")
    sealed = row["sealed_authorization"]
    authorization = unseal(sealed) if sealed else None
    git = repo.git
    pinned = _pinned(row["remote_url"])
    with repos.repo_lock(repo):
        before = git.ref_commits()
        try:
            git.fetch_mirror(row["remote_url"], authorization=authorization, pinned=pinned)
        except GitError as exc:
            raise _failure(exc) from exc
        after = git.ref_commits()
        with forge().db.transaction():
            store.record_sync(repo.id, now_seconds())
        repos.touch(repo)
    moved = [
        (ref, before.get(ref, ZERO_SHA), after.get(ref, ZERO_SHA))
        for ref in sorted(set(before) | set(after))
        if before.get(ref) != after.get(ref)
    ]
    for ref, old, new in moved:
        forge().events.publish(PushEvent(repo.id, ref, old, new, principal.user_id))
    return moved

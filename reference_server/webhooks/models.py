"""Webhooks as values and the rules of CreateHookOption and EditHookOption (``Hook``: :mod:`.presenters`).

One model for every kind of hook: a :class:`HookOwner` says whose it is (a repository's, an account's, which
Gitea fires for every repository of that organization or user, or the instance's system hooks).

Options are checked whole before anything is written, so a refused request changes nothing. The
secret and the authorization header are credentials the server must use again (to sign, to send), so
they are stored sealed with the instance secret (as action secrets), never in clear.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..actions.secrets import seal, unseal
from ..context import forge, now_seconds
from ..db import Row
from . import store
from .errors import HookNotFound, InvalidHookOption

__all__ = [
    "CONTENT_TYPES",
    "HOOK_TYPES",
    "PAYLOAD_TYPES",
    "SYSTEM",
    "Hook",
    "HookOwner",
    "create_hook",
    "delete_hook",
    "delete_hooks_of_owner",
    "edit_hook",
    "get_hook",
    "hooks_of",
    "prepare_table",
    "seal_stored_credentials",
    "subscribed_hooks",
]

# Gitea's webhook kinds; the three Gitea-shaped ones receive the JSON payloads delivered here.
HOOK_TYPES = frozenset(
    {
        "gitea",
        "forgejo",
        "gogs",
        "slack",
        "discord",
        "dingtalk",
        "telegram",
        "msteams",
        "feishu",
        "matrix",
        "wechatwork",
        "packagist",
    }
)
PAYLOAD_TYPES = frozenset({"gitea", "forgejo", "gogs"})
CONTENT_TYPES = frozenset({"json", "form"})
MAX_URL_LENGTH = 2048


@dataclass(frozen=True)
class HookOwner:
    """Whose hooks: a repository's (``repo_id``), an account's (``owner_id``), or, both 0, the instance's."""

    repo_id: int = 0
    owner_id: int = 0

    @classmethod
    def repository(cls, repo_id: int) -> HookOwner:
        return cls(repo_id=repo_id)

    @classmethod
    def account(cls, owner_id: int) -> HookOwner:
        """An organization's or a user's hooks, fired for every repository the account owns."""
        return cls(owner_id=owner_id)


SYSTEM = HookOwner()
"""The instance's system hooks (no repository and no account)."""
HOOK_EVENTS = frozenset(
    [
        "create",
        "delete",
        "fork",
        "push",
        "issues",
        "issue_assign",
        "issue_label",
        "issue_milestone",
        "issue_comment",
        "pull_request",
        "pull_request_assign",
        "pull_request_label",
        "pull_request_milestone",
        "pull_request_comment",
        "pull_request_review",
        "pull_request_review_approved",
        "pull_request_review_rejected",
        "pull_request_review_comment",
        "pull_request_sync",
        "pull_request_review_request",
        "wiki",
        "repository",
        "release",
        "package",
        "status",
        "workflow_run",
        "workflow_job",
    ]
)
"""Gitea's hook event names (``webhook_module.HookEventType``, and the grouped ``pull_request_review``)."""
MAX_ID = 2**63 - 1


log = logging.getLogger(__name__)
SEALED_FIELDS = ("secret", "authorization_header")
SEALED_PREFIX = "sealed:"


def _sealed(fields: dict[str, Any]) -> dict[str, Any]:
    """``fields`` with the credentials sealed (an empty value stays empty: no secret)."""
    return {
        key: SEALED_PREFIX + seal(value) if key in SEALED_FIELDS and isinstance(value, str) and value else value
        for key, value in fields.items()
    }


def _unsealed(stored: str) -> str:
    """The clear credential; rows written before sealing hold it in clear until the start-up pass seals them."""
    if not stored.startswith(SEALED_PREFIX):
        return stored
    try:
        return unseal(stored[len(SEALED_PREFIX) :])
    except ValueError:
        log.warning("a webhook credential was sealed under another instance secret; it is ignored")
        return ""


def seal_stored_credentials() -> None:
    """Seal the credentials of hooks stored before sealing (run once at start)."""
    with forge().db.transaction():
        for row in store.hooks_with_clear_credentials(SEALED_PREFIX):
            fields = {
                key: str(row[key]) for key in SEALED_FIELDS if row[key] and not row[key].startswith(SEALED_PREFIX)
            }
            store.update_credentials(int(row["id"]), _sealed(fields))


@dataclass(frozen=True)
class Hook:
    """One repository webhook; ``secret`` signs deliveries and never leaves the server."""

    id: int
    repo_id: int
    owner_id: int
    type: str
    name: str
    url: str
    content_type: str
    http_method: str
    secret: str
    events: tuple[str, ...]
    branch_filter: str
    authorization_header: str
    active: bool
    created: int
    updated: int

    @classmethod
    def from_row(cls, row: Row) -> Hook:
        return cls(
            id=int(row["id"]),
            repo_id=int(row["repo_id"]),
            owner_id=int(row["owner_id"]),
            type=str(row["type"]),
            name=str(row["name"]),
            url=str(row["url"]),
            content_type=str(row["content_type"]),
            http_method=str(row["http_method"]),
            secret=_unsealed(str(row["secret"])),
            events=tuple(json.loads(row["events"])),
            branch_filter=str(row["branch_filter"]),
            authorization_header=_unsealed(str(row["authorization_header"])),
            active=bool(row["active"]),
            created=int(row["created"]),
            updated=int(row["updated"]),
        )

    def wants(self, event: str) -> bool:
        """Whether this hook takes ``event`` deliveries (active, Gitea-shaped, subscribed to the event)."""
        return self.active and self.type in PAYLOAD_TYPES and event in self.events


def _text(options: Mapping[str, Any], key: str, default: str = "") -> str:
    value = options.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str):
        raise InvalidHookOption(f"{key} must be a string")
    return value


def _valid_url(raw: str) -> str:
    """An absolute http(s) URL with a host (Gitea refuses the others with "Invalid url")."""
    url = raw.strip()
    try:
        parts = urlsplit(url)
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        raise InvalidHookOption(f"Invalid url: {raw!r} does not parse") from None
    if len(url) > MAX_URL_LENGTH or parts.scheme not in ("http", "https") or not parts.hostname or not port_ok:
        raise InvalidHookOption(f"Invalid url: {raw!r} is not an absolute http or https URL with a host")
    refusal = forge().webhook_hosts.refusal(parts.hostname)
    if refusal is not None:  # checked again, after DNS, on every delivery (outgoing.checked_session)
        raise InvalidHookOption(f"Invalid url: {refusal}")
    return url


def _config(options: Mapping[str, Any], *, creating: bool) -> dict[str, str]:
    """The hook's ``config`` as columns: ``url`` and ``content_type`` are required on create, as in Gitea."""
    raw = options.get("config")
    if raw is None and not creating:
        return {}
    if not isinstance(raw, Mapping):
        raise InvalidHookOption("Missing config option: url" if creating else "config must be an object")
    if not all(isinstance(value, str) for value in raw.values()):
        raise InvalidHookOption("every config value must be a string")
    fields: dict[str, str] = {}
    for name in ("url", "content_type"):
        if name not in raw and creating:
            raise InvalidHookOption(f"Missing config option: {name}")
    if "url" in raw:
        fields["url"] = _valid_url(raw["url"])
    if "content_type" in raw:
        if raw["content_type"] not in CONTENT_TYPES:
            raise InvalidHookOption(f"Invalid content type {raw['content_type']!r}: json or form")
        fields["content_type"] = raw["content_type"]
    if "secret" in raw:
        fields["secret"] = raw["secret"]
    return fields


def _events(options: Mapping[str, Any], *, creating: bool) -> dict[str, list[str]]:
    """``events`` as given (duplicates dropped); Gitea subscribes a new hook to ``push`` when none are given."""
    raw = options.get("events")
    if raw is None:
        return {"events": ["push"]} if creating else {}
    if not isinstance(raw, list) or not all(isinstance(item, str) and item.strip() for item in raw):
        raise InvalidHookOption("events must be a list of event names")
    events = list(dict.fromkeys(item.strip() for item in raw))
    unknown = [event for event in events if event not in HOOK_EVENTS]
    if unknown:  # Gitea ignores unknown names; storing them only hides a typo until no delivery comes
        raise InvalidHookOption(f"unknown event: {unknown[0]}")
    return {"events": events or ["push"]}


def _active(options: Mapping[str, Any]) -> dict[str, bool]:
    if "active" not in options or options["active"] is None:
        return {}
    if not isinstance(options["active"], bool):
        raise InvalidHookOption("active must be true or false")
    return {"active": options["active"]}


def _shared_fields(options: Mapping[str, Any]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for key in ("name", "branch_filter", "authorization_header"):
        if key in options and options[key] is not None:
            fields[key] = _text(options, key)
    return fields


def create_hook(owner: HookOwner, options: Mapping[str, Any]) -> Hook:
    """Store a hook of a repository, an account or (``SYSTEM``) the instance from a ``CreateHookOption`` (422 on
    an unknown type, a missing or unusable config)."""
    hook_type = _text(options, "type")
    if hook_type not in HOOK_TYPES:
        raise InvalidHookOption(f"Invalid hook type {hook_type!r}")
    config = _config(options, creating=True)
    fields: dict[str, Any] = {
        "type": hook_type,
        "name": "",
        "http_method": "post",
        "secret": "",
        "branch_filter": "",
        "authorization_header": "",
        "active": False,
        **config,
        **_events(options, creating=True),
        **_active(options),
        **_shared_fields(options),
    }
    db = forge().db
    with db.transaction():
        hook_id = store.insert_hook(owner.repo_id, owner.owner_id, _sealed(fields), now_seconds())
        row = store.hook_row(owner.repo_id, owner.owner_id, hook_id)
    if row is None:  # pragma: no cover - written just above
        raise HookNotFound("the hook vanished right after it was created")
    return Hook.from_row(row)


def _hook_id(raw: str) -> int:
    if not raw.isdigit() or not 0 < int(raw) <= MAX_ID:
        raise HookNotFound(f"hook {raw!r} not found")
    return int(raw)


def get_hook(owner: HookOwner, raw_id: str) -> Hook:
    """A hook of this repository, account or instance by id; 404 for another one's hook or a malformed id."""
    row = store.hook_row(owner.repo_id, owner.owner_id, _hook_id(raw_id))
    if row is None:
        raise HookNotFound(f"hook {raw_id} not found")
    return Hook.from_row(row)


def hooks_of(owner: HookOwner, limit: int, offset: int) -> tuple[list[Hook], int]:
    """A page of a repository's, an account's or the instance's hooks, oldest first, and their number."""
    rows, total = store.hook_rows(owner.repo_id, owner.owner_id, limit, offset)
    return [Hook.from_row(row) for row in rows], total


def edit_hook(owner: HookOwner, raw_id: str, options: Mapping[str, Any]) -> Hook:
    """Apply an ``EditHookOption``: only the given fields change; everything is checked before writing."""
    hook = get_hook(owner, raw_id)
    fields = {
        **_config(options, creating=False),
        **_events(options, creating=False),
        **_active(options),
        **_shared_fields(options),
    }
    db = forge().db
    with db.transaction():
        if fields:
            store.update_hook(hook.id, _sealed(fields), now_seconds())
        row = store.hook_row(owner.repo_id, owner.owner_id, hook.id)
    if row is None:
        raise HookNotFound(f"hook {raw_id} not found")
    return Hook.from_row(row)


def delete_hook(owner: HookOwner, raw_id: str) -> None:
    hook = get_hook(owner, raw_id)
    with forge().db.transaction():
        store.delete_hook(hook.id)


def subscribed_hooks(repo_id: int, owner_id: int, event: str) -> list[Hook]:
    """The hooks that take ``event`` deliveries of a repository now: its own, its owner's (an organization's or a
    user's hooks hear every repository of the account), then the system hooks (every repository)."""
    rows = store.active_hook_rows(repo_id, owner_id)
    return [hook for hook in map(Hook.from_row, rows) if hook.wants(event)]


def delete_hooks_of_owner(owner_id: int) -> None:
    """Drop a deleted account's hooks and their deliveries (inside the caller's transaction)."""
    store.delete_hooks_of_owner(owner_id)


def prepare_table() -> None:
    """Give an existing ``webhook`` table the owner column (at start, before any request)."""
    store.upgrade(forge().db)


def copy_hooks(from_repo_id: int, to_repo_id: int) -> None:
    """Give a repository generated from a template the template's webhooks (credentials stay sealed)."""
    store.copy_hooks(from_repo_id, to_repo_id, now_seconds())

"""Gitea's ``FileOptions`` (branch, new branch, message, author, committer, dates, signoff), validated once
for every write of the contents API before the repository is locked."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..auth import Principal
from ..context import now_seconds
from ..errors import Unprocessable
from ..gitcli import ZERO_SHA, Identity, valid_branch_name
from ..users import models as users
from . import models
from .errors import BranchAlreadyExists, BranchNotFound

__all__ = ["CommitOptions", "decode_base64", "parse_commit_options", "text_option"]


@dataclass(frozen=True)
class CommitOptions:
    """Where a write commits (``branch``, or ``new_branch`` started from it) and what the commit says.

    ``message`` is empty when the caller gave none: each operation supplies Gitea's default then.
    """

    branch: str
    new_branch: str
    force_push: bool
    message: str
    signoff: bool
    author: Identity
    committer: Identity

    @property
    def target(self) -> str:
        """The branch that moves."""
        return self.new_branch or self.branch

    def base(self, branches: Mapping[str, str]) -> tuple[str | None, str]:
        """``(parent, old)`` for the current ``branches``: the commit the change builds on (None in an empty
        repository) and the target branch's head it must replace (40 zeros: created). 404 for a missing
        branch, 422 for an existing ``new_branch`` without ``force_push``."""
        parent: str | None = None
        if branches:
            if self.branch not in branches:
                raise BranchNotFound(f"branch does not exist [name: {self.branch}]")
            parent = branches[self.branch]
        if self.new_branch and self.new_branch in branches and not self.force_push:
            raise BranchAlreadyExists(f"branch already exists [name: {self.new_branch}]")
        return parent, branches.get(self.target, ZERO_SHA)

    def final_message(self, default: str) -> str:
        """The commit message: the caller's (trimmed like Gitea) or ``default``, with a sign-off line if asked."""
        message = self.message.strip() or default.strip()
        if self.signoff:
            message = f"{message}\n\nSigned-off-by: {self.committer.name} <{self.committer.email}>"
        return message + "\n"


def text_option(options: Mapping[str, Any], key: str) -> str:
    """A string option ('' when absent or null); 422 when it is not a string."""
    value = options.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Unprocessable(f"[{key}]: must be a string")
    return value


def _identity(options: Mapping[str, Any], key: str) -> tuple[str, str] | None:
    value = options.get(key)
    if value is None:
        return None
    if not isinstance(value, dict):
        raise Unprocessable(f"[{key}]: must be an object with name and email")
    name, email = text_option(value, "name"), text_option(value, "email")
    if not name and not email:
        return None
    if not name or not email or "\n" in name or "<" in email or ">" in email:
        raise Unprocessable(f"[{key}]: both name and a valid email are required")
    return name, users.validate_email(email, f"{key}.email")


def _date(options: Mapping[str, Any], key: str, default: int) -> int:
    dates = options.get("dates")
    if dates is None:
        return default
    if not isinstance(dates, dict):
        raise Unprocessable("[Dates]: must be an object")
    value = dates.get(key)
    if value in (None, ""):
        return default
    if not isinstance(value, str):
        raise Unprocessable(f"[Dates.{key}]: must be an RFC 3339 date-time")
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as exc:
        raise Unprocessable(f"[Dates.{key}]: must be an RFC 3339 date-time") from exc
    if moment.tzinfo is None:
        raise Unprocessable(f"[Dates.{key}]: a time zone offset is required")
    return int(moment.timestamp())


def decode_base64(value: object, field: str = "Content") -> bytes:
    """Standard base64 (line breaks tolerated); 422 when it does not decode."""
    if not isinstance(value, str):
        raise Unprocessable(f"[{field}]: must be a base64 string")
    try:
        return base64.b64decode(value.replace("\r", "").replace("\n", ""), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise Unprocessable(f"illegal base64 data in {field.lower()}: {exc}") from exc


def parse_commit_options(repo: models.Repo, options: Mapping[str, Any], principal: Principal) -> CommitOptions:
    """Validate the ``FileOptions`` of a write; the author defaults to the committer, both to the caller."""
    branch = text_option(options, "branch") or repo.default_branch
    new_branch = text_option(options, "new_branch")
    for name in (branch, new_branch):
        if name and not valid_branch_name(name):
            raise Unprocessable(f"invalid branch name [name: {name}]")
    force_push = options.get("force_push")
    if force_push is not None and not isinstance(force_push, bool):
        raise Unprocessable("[ForcePush]: must be a boolean")
    signoff = options.get("signoff")
    if signoff is not None and not isinstance(signoff, bool):
        raise Unprocessable("[Signoff]: must be a boolean")
    now = now_seconds()
    fallback = users.doer_identity(principal)
    author_pair = _identity(options, "author")
    committer_pair = _identity(options, "committer")
    author_pair = author_pair or committer_pair or fallback
    committer_pair = committer_pair or author_pair
    return CommitOptions(
        branch=branch,
        new_branch="" if new_branch == branch else new_branch,
        force_push=force_push is True,
        message=text_option(options, "message"),
        signoff=signoff is True,
        author=Identity(*author_pair, _date(options, "author", now)),
        committer=Identity(*committer_pair, _date(options, "committer", now)),
    )

"""Named error conditions of user keys, with Gitea's status codes and messages."""

from __future__ import annotations

from ..errors import Forbidden, NotFound, Unprocessable

__all__ = [
    "GpgInvalidSignature",
    "GpgKeyIdUsed",
    "GpgNoEmailFound",
    "KeyAccessDenied",
    "KeyContentUsed",
    "KeyNotFound",
    "KeyTitleUsed",
]


class KeyNotFound(NotFound):
    default_message = "not found"


class KeyAccessDenied(Forbidden):
    default_message = "You do not have access to this key"


class KeyContentUsed(Unprocessable):
    """The fingerprint is already some account's key or some repository's deploy key."""

    default_message = "Key content has been used as non-deploy key"


class KeyTitleUsed(Unprocessable):
    default_message = "Key title has been used"


class GpgKeyIdUsed(Unprocessable):
    default_message = "A key with the same id already exists"


class GpgNoEmailFound(NotFound):
    default_message = "None of the emails attached to the GPG key could be found"


class GpgInvalidSignature(Unprocessable):
    default_message = "The provided GPG key, signature and token do not match or token is out of date"

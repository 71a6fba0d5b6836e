"""Named error conditions of the deploy-tokens family, with Gitea's status codes and messages."""

from __future__ import annotations

from ..errors import NotFound, Unprocessable

__all__ = [
    "DeployKeyAlreadyAdded",
    "DeployKeyNotFound",
    "DeployKeyTitleTaken",
    "InvalidDeployTokenOption",
    "InvalidKeyContent",
    "KeyUsedByAccount",
]


class DeployKeyNotFound(NotFound):
    default_message = "not found"


class DeployKeyTitleTaken(Unprocessable):
    default_message = "A key with the same name already exists"


class InvalidDeployTokenOption(Unprocessable):
    default_message = "invalid deploy token option"


class DeployKeyAlreadyAdded(Unprocessable):
    default_message = "This key has already been added to this repository"


class InvalidKeyContent(Unprocessable):
    default_message = "Invalid key content"


class KeyUsedByAccount(Unprocessable):
    """The key is already an account's SSH key (one fingerprint is one key on the forge, as in Gitea)."""

    default_message = "Key content has been used as non-deploy key"

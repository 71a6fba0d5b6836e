"""Named error conditions of the webhooks family."""

from __future__ import annotations

from ..errors import NotFound, Unprocessable

__all__ = ["HookNotFound", "InvalidHookOption"]


class HookNotFound(NotFound):
    default_message = "hook not found"


class InvalidHookOption(Unprocessable):
    default_message = "invalid hook option"

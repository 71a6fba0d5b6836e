"""Named errors of the topics family: Gitea answers invalid topics with 422 and an ``invalidTopics`` field."""

from __future__ import annotations

from ..errors import NotFound, Unprocessable

__all__ = ["InvalidTopics", "TooManyTopics", "TopicNotFound"]


class InvalidTopics(Unprocessable):
    """One or more topic names break the rule; the body names them (``invalidTopics``) as Gitea's does."""

    default_message = "Topic names are invalid"

    def __init__(self, message: str, invalid: list[str] | str | None) -> None:
        super().__init__(message)
        self.invalid = invalid


class TooManyTopics(InvalidTopics):
    """More than 25 topics would be on the repository."""


class TopicNotFound(NotFound):
    default_message = "not found"

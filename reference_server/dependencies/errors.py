"""Named refusals of the dependencies family. Gitea answers a duplicate, a cycle and a missing link with 500;
the reference answers 409, 422 and 404 with a reason."""

from __future__ import annotations

from ..errors import Conflict, NotFound, Unprocessable

__all__ = ["CircularDependency", "DependencyExists", "DependencyNotFound", "InvalidIssueMeta", "LinkNotAllowed"]


class DependencyExists(Conflict):
    default_message = "issue dependency already exists"


class CircularDependency(Unprocessable):
    """The new link would close a cycle (an issue depending on itself, directly or through others)."""

    default_message = "issue dependency would create a circular dependency"


class DependencyNotFound(NotFound):
    default_message = "issue dependency does not exist"


class LinkNotAllowed(NotFound):
    """Gitea hides a link the caller may not make behind 404 (no write on the blocked issue's repository,
    or that repository archived)."""

    default_message = "not found"


class InvalidIssueMeta(Unprocessable):
    """The body is not an ``IssueMeta {owner, repo, index}``."""

    default_message = "invalid issue reference"

"""ActivityPub: every ``/api/v1/activitypub/*`` request and ``GET /api/v1/nodeinfo`` answer 501 (spec 7).

Gitea 1.26 removed its federation code and answers these with 501 ``Not implemented`` (plain text)
when ``[federation] ENABLED`` is set, 404 otherwise. The reference answers as if federation were
enabled, so the specification's 501 is observable. As in Gitea the paths are not in the API
description: they are answered by a request hook, not by registered routes, so ``apidoc`` never
sees them. A token used on ``/activitypub/*`` needs the ``activitypub`` scope (403 otherwise), as
Gitea's ``tokenRequiresScopes``; an anonymous caller is answered 501 directly.
"""

from __future__ import annotations

from flask import Flask, Response, request

from ..auth import check_scope, optional_principal

__all__ = ["ACTIVITYPUB_PREFIX", "NODEINFO_PATH", "register_activitypub"]

ACTIVITYPUB_PREFIX = "/api/v1/activitypub"
NODEINFO_PATH = "/api/v1/nodeinfo"
NOT_IMPLEMENTED = "Not implemented"


def _is_activitypub(path: str) -> bool:
    return path == ACTIVITYPUB_PREFIX or path.startswith(ACTIVITYPUB_PREFIX + "/")


def _not_implemented() -> Response:
    return Response(NOT_IMPLEMENTED, status=501, content_type="text/plain; charset=utf-8")


def answer_activitypub() -> Response | None:
    """The 501 for an ActivityPub or nodeinfo request; None lets any other request through."""
    path = request.path
    if _is_activitypub(path):
        if optional_principal() is not None:
            check_scope("activitypub")
        return _not_implemented()
    if path == NODEINFO_PATH and request.method in ("GET", "HEAD"):
        return _not_implemented()
    return None


def register_activitypub(app: Flask) -> None:
    """Answer the ActivityPub paths before routing (any method, any sub-path)."""
    app.before_request(answer_activitypub)

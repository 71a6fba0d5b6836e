"""``GET /repos/search``: the repositories found, in Gitea's ``SearchResults`` envelope."""

from __future__ import annotations

from flask import Response, request

from ..access import token
from ..auth import optional_principal
from ..endpoints import Endpoint
from ..repos.presenters import repo_to_api
from ..rest import page_params, paged_response
from . import models

__all__ = ["ENDPOINTS"]

API = "/api/v1"


def repo_search() -> Response:
    """Search the repositories the caller may see; ``X-Total-Count`` and ``Link`` count what was found."""
    viewer = optional_principal()
    options = models.parse_options(request.args, signed_in=viewer is not None)
    page = page_params()
    found, total = models.search(options, viewer, page.limit, page.offset)
    return paged_response({"data": [repo_to_api(repo, viewer) for repo in found], "ok": True}, page, total)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/repos/search",
        "repoSearch",
        repo_search,
        "repository",
        token("repository", anonymous_read=True),
        returns="search_results",
        errors=(422,),
    ),
)

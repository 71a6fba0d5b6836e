"""``GET /repos/issues/search``: Gitea's ``Issue`` list of what was found (a literal route, so it is never
taken for the repository ``issues/search``)."""

from __future__ import annotations

from flask import Response, request

from ..access import token
from ..auth import optional_principal
from ..context import forge
from ..endpoints import API, Endpoint
from ..issues.presenters import issue_api
from ..rest import Page, page_params, paged_response
from . import models

__all__ = ["ENDPOINTS"]

ISSUE_PAGING_NUM = 20
"""Gitea's default page size of this search (``[ui] ISSUE_PAGING_NUM``: it also serves the web UI)."""


def issue_search_issues() -> Response:
    """The issues and pulls the caller may see that match the filters, newest first, paged."""
    page = page_params()
    if request.args.get("limit", "").strip() in ("", "0"):
        page = Page(page.page, min(ISSUE_PAGING_NUM, forge().config.limits.max_response_items))
    found, total = models.search(request.args, optional_principal(), page.limit, page.offset)
    return paged_response([issue_api(item.repo, item.issue) for item in found], page, total)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/repos/issues/search",
        "issueSearchIssues",
        issue_search_issues,
        "issue",
        token("issue", anonymous_read=True),
        returns="[issue]",
        errors=(400, 422),
    ),
)

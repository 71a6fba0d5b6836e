"""REST routes of commit statuses (thin): create one (writers), list a commit's statuses by SHA or by
ref, and the combined status of a ref. All in Gitea's ``repository`` token scope category; reads are
open to anonymous callers on repositories they can see."""

from __future__ import annotations

import logging

from flask import Flask, Response, request

from ..access import token
from ..auth import current_principal
from ..context import forge
from ..endpoints import API, Endpoint
from ..events import JobStatusEvent
from ..permissions import current_repo
from ..rest import json_body, json_response, page_params, paged_response
from . import models
from .from_actions import on_job_status
from .presenters import combined_to_api, status_to_api

__all__ = ["ENDPOINTS", "register"]

log = logging.getLogger(__name__)

REPO = API + "/repos/<owner>/<repo>"


def create_status(owner: str, repo: str, sha: str) -> Response:
    found = current_repo()
    status = models.create_status(found, sha, json_body(), current_principal().user_id)
    return json_response(status_to_api(found, status), status=201)


def _listed(sha: str) -> Response:
    found = current_repo()
    page = page_params()
    statuses, total = models.list_statuses(
        found,
        sha,
        sort=request.args.get("sort", "").strip(),
        state=request.args.get("state", "").strip(),
        limit=page.limit,
        offset=page.offset,
    )
    return paged_response([status_to_api(found, status) for status in statuses], page, total)


def list_statuses(owner: str, repo: str, sha: str) -> Response:
    return _listed(models.resolve_sha(current_repo(), sha))


def list_statuses_by_ref(owner: str, repo: str, ref: str) -> Response:
    return _listed(models.resolve_ref(current_repo(), ref))


def combined_status(owner: str, repo: str, ref: str) -> Response:
    """The latest status of each context and their combined state; ``X-Total-Count`` counts the contexts."""
    found = current_repo()
    sha = models.resolve_ref(found, ref)
    latest = models.latest_statuses(found.id, sha)
    response = json_response(combined_to_api(found, sha, latest))
    response.headers["X-Total-Count"] = str(len(latest))
    response.headers["Access-Control-Expose-Headers"] = "X-Total-Count"
    return response


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "POST",
        REPO + "/statuses/<path:sha>",
        "repoCreateStatus",
        create_status,
        "repository",
        token("repository", repo="write"),
        body="CreateStatusOption",
        status=201,
        returns="commit_status",
        errors=(400, 404),
    ),
    Endpoint(
        "GET",
        REPO + "/statuses/<path:sha>",
        "repoListStatuses",
        list_statuses,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="[commit_status]",
        errors=(400, 404),
    ),
    Endpoint(
        "GET",
        REPO + "/commits/<path:ref>/statuses",
        "repoListStatusesByRef",
        list_statuses_by_ref,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="[commit_status]",
        errors=(400, 404),
    ),
    Endpoint(
        "GET",
        REPO + "/commits/<path:ref>/status",
        "repoGetCombinedStatusByRef",
        combined_status,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="combined_status",
        errors=(400, 404),
    ),
)


def _on_job_status(event: JobStatusEvent) -> None:
    """A failure to report a status must never fail the CI change that announced it: log and go on."""
    try:
        on_job_status(event)
    except Exception:
        log.exception("statuses: reporting %r failed", event)


def register(app: Flask) -> None:
    """Follow the jobs of Actions runs."""
    forge().events.subscribe(JobStatusEvent, _on_job_status)

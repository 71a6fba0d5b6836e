"""Routes of repository milestones (Gitea's issueGetMilestonesList, issueCreateMilestone, issueGetMilestone,
issueEditMilestone, issueDeleteMilestone): readers list and read, writers of the issues change; the
``{id}`` path segment is an id or, failing that, a name."""

from __future__ import annotations

from flask import Flask, Response, request

from ..access import token
from ..auth import current_principal
from ..context import forge
from ..endpoints import API, EMPTY, Endpoint
from ..events import IssueDeletedEvent, RepoDeletedEvent
from ..permissions import current_repo
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import models
from .presenters import milestone_to_api

__all__ = ["ENDPOINTS", "register"]

MILESTONES = API + "/repos/<owner>/<repo>/milestones"


def list_milestones(owner: str, repo: str) -> Response:
    """``state`` open (default), closed or all; ``name`` a case-insensitive part of the title; paged."""
    found = current_repo()
    page = page_params()
    items, total = models.list_milestones(
        found,
        state=request.args.get("state", "").strip(),
        name=request.args.get("name", "").strip(),
        limit=page.limit,
        offset=page.offset,
    )
    return paged_response([milestone_to_api(item) for item in items], page, total)


def create_milestone(owner: str, repo: str) -> Response:
    current_principal()
    return json_response(milestone_to_api(models.create_milestone(current_repo(), json_body())), status=201)


def get_milestone(owner: str, repo: str, key: str) -> Response:
    return json_response(milestone_to_api(models.find_milestone(current_repo(), key)))


def edit_milestone(owner: str, repo: str, key: str) -> Response:
    current_principal()
    found = current_repo()
    options = json_body()
    return json_response(milestone_to_api(models.edit_milestone(found, models.find_milestone(found, key), options)))


def delete_milestone(owner: str, repo: str, key: str) -> Response:
    current_principal()
    models.delete_milestone(models.find_milestone(current_repo(), key))
    return empty()


def register(app: Flask) -> None:
    """Drop a deleted repository's milestones and a deleted issue's membership."""
    forge().events.subscribe(RepoDeletedEvent, models.on_repo_deleted)
    forge().events.subscribe(IssueDeletedEvent, models.on_issue_deleted)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        MILESTONES,
        "issueGetMilestonesList",
        list_milestones,
        "issue",
        token("issue", anonymous_read=True, repo="read"),
        returns="[milestone]",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        MILESTONES,
        "issueCreateMilestone",
        create_milestone,
        "issue",
        token("issue", repo="write"),
        body="CreateMilestoneOption",
        status=201,
        returns="milestone",
        errors=(404, 422),
    ),
    Endpoint(
        "GET",
        MILESTONES + "/<key>",
        "issueGetMilestone",
        get_milestone,
        "issue",
        token("issue", anonymous_read=True, repo="read"),
        returns="milestone",
        errors=(404,),
    ),
    Endpoint(
        "PATCH",
        MILESTONES + "/<key>",
        "issueEditMilestone",
        edit_milestone,
        "issue",
        token("issue", repo="write"),
        body="EditMilestoneOption",
        returns="milestone",
        errors=(404, 422),
    ),
    Endpoint(
        "DELETE",
        MILESTONES + "/<key>",
        "issueDeleteMilestone",
        delete_milestone,
        "issue",
        token("issue", repo="write"),
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
)

"""REST routes of the issue configuration and issue templates (thin: scope, repository, model, render).

They sit in Gitea's repository group (``repository`` scope) and need read access to the code
(``reqRepoReader(code)`` in 1.27), so anonymous callers read them on public repositories.
"""

from __future__ import annotations

from flask import Response

from ..access import token
from ..endpoints import API, Endpoint
from ..permissions import current_repo
from ..rest import json_response
from . import models

__all__ = ["ENDPOINTS"]

REPO = "/api/v1/repos/<owner>/<repo>"


def get_issue_config(owner: str, repo: str) -> Response:
    """``IssueConfig {blank_issues_enabled, contact_links}``; the defaults when missing or invalid."""
    return json_response(models.issue_config(current_repo()))


def validate_issue_config(owner: str, repo: str) -> Response:
    """``IssueConfigValidation {valid, message}``."""
    return json_response(models.validate_config(current_repo()))


def get_issue_templates(owner: str, repo: str) -> Response:
    """The valid ``IssueTemplate``s (``[]`` when none: Gitea sends ``null``); files that fail to parse
    are counted in Gitea's ``X-Gitea-Warning`` header."""
    found = models.issue_templates(current_repo())
    headers = {}
    if found.errors:
        headers["X-Gitea-Warning"] = f"error occurs when parsing issue template: count={found.errors}"
    return json_response(found.templates, headers=headers)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/issue_config",
        "repoGetIssueConfig",
        get_issue_config,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="issue_config",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/issue_config/validate",
        "repoValidateIssueConfig",
        validate_issue_config,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="issue_config_validation",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/issue_templates",
        "repoGetIssueTemplates",
        get_issue_templates,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="issue_template_list",
        errors=(404,),
    ),
)

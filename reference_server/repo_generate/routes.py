"""``POST /repos/{template_owner}/{template_repo}/generate`` (thin: the template comes checked)."""

from __future__ import annotations

from flask import Response

from ..access import token
from ..auth import current_principal
from ..endpoints import Endpoint
from ..permissions import current_repo
from ..repos.models import get_repo_by_id
from ..repos.presenters import repo_to_api
from ..rest import json_body, json_response
from . import models

__all__ = ["ENDPOINTS"]

API = "/api/v1"


def generate_repo(owner: str, repo: str) -> Response:
    """Create a repository from the template; 201 with the new ``Repository``."""
    created = models.generate_repo(current_repo(), json_body(), current_principal())
    return json_response(repo_to_api(get_repo_by_id(created.id)), status=201)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/generate",
        "generateRepo",
        generate_repo,
        "repository",
        token("repository", repo="read"),
        body="GenerateRepoOption",
        status=201,
        returns="repository",
        errors=(403, 404, 409, 422),
    ),
)

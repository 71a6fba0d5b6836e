"""Gitea's ``DeployKey`` for a deploy token; above the models, which never render."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from ..context import forge
from ..repos.models import Repo
from ..repos.presenters import repo_to_api
from ..timefmt import iso
from .models import DeployToken

__all__ = ["token_to_api"]


def token_to_api(
    token: DeployToken, repo: Repo, plaintext: str = "", *, with_repository: bool = True
) -> dict[str, Any]:
    """Gitea's ``DeployKey``: for a token ``key`` holds the plaintext only right after creation or regeneration;
    for an SSH key it is the public key, with its fingerprint and the id shared by every repository's copy."""
    path = f"{quote(repo.owner_name)}/{quote(repo.name)}"
    body = {
        "id": token.id,
        "key_id": token.key_id,
        "key": token.key_content or plaintext,
        "url": forge().api_url(f"repos/{path}/keys/{token.id}"),
        "title": token.title,
        "fingerprint": token.fingerprint,
        "created_at": iso(token.created),
        "read_only": token.read_only,
    }
    if with_repository:  # Gitea leaves it out of the answer that adds an SSH key
        body["repository"] = repo_to_api(repo)
    return body

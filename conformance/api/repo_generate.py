"""Generating a repository from a template repository."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["RepoGenerateApi"]


class RepoGenerateApi(ApiArea):
    """``POST /repos/{template_owner}/{template_repo}/generate`` (``api.area(RepoGenerateApi)``)."""

    def generate(self, template_owner: str, template_repo: str, body: dict[str, Any]) -> requests.Response:
        """Create a repository from the template with a ``GenerateRepoOption``."""
        return self.http.post(f"repos/{quote_path(template_owner)}/{quote_path(template_repo)}/generate", json=body)

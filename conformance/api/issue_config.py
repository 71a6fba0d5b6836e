"""Issue configuration and issue templates over REST (Gitea 1.27), read from the default branch."""

from __future__ import annotations

import requests

from .base import ApiArea, quote_path

__all__ = ["IssueConfigApi"]


class IssueConfigApi(ApiArea):
    """``/repos/{owner}/{repo}/issue_config[/validate]`` and ``/repos/{owner}/{repo}/issue_templates``."""

    def _repo(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}"

    def issue_config(self, owner: str, repo: str) -> requests.Response:
        """``GET .../issue_config``: ``IssueConfig`` (the defaults when missing or invalid)."""
        return self.http.get(f"{self._repo(owner, repo)}/issue_config")

    def validate_issue_config(self, owner: str, repo: str) -> requests.Response:
        """``GET .../issue_config/validate``: ``IssueConfigValidation {valid, message}``."""
        return self.http.get(f"{self._repo(owner, repo)}/issue_config/validate")

    def issue_templates(self, owner: str, repo: str) -> requests.Response:
        """``GET .../issue_templates``: the valid ``IssueTemplate``s."""
        return self.http.get(f"{self._repo(owner, repo)}/issue_templates")

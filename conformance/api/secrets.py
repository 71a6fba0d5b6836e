"""Actions secrets and variables over REST, at repository, organization and user scope (Gitea 1.27 paths).

A scope is given as the path before ``/actions``: ``repos/{owner}/{repo}``, ``orgs/{org}`` or ``user``
(see :func:`repo_scope`, :func:`org_scope`, :data:`USER_SCOPE`). Secret values go out, never come back.
"""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["USER_SCOPE", "ActionsConfigApi", "org_scope", "repo_scope"]

USER_SCOPE = "user"


def repo_scope(owner: str, repo: str) -> str:
    return f"repos/{quote_path(owner)}/{quote_path(repo)}"


def org_scope(org: str) -> str:
    return f"orgs/{quote_path(org)}"


class ActionsConfigApi(ApiArea):
    """``{scope}/actions/secrets`` and ``{scope}/actions/variables``."""

    def list_secrets(self, scope: str, **paging: int) -> requests.Response:
        """``GET {scope}/actions/secrets`` (repository and organization; Gitea has no user list)."""
        return self.http.get(f"{scope}/actions/secrets", params=paging)

    def put_secret(self, scope: str, name: str, data: Any, description: str | None = None) -> requests.Response:
        """``PUT {scope}/actions/secrets/{name}``: 201 when created, 204 when updated."""
        body: dict[str, Any] = {"data": data}
        if description is not None:
            body["description"] = description
        return self.http.put(f"{scope}/actions/secrets/{quote_path(name)}", json=body)

    def put_secret_body(self, scope: str, name: str, body: Any) -> requests.Response:
        """``PUT`` with an arbitrary body, for the checks of bad input."""
        return self.http.put(f"{scope}/actions/secrets/{quote_path(name)}", json=body)

    def delete_secret(self, scope: str, name: str) -> requests.Response:
        """``DELETE {scope}/actions/secrets/{name}``: 204, then 404."""
        return self.http.delete(f"{scope}/actions/secrets/{quote_path(name)}")

    def list_variables(self, scope: str, **paging: int) -> requests.Response:
        """``GET {scope}/actions/variables``: an array of ``ActionVariable``, with ``X-Total-Count``."""
        return self.http.get(f"{scope}/actions/variables", params=paging)

    def get_variable(self, scope: str, name: str) -> requests.Response:
        """``GET {scope}/actions/variables/{name}``."""
        return self.http.get(f"{scope}/actions/variables/{quote_path(name)}")

    def create_variable(self, scope: str, name: str, body: Any) -> requests.Response:
        """``POST {scope}/actions/variables/{name}`` with ``{"value", "description"}``: 201."""
        return self.http.post(f"{scope}/actions/variables/{quote_path(name)}", json=body)

    def update_variable(self, scope: str, name: str, body: Any) -> requests.Response:
        """``PUT {scope}/actions/variables/{name}`` with ``{"value", "name"?, "description"?}``: 204."""
        return self.http.put(f"{scope}/actions/variables/{quote_path(name)}", json=body)

    def delete_variable(self, scope: str, name: str) -> requests.Response:
        """``DELETE {scope}/actions/variables/{name}``: 204, then 404."""
        return self.http.delete(f"{scope}/actions/variables/{quote_path(name)}")

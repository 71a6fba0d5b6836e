"""Users: administration (create, edit, delete with purge) and reads (``/user``, ``/users/{name}``)."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["UsersApi"]


class UsersApi(ApiArea):
    """Gitea's user operations."""

    def admin_create(
        self,
        username: str,
        email: str,
        password: str,
        *,
        must_change_password: bool = False,
        full_name: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> requests.Response:
        """``POST /admin/users`` (site admin)."""
        body: dict[str, Any] = {
            "username": username,
            "email": email,
            "password": password,
            "must_change_password": must_change_password,
        }
        if full_name is not None:
            body["full_name"] = full_name
        body.update(extra or {})
        return self.http.post("admin/users", json=body)

    def admin_create_raw(self, body: Any) -> requests.Response:
        """``POST /admin/users`` with a body exactly as given (for validation scenarios)."""
        return self.http.post("admin/users", json=body)

    def admin_edit(self, username: str, body: Any) -> requests.Response:
        """``PATCH /admin/users/{username}`` with an ``EditUserOption`` body (sent as given)."""
        return self.http.patch(f"admin/users/{quote_path(username)}", json=body)

    def admin_rename(self, username: str, new_name: str) -> requests.Response:
        """``POST /admin/users/{username}/rename`` with ``{"new_name": ...}``."""
        return self.http.post(f"admin/users/{quote_path(username)}/rename", json={"new_name": new_name})

    def admin_create_repo(self, username: str, body: Any) -> requests.Response:
        """``POST /admin/users/{username}/repos``: a repository the user owns, created by the admin."""
        return self.http.post(f"admin/users/{quote_path(username)}/repos", json=body)

    def admin_create_org(self, username: str, body: Any) -> requests.Response:
        """``POST /admin/users/{username}/orgs``: an organization the user owns, created by the admin."""
        return self.http.post(f"admin/users/{quote_path(username)}/orgs", json=body)

    def admin_search_emails(self, keyword: str) -> requests.Response:
        """``GET /admin/emails/search?q=``: users' e-mail addresses matching ``keyword`` (site admin)."""
        return self.http.get("admin/emails/search", params={"q": keyword})

    def admin_delete(self, username: str, *, purge: bool = True) -> requests.Response:
        """``DELETE /admin/users/{username}``, with ``purge`` removing what the user owns."""
        params = {"purge": "true"} if purge else {}
        return self.http.delete(f"admin/users/{quote_path(username)}", params=params)

    def me(self) -> requests.Response:
        """``GET /user``: the authenticated user."""
        return self.http.get("user")

    def get(self, username: str) -> requests.Response:
        """``GET /users/{username}``."""
        return self.http.get(f"users/{quote_path(username)}")

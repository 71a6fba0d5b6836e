"""People: following users, blocking them (as a user or an organization), searching users, a user's
repositories and heatmap, and OAuth2 applications."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["PeopleApi"]


class PeopleApi(ApiArea):
    """Gitea's follower, block, user search, heatmap and OAuth2 application operations."""

    # -- follows

    def follow(self, username: str) -> requests.Response:
        """``PUT /user/following/{username}`` (204)."""
        return self.http.put(f"user/following/{quote_path(username)}")

    def unfollow(self, username: str) -> requests.Response:
        """``DELETE /user/following/{username}`` (204)."""
        return self.http.delete(f"user/following/{quote_path(username)}")

    def am_following(self, username: str) -> requests.Response:
        """``GET /user/following/{username}`` (204 when following, else 404)."""
        return self.http.get(f"user/following/{quote_path(username)}")

    def my_followers(self) -> requests.Response:
        """``GET /user/followers``."""
        return self.http.get("user/followers")

    def my_following(self) -> requests.Response:
        """``GET /user/following``."""
        return self.http.get("user/following")

    def followers_of(self, username: str) -> requests.Response:
        """``GET /users/{username}/followers``."""
        return self.http.get(f"users/{quote_path(username)}/followers")

    def following_of(self, username: str) -> requests.Response:
        """``GET /users/{username}/following``."""
        return self.http.get(f"users/{quote_path(username)}/following")

    def is_following(self, username: str, target: str) -> requests.Response:
        """``GET /users/{username}/following/{target}`` (204 or 404)."""
        return self.http.get(f"users/{quote_path(username)}/following/{quote_path(target)}")

    # -- blocks (``org`` None: the caller's own blocks)

    @staticmethod
    def _blocks(org: str | None) -> str:
        return f"orgs/{quote_path(org)}/blocks" if org else "user/blocks"

    def block(self, username: str, *, org: str | None = None, note: str | None = None) -> requests.Response:
        """``PUT /user/blocks/{username}`` or ``/orgs/{org}/blocks/{username}`` (``?note=``)."""
        params = {"note": note} if note is not None else None
        return self.http.put(f"{self._blocks(org)}/{quote_path(username)}", params=params)

    def unblock(self, username: str, *, org: str | None = None) -> requests.Response:
        """``DELETE .../blocks/{username}``."""
        return self.http.delete(f"{self._blocks(org)}/{quote_path(username)}")

    def is_blocking(self, username: str, *, org: str | None = None) -> requests.Response:
        """``GET .../blocks/{username}`` (204 when blocked, else 404)."""
        return self.http.get(f"{self._blocks(org)}/{quote_path(username)}")

    def blocks(self, *, org: str | None = None) -> requests.Response:
        """``GET /user/blocks`` or ``/orgs/{org}/blocks``."""
        return self.http.get(self._blocks(org))

    # -- search, repositories, heatmap

    def search(self, params: dict[str, Any]) -> requests.Response:
        """``GET /users/search`` with ``q``, ``uid``, ``page``, ``limit`` as given."""
        return self.http.get("users/search", params=params)

    def repos_of(self, username: str, params: dict[str, Any] | None = None) -> requests.Response:
        """``GET /users/{username}/repos``."""
        return self.http.get(f"users/{quote_path(username)}/repos", params=params)

    def heatmap(self, username: str) -> requests.Response:
        """``GET /users/{username}/heatmap``."""
        return self.http.get(f"users/{quote_path(username)}/heatmap")

    # -- OAuth2 applications

    def create_oauth2_app(self, body: Any) -> requests.Response:
        """``POST /user/applications/oauth2`` (201, the secret answered once)."""
        return self.http.post("user/applications/oauth2", json=body)

    def oauth2_apps(self) -> requests.Response:
        """``GET /user/applications/oauth2``."""
        return self.http.get("user/applications/oauth2")

    def oauth2_app(self, app_id: int) -> requests.Response:
        """``GET /user/applications/oauth2/{id}``."""
        return self.http.get(f"user/applications/oauth2/{app_id}")

    def update_oauth2_app(self, app_id: int, body: Any) -> requests.Response:
        """``PATCH /user/applications/oauth2/{id}`` (regenerates the secret)."""
        return self.http.patch(f"user/applications/oauth2/{app_id}", json=body)

    def delete_oauth2_app(self, app_id: int) -> requests.Response:
        """``DELETE /user/applications/oauth2/{id}``."""
        return self.http.delete(f"user/applications/oauth2/{app_id}")

"""Organizations: create, get, edit, rename, delete; members, public members and teams; a user's organizations."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["OrgsApi"]


class OrgsApi(ApiArea):
    """Gitea's organization and team operations."""

    def create(self, name: str, *, full_name: str | None = None, visibility: str | None = None) -> requests.Response:
        """``POST /orgs`` (the caller becomes its owner)."""
        body: dict[str, Any] = {"username": name}
        if full_name is not None:
            body["full_name"] = full_name
        if visibility is not None:
            body["visibility"] = visibility
        return self.http.post("orgs", json=body)

    def create_raw(self, body: Any) -> requests.Response:
        """``POST /orgs`` with a body exactly as given (for validation scenarios)."""
        return self.http.post("orgs", json=body)

    def get(self, name: str) -> requests.Response:
        """``GET /orgs/{org}``."""
        return self.http.get(f"orgs/{quote_path(name)}")

    def edit(self, name: str, body: dict[str, Any]) -> requests.Response:
        """``PATCH /orgs/{org}`` with an ``EditOrgOption``."""
        return self.http.patch(f"orgs/{quote_path(name)}", json=body)

    def rename(self, name: str, new_name: str) -> requests.Response:
        """``POST /orgs/{org}/rename`` with ``RenameOrgOption``."""
        return self.http.post(f"orgs/{quote_path(name)}/rename", json={"new_name": new_name})

    def delete(self, name: str) -> requests.Response:
        """``DELETE /orgs/{org}``."""
        return self.http.delete(f"orgs/{quote_path(name)}")

    # -- members

    def list_members(self, org: str) -> requests.Response:
        """``GET /orgs/{org}/members``."""
        return self.http.get(f"orgs/{quote_path(org)}/members")

    def is_member(self, org: str, username: str) -> requests.Response:
        """``GET /orgs/{org}/members/{username}`` (204, 404, or 303 to the public membership check)."""
        return self.http.get(f"orgs/{quote_path(org)}/members/{quote_path(username)}")

    def remove_member(self, org: str, username: str) -> requests.Response:
        """``DELETE /orgs/{org}/members/{username}``."""
        return self.http.delete(f"orgs/{quote_path(org)}/members/{quote_path(username)}")

    def publicize_member(self, org: str, username: str) -> requests.Response:
        """``PUT /orgs/{org}/public_members/{username}``."""
        return self.http.put(f"orgs/{quote_path(org)}/public_members/{quote_path(username)}")

    def list_public_members(self, org: str) -> requests.Response:
        """``GET /orgs/{org}/public_members``."""
        return self.http.get(f"orgs/{quote_path(org)}/public_members")

    def is_public_member(self, org: str, username: str) -> requests.Response:
        """``GET /orgs/{org}/public_members/{username}`` (204 when public, else 404)."""
        return self.http.get(f"orgs/{quote_path(org)}/public_members/{quote_path(username)}")

    def conceal_member(self, org: str, username: str) -> requests.Response:
        """``DELETE /orgs/{org}/public_members/{username}`` (one's own membership only)."""
        return self.http.delete(f"orgs/{quote_path(org)}/public_members/{quote_path(username)}")

    # -- repositories

    def list_repos(self, org: str, **paging: int) -> requests.Response:
        """``GET /orgs/{org}/repos`` (the repositories the caller may see, paged)."""
        return self.http.get(f"orgs/{quote_path(org)}/repos", params=paging)

    def create_repo_deprecated(self, org: str, body: Any) -> requests.Response:
        """``POST /org/{org}/repos``: Gitea's older path of ``POST /orgs/{org}/repos``."""
        return self.http.post(f"org/{quote_path(org)}/repos", json=body)

    def delete_repos(self, org: str) -> requests.Response:
        """``DELETE /orgs/{org}/repos``: every repository of the organization (202, or 204 when it has none)."""
        return self.http.delete(f"orgs/{quote_path(org)}/repos")

    # -- teams

    def list_teams(self, org: str) -> requests.Response:
        """``GET /orgs/{org}/teams``."""
        return self.http.get(f"orgs/{quote_path(org)}/teams")

    def create_team(self, org: str, body: dict[str, Any]) -> requests.Response:
        """``POST /orgs/{org}/teams`` with a ``CreateTeamOption``."""
        return self.http.post(f"orgs/{quote_path(org)}/teams", json=body)

    def search_teams(self, org: str, **query: str | int) -> requests.Response:
        """``GET /orgs/{org}/teams/search`` (``q``, ``include_desc``, ``page``, ``limit``): ``{"data", "ok"}``."""
        return self.http.get(f"orgs/{quote_path(org)}/teams/search", params=query)

    def get_team(self, team_id: int) -> requests.Response:
        """``GET /teams/{id}``."""
        return self.http.get(f"teams/{team_id}")

    def edit_team(self, team_id: int, body: dict[str, Any]) -> requests.Response:
        """``PATCH /teams/{id}`` with an ``EditTeamOption``."""
        return self.http.patch(f"teams/{team_id}", json=body)

    def delete_team(self, team_id: int) -> requests.Response:
        """``DELETE /teams/{id}``."""
        return self.http.delete(f"teams/{team_id}")

    def list_team_members(self, team_id: int) -> requests.Response:
        """``GET /teams/{id}/members``."""
        return self.http.get(f"teams/{team_id}/members")

    def get_team_member(self, team_id: int, username: str) -> requests.Response:
        """``GET /teams/{id}/members/{username}``: the ``User`` when in the team, else 404."""
        return self.http.get(f"teams/{team_id}/members/{quote_path(username)}")

    def add_team_member(self, team_id: int, username: str) -> requests.Response:
        """``PUT /teams/{id}/members/{username}``."""
        return self.http.put(f"teams/{team_id}/members/{quote_path(username)}")

    def remove_team_member(self, team_id: int, username: str) -> requests.Response:
        """``DELETE /teams/{id}/members/{username}``."""
        return self.http.delete(f"teams/{team_id}/members/{quote_path(username)}")

    def list_team_repos(self, team_id: int) -> requests.Response:
        """``GET /teams/{id}/repos``."""
        return self.http.get(f"teams/{team_id}/repos")

    def get_team_repo(self, team_id: int, org: str, repo: str) -> requests.Response:
        """``GET /teams/{id}/repos/{org}/{repo}``: the ``Repository`` when the team covers it, else 404."""
        return self.http.get(f"teams/{team_id}/repos/{quote_path(org)}/{quote_path(repo)}")

    def add_team_repo(self, team_id: int, org: str, repo: str) -> requests.Response:
        """``PUT /teams/{id}/repos/{org}/{repo}``."""
        return self.http.put(f"teams/{team_id}/repos/{quote_path(org)}/{quote_path(repo)}")

    def remove_team_repo(self, team_id: int, org: str, repo: str) -> requests.Response:
        """``DELETE /teams/{id}/repos/{org}/{repo}``."""
        return self.http.delete(f"teams/{team_id}/repos/{quote_path(org)}/{quote_path(repo)}")

    # -- the caller's and a user's organizations and teams

    def my_orgs(self) -> requests.Response:
        """``GET /user/orgs``."""
        return self.http.get("user/orgs")

    def all_orgs(self, page: int, limit: int = 50) -> requests.Response:
        """``GET /orgs``: one page of every organization the caller may see."""
        return self.http.get("orgs", params={"page": page, "limit": limit})

    def user_permissions(self, username: str, org: str) -> requests.Response:
        """``GET /users/{username}/orgs/{org}/permissions``."""
        return self.http.get(f"users/{quote_path(username)}/orgs/{quote_path(org)}/permissions")

    def user_orgs(self, username: str) -> requests.Response:
        """``GET /users/{username}/orgs``."""
        return self.http.get(f"users/{quote_path(username)}/orgs")

    def my_teams(self) -> requests.Response:
        """``GET /user/teams``."""
        return self.http.get("user/teams")

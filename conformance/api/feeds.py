"""Activity feeds over REST (Gitea 1.27): of users, repositories, organizations and teams."""

from __future__ import annotations

import requests

from .base import ApiArea, quote_path

__all__ = ["FeedsApi"]


class FeedsApi(ApiArea):
    """List the activity feeds; ``query`` takes ``date`` (YYYY-MM-DD), ``page``, ``limit`` and, for a user,
    ``only-performed-by``."""

    def user_feed(self, username: str, **query: str | int) -> requests.Response:
        """``GET /users/{username}/activities/feeds``."""
        return self.http.get(f"users/{quote_path(username)}/activities/feeds", params=query)

    def repo_feed(self, owner: str, repo: str, **query: str | int) -> requests.Response:
        """``GET /repos/{owner}/{repo}/activities/feeds``."""
        return self.http.get(f"repos/{quote_path(owner)}/{quote_path(repo)}/activities/feeds", params=query)

    def org_feed(self, org: str, **query: str | int) -> requests.Response:
        """``GET /orgs/{org}/activities/feeds``."""
        return self.http.get(f"orgs/{quote_path(org)}/activities/feeds", params=query)

    def team_feed(self, team_id: int, **query: str | int) -> requests.Response:
        """``GET /teams/{id}/activities/feeds``."""
        return self.http.get(f"teams/{team_id}/activities/feeds", params=query)

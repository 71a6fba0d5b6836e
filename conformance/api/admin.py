"""Instance administration: the cron tasks (``/admin/cron``) and unadopted repositories (``/admin/unadopted``)."""

from __future__ import annotations

import requests

from .base import ApiArea, quote_path

__all__ = ["AdminApi"]


class AdminApi(ApiArea):
    """Gitea's administration operations of the instance."""

    def cron_tasks(self) -> requests.Response:
        """``GET /admin/cron``: every task, its schedule and runs (one page of 50)."""
        return self.http.get("admin/cron", params={"limit": 50})

    def run_cron_task(self, task: str) -> requests.Response:
        """``POST /admin/cron/{task}``: run the task now."""
        return self.http.post(f"admin/cron/{quote_path(task)}")

    def adopt(self, owner: str, repo: str) -> requests.Response:
        """``POST /admin/unadopted/{owner}/{repo}``: claim unadopted Git data as a repository."""
        return self.http.post(f"admin/unadopted/{quote_path(owner)}/{quote_path(repo)}")

    def delete_unadopted(self, owner: str, repo: str) -> requests.Response:
        """``DELETE /admin/unadopted/{owner}/{repo}``: remove unadopted Git data."""
        return self.http.delete(f"admin/unadopted/{quote_path(owner)}/{quote_path(repo)}")

    def organizations(self, *, page: int = 1, limit: int = 50) -> requests.Response:
        """``GET /admin/orgs``: every organization, private ones too (site admin)."""
        return self.http.get("admin/orgs", params={"page": page, "limit": limit})

    def search_users(self, **filters: str) -> requests.Response:
        """``GET /admin/users`` with Gitea's filters (``q``, ``login_name``, ``is_active``, ``is_admin``, ...)."""
        return self.http.get("admin/users", params=filters)

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

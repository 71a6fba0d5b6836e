"""Instance administration: the cron tasks (``/admin/cron``)."""

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

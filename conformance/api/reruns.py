"""Reruns and attempts of workflow runs, and the runs of one workflow, over REST (Gitea 1.27)."""

from __future__ import annotations

import requests

from .base import ApiArea, quote_path

__all__ = ["RerunsApi"]


class RerunsApi(ApiArea):
    """``/repos/{owner}/{repo}/actions/runs/{run}/rerun...``, ``.../attempts/{attempt}[/jobs]`` and
    ``.../actions/workflows/{workflow_id}/runs``."""

    def _run(self, owner: str, repo: str, run_id: int) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}/actions/runs/{run_id}"

    def rerun(self, owner: str, repo: str, run_id: int) -> requests.Response:
        """``POST .../rerun``: 201 ``ActionWorkflowRun``."""
        return self.http.post(f"{self._run(owner, repo, run_id)}/rerun")

    def rerun_failed(self, owner: str, repo: str, run_id: int) -> requests.Response:
        """``POST .../rerun-failed-jobs``: 201, no body."""
        return self.http.post(f"{self._run(owner, repo, run_id)}/rerun-failed-jobs")

    def rerun_job(self, owner: str, repo: str, run_id: int, job_id: int) -> requests.Response:
        """``POST .../jobs/{job_id}/rerun``: 201 ``ActionWorkflowJob``."""
        return self.http.post(f"{self._run(owner, repo, run_id)}/jobs/{job_id}/rerun")

    def attempt(self, owner: str, repo: str, run_id: int, attempt: int) -> requests.Response:
        """``GET .../attempts/{attempt}``: ``ActionWorkflowRun``."""
        return self.http.get(f"{self._run(owner, repo, run_id)}/attempts/{attempt}")

    def attempt_jobs(self, owner: str, repo: str, run_id: int, attempt: int) -> requests.Response:
        """``GET .../attempts/{attempt}/jobs``: ``ActionWorkflowJobsResponse``."""
        return self.http.get(f"{self._run(owner, repo, run_id)}/attempts/{attempt}/jobs")

    def workflow_runs(self, owner: str, repo: str, workflow_id: str) -> requests.Response:
        """``GET .../actions/workflows/{workflow_id}/runs``: ``ActionWorkflowRunsResponse``."""
        path = f"repos/{quote_path(owner)}/{quote_path(repo)}/actions/workflows/{quote_path(workflow_id)}/runs"
        return self.http.get(path)

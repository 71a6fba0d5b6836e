"""Actions over REST: runs, jobs, tasks, workflows, dispatch, runners and their registration tokens.

Paths follow Gitea 1.27 under ``/api/v1``; ``{run}`` is always the unique run id, never the
per-repository run number.
"""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["ActionsApi"]


class ActionsApi(ApiArea):
    """``/repos/{owner}/{repo}/actions/...`` and the user and admin scopes of runs and jobs."""

    def _repo(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}/actions"

    def list_runs(self, owner: str, repo: str, **filters: str | int) -> requests.Response:
        """``GET .../actions/runs`` (an ``ActionWorkflowRunsResponse``); filters as query parameters."""
        return self.http.get(f"{self._repo(owner, repo)}/runs", params=filters)

    def get_run(self, owner: str, repo: str, run_id: int) -> requests.Response:
        """``GET .../actions/runs/{run}`` by the run's unique id."""
        return self.http.get(f"{self._repo(owner, repo)}/runs/{run_id}")

    def delete_run(self, owner: str, repo: str, run_id: int) -> requests.Response:
        """``DELETE .../actions/runs/{run}``: only a finished run; its jobs, tasks and artifacts go too."""
        return self.http.delete(f"{self._repo(owner, repo)}/runs/{run_id}")

    def list_run_jobs(self, owner: str, repo: str, run_id: int) -> requests.Response:
        """``GET .../actions/runs/{run}/jobs`` (an ``ActionWorkflowJobsResponse``)."""
        return self.http.get(f"{self._repo(owner, repo)}/runs/{run_id}/jobs")

    def list_jobs(self, owner: str, repo: str, **filters: str | int) -> requests.Response:
        """``GET .../actions/jobs``: every job of the repository."""
        return self.http.get(f"{self._repo(owner, repo)}/jobs", params=filters)

    def get_job(self, owner: str, repo: str, job_id: int) -> requests.Response:
        """``GET .../actions/jobs/{job_id}``."""
        return self.http.get(f"{self._repo(owner, repo)}/jobs/{job_id}")

    def job_logs(self, owner: str, repo: str, job_id: int) -> requests.Response:
        """``GET .../actions/jobs/{job_id}/logs``: the job's log as plain text."""
        return self.http.get(f"{self._repo(owner, repo)}/jobs/{job_id}/logs")

    def list_tasks(self, owner: str, repo: str, **paging: int) -> requests.Response:
        """``GET .../actions/tasks`` (an ``ActionTaskResponse``, the run shape of specification 2.2)."""
        return self.http.get(f"{self._repo(owner, repo)}/tasks", params=paging)

    def list_workflows(self, owner: str, repo: str) -> requests.Response:
        """``GET .../actions/workflows`` (an ``ActionWorkflowResponse`` object)."""
        return self.http.get(f"{self._repo(owner, repo)}/workflows")

    def get_workflow(self, owner: str, repo: str, workflow_id: str) -> requests.Response:
        """``GET .../actions/workflows/{workflow_id}``; the id is the workflow's file name."""
        return self.http.get(f"{self._repo(owner, repo)}/workflows/{quote_path(workflow_id)}")

    def dispatch(
        self,
        owner: str,
        repo: str,
        workflow_id: str,
        ref: str | None,
        *,
        inputs: dict[str, str] | None = None,
        return_run_details: bool = False,
    ) -> requests.Response:
        """``POST .../workflows/{workflow_id}/dispatches``; ``ref`` None sends a body without one."""
        body: dict[str, Any] = {}
        if ref is not None:
            body["ref"] = ref
        if inputs:
            body["inputs"] = inputs
        params = {"return_run_details": "true"} if return_run_details else {}
        path = f"{self._repo(owner, repo)}/workflows/{quote_path(workflow_id)}/dispatches"
        return self.http.post(path, json=body, params=params)

    def registration_token(self, owner: str, repo: str, *, method: str = "POST") -> requests.Response:
        """``POST`` (current) or ``GET`` (legacy) ``.../actions/runners/registration-token``."""
        return self.http.request(method, f"{self._repo(owner, repo)}/runners/registration-token")

    def replace_registration_token(self, owner: str, repo: str) -> requests.Response:
        """``DELETE .../actions/runners/registration-token``: the reference server's way to invalidate it."""
        return self.http.delete(f"{self._repo(owner, repo)}/runners/registration-token")

    def list_runners(self, owner: str, repo: str) -> requests.Response:
        """``GET .../actions/runners`` (an ``ActionRunnersResponse``)."""
        return self.http.get(f"{self._repo(owner, repo)}/runners")

    def get_runner(self, owner: str, repo: str, runner_id: int) -> requests.Response:
        """``GET .../actions/runners/{runner_id}``."""
        return self.http.get(f"{self._repo(owner, repo)}/runners/{runner_id}")

    def user_runs(self) -> requests.Response:
        """``GET /user/actions/runs``: runs of the repositories the caller owns."""
        return self.http.get("user/actions/runs")

    def user_jobs(self) -> requests.Response:
        """``GET /user/actions/jobs``: jobs of the repositories the caller owns."""
        return self.http.get("user/actions/jobs")

    def admin_runs(self) -> requests.Response:
        """``GET /admin/actions/runs``: every run of the instance (site administrators)."""
        return self.http.get("admin/actions/runs")

    def admin_jobs(self) -> requests.Response:
        """``GET /admin/actions/jobs``: every job of the instance (site administrators)."""
        return self.http.get("admin/actions/jobs")

"""Gitea's ``WorkflowRunPayload`` and ``WorkflowJobPayload``, built from the REST shapes of the actions family, and
the envelope (``repository``, ``organization``, ``sender``) every payload carries.

Payloads are built when the status changes (inside the publisher's transaction), so they show the state
the event announces even when the run moves on before the delivery goes out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions.convert import job_to_api, run_to_api
from ..actions.models import Job, Run
from ..actions.queries import default_branch_workflow
from ..actions.status import Status, api_status
from ..context import forge
from ..errors import ApiError
from ..gitcli import ZERO_SHA
from ..orgs.presenters import org_to_api
from ..repos.presenters import repo_to_api
from ..timefmt import iso
from ..users.models import get_user
from ..users.presenters import user_to_api

if TYPE_CHECKING:
    from ..repos.models import Repo

__all__ = ["envelope", "job_action", "job_payload", "push_test_payload", "run_action", "run_payload"]


def run_action(status: Status) -> str:
    """``requested`` while waiting or blocked, ``in_progress`` while running, ``completed`` once done."""
    if status.is_done:
        return "completed"
    if status == Status.RUNNING:
        return "in_progress"
    return "requested"


def job_action(status: Status) -> str:
    """The job's REST ``status`` string: ``queued``, ``waiting``, ``in_progress`` or ``completed``."""
    return api_status(status)[0]


def _workflow(run: Run, repo: Repo) -> dict[str, Any]:
    """The run's ``ActionWorkflow`` from the default branch; when the file is not there (Gitea then drops
    the event, its issue 37169) the reference still delivers, with what the run knows of its workflow."""
    try:
        return default_branch_workflow(repo, run.workflow_id)
    except ApiError:
        return {"id": run.workflow_id, "name": run.name, "path": run.workflow_path, "state": "active"}


def envelope(repo: Repo, sender_id: int) -> dict[str, Any]:
    """``repository``, ``sender`` and, for an organization's repository, ``organization``."""
    envelope: dict[str, Any] = {"repository": repo_to_api(repo)}
    if repo.owner_is_org:
        envelope["organization"] = org_to_api(get_user(repo.owner_id))
    try:
        envelope["sender"] = user_to_api(get_user(sender_id))
    except ApiError:
        envelope["sender"] = None
    return envelope


def run_payload(run: Run, repo: Repo) -> dict[str, Any]:
    """``WorkflowRunPayload`` for the run's current status."""
    return {
        "action": run_action(run.status),
        "workflow": _workflow(run, repo),
        "workflow_run": run_to_api(run, repo),
        **envelope(repo, run.trigger_user_id),
    }


def job_payload(job: Job, run: Run, repo: Repo) -> dict[str, Any]:
    """``WorkflowJobPayload``: ``workflow_job.url`` has no ``runs/<run>`` part (specification 6.2)."""
    return {
        "action": job_action(job.status),
        "workflow_job": job_to_api(job, run, repo),
        **envelope(repo, run.trigger_user_id),
    }


def _commit(repo: Repo, sha: str) -> dict[str, Any]:
    """A ``PayloadCommit`` of a commit of the repository."""
    info = repo.git.commit_info(sha)
    return {
        "id": sha,
        "message": info.message,
        "url": forge().url(f"{repo.full_name}/commit/{sha}"),
        "author": {"name": info.author_name, "email": info.author_email, "username": ""},
        "committer": {"name": info.committer_name, "email": info.committer_email, "username": ""},
        "timestamp": iso(info.author_time),
        "added": [],
        "removed": [],
        "modified": [],
    }


def push_test_payload(repo: Repo, branch: str, sender_id: int) -> dict[str, Any]:
    """The ``push`` payload of a hook test: the branch's head commit as if just pushed (none when empty)."""
    head = repo.git.rev_parse(f"refs/heads/{branch}")
    commits = [_commit(repo, head)] if head else []
    around = envelope(repo, sender_id)
    return {
        "ref": f"refs/heads/{branch}",
        "before": head or ZERO_SHA,
        "after": head or ZERO_SHA,
        "compare_url": "",
        "commits": commits,
        "total_commits": len(commits),
        "head_commit": commits[0] if commits else None,
        **around,
        "pusher": around["sender"],
    }

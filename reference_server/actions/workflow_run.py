"""``on: workflow_run``: a run that completes starts the workflows of its repository that wait for it.

The workflows are read from the default branch (as GitHub and Gitea do for this event) and run at
its head commit. ``workflows`` names the triggering workflow by its ``name:`` (GitHub's rule) or,
as a reference convenience, by its file name; ``types`` must include ``completed`` (absent means
every type); ``branches``/``branches-ignore`` filter on the triggering run's branch. A chain of
workflow_run runs stops after three levels, as on GitHub, so two workflows waiting for each other
cannot loop.
"""

from __future__ import annotations

import logging
from typing import Any

from ..context import forge
from ..errors import ApiError
from ..events import RunStatusEvent
from ..gitcli import Git
from ..repos.models import Repo, get_repo_by_id
from ..repos.presenters import repo_to_api
from ..users.models import get_user
from ..users.presenters import user_to_api
from . import store
from .convert import run_to_api
from .models import Run, get_run
from .status import Status
from .triggers import create_run, workflow_files
from .workflow import Workflow, pattern_matches

__all__ = ["MAX_CHAIN", "on_run_status", "triggered_by"]

log = logging.getLogger(__name__)
MAX_CHAIN = 3
EVENT = "workflow_run"


def _names(raw: Any) -> list[str]:
    if isinstance(raw, str):
        return [raw]
    if isinstance(raw, list):
        return [str(item) for item in raw if item is not None]
    return []


def triggered_by(workflow: Workflow, completed: Run) -> bool:
    """Whether ``workflow`` waits for the completion of ``completed`` (its name, type and branch filters)."""
    spec = workflow.triggers.get(EVENT)
    if spec is None:
        return False
    wanted = _names(spec.get("workflows"))
    if completed.name not in wanted and completed.workflow_id not in wanted:
        return False
    types = _names(spec.get("types"))
    if types and "completed" not in types:
        return False
    branch = completed.head_branch
    if "branches" in spec and not any(pattern_matches(p, branch) for p in _names(spec["branches"])):
        return False
    return not ("branches-ignore" in spec and any(pattern_matches(p, branch) for p in _names(spec["branches-ignore"])))


def _chain_depth(run: Run) -> int:
    """How many workflow_run runs lead up to ``run`` (0 for a run started by anything else)."""
    depth = 0
    current: Run | None = run
    while current is not None and current.event == EVENT and depth <= MAX_CHAIN:
        depth += 1
        parent = current.event_payload.get("workflow_run") if isinstance(current.event_payload, dict) else None
        parent_id = parent.get("id") if isinstance(parent, dict) else None
        current = get_run(parent_id) if isinstance(parent_id, int) else None
    return depth


def on_run_status(event: RunStatusEvent) -> None:
    """A run reached a final status: start every enabled workflow of the default branch waiting for it."""
    if not Status(event.status).is_done:
        return
    completed = get_run(event.run_id)
    if completed is None or _chain_depth(completed) >= MAX_CHAIN:
        return
    try:
        repo = get_repo_by_id(completed.repo_id)
    except ApiError:
        return
    git = Git(repo.git_path)
    full_ref = f"refs/heads/{repo.default_branch}"
    sha = git.rev_parse(full_ref)
    if sha is None:
        return
    disabled = store.disabled_workflows(repo.id)
    waiting = [
        item.workflow
        for item in workflow_files(git, sha)
        if item.workflow is not None and item.file_name not in disabled and triggered_by(item.workflow, completed)
    ]
    for workflow in waiting:
        _start(repo, workflow, completed, full_ref, sha)


def _start(repo: Repo, workflow: Workflow, completed: Run, full_ref: str, sha: str) -> None:
    """One run of ``workflow``; a savepoint keeps a failed insert from leaving half a run behind."""
    conn = forge().db.conn
    sender = user_to_api(get_user(completed.trigger_user_id)) if completed.trigger_user_id > 0 else None
    payload: dict[str, Any] = {
        "action": "completed",
        "workflow_run": run_to_api(completed, repo),
        "repository": repo_to_api(repo),
    }
    if sender is not None:
        payload["sender"] = sender
    conn.execute("SAVEPOINT workflow_run_trigger")
    try:
        create_run(
            repo,
            workflow,
            event=EVENT,
            ref=full_ref,
            sha=sha,
            trigger_user_id=completed.trigger_user_id,
            display_title=completed.display_title or workflow.name,
            event_payload=payload,
        )
    except BaseException:
        conn.execute("ROLLBACK TO workflow_run_trigger")
        conn.execute("RELEASE workflow_run_trigger")
        raise
    conn.execute("RELEASE workflow_run_trigger")

"""Reading workflows from Git and creating runs: on push (a ``PushEvent``) and on workflow dispatch."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from .. import gitcache
from ..context import forge, now_seconds
from ..errors import ApiError, Unprocessable
from ..events import PushEvent, RepoCreatedEvent, RepoDeletedEvent
from ..gitcli import SHA_PATTERN, ZERO_SHA, Git, GitError
from ..repos.models import Repo, get_repo_by_id
from ..repos.presenters import repo_to_api
from ..users.models import get_user
from ..users.presenters import user_to_api
from . import runner_store, store
from .errors import RefNotFound, WorkflowDisabled, WorkflowNotDispatchable, WorkflowNotFound
from .models import (
    Run,
    bump_tasks_version,
    get_run,
    publish_job_status,
    publish_run_status,
    refresh_run,
    task_queue_signal,
)
from .status import Status
from .workflow import WORKFLOW_DIRS, Workflow, WorkflowError, parse_workflow

__all__ = [
    "WorkflowFile",
    "create_run",
    "dispatch_workflow",
    "on_push",
    "on_repo_created",
    "on_repo_deleted",
    "workflow_files",
]

log = logging.getLogger(__name__)
WORKFLOW_SUFFIXES = (".yml", ".yaml")
WORKFLOWS_OF_COMMIT = "workflows"
"""The ``gitcache`` kind under which a commit's workflows are remembered (they follow from its tree alone)."""


@dataclass(frozen=True)
class WorkflowFile:
    """A workflow file found in a commit, parsed when possible (``error`` says why not)."""

    file_name: str
    path: str
    workflow: Workflow | None
    error: str


def workflow_files(git: Git, rev: str) -> list[WorkflowFile]:
    """The workflows of a commit; a ``.gitea/workflows`` file shadows a ``.github/workflows`` one of the same name.

    Remembered per commit when ``rev`` is a full SHA: every write of a file would otherwise list the
    workflow folders and read their files again (two ``git`` processes) for the same answer."""
    sha = rev if SHA_PATTERN.match(rev) else None
    known = gitcache.recall_derived(git.path, WORKFLOWS_OF_COMMIT, sha) if sha else None
    if known is not None:
        return list(cast("tuple[WorkflowFile, ...]", known))
    found: dict[str, WorkflowFile] = {}
    listed = git.list_folders(rev, WORKFLOW_DIRS)
    for folder in WORKFLOW_DIRS:
        for entry in listed[folder]:
            if entry.type != "blob" or not entry.name.endswith(WORKFLOW_SUFFIXES) or entry.name in found:
                continue
            content = git.read_blob(rev, entry.path) or b""
            try:
                parsed: Workflow | None = parse_workflow(entry.name, entry.path, content)
                error = ""
            except WorkflowError as exc:
                parsed, error = None, str(exc)
            found[entry.name] = WorkflowFile(entry.name, entry.path, parsed, error)
    files = sorted(found.values(), key=lambda item: item.file_name)
    if sha:
        gitcache.remember_derived(git.path, WORKFLOWS_OF_COMMIT, sha, tuple(files))
    return files


def _touches_workflows(paths: tuple[str, ...]) -> bool:
    """Whether a change of these paths may change a workflow folder (a path in it, or one of its parents)."""
    return any(
        path == folder or path.startswith(folder + "/") or folder.startswith(path + "/")
        for path in paths
        for folder in WORKFLOW_DIRS
    )


def _carry_workflows(git: Git, event: PushEvent) -> None:
    """A commit made on top of the ref's old head that changes nothing in the workflow folders has that
    head's workflows: remember them for the new commit without reading Git."""
    if event.changed_paths is None or _touches_workflows(event.changed_paths):
        return
    commit = gitcache.recall(git.path, event.after)
    if commit is None or commit.parents != (event.before,):
        return
    known = gitcache.recall_derived(git.path, WORKFLOWS_OF_COMMIT, event.before)
    if known is not None:
        gitcache.remember_derived(git.path, WORKFLOWS_OF_COMMIT, event.after, known)


def on_repo_created(event: RepoCreatedEvent) -> None:
    """A first commit the server wrote itself, with no path in a workflow folder, has no workflows."""
    if not event.commit or event.paths is None or _touches_workflows(event.paths):
        return
    try:
        repo = get_repo_by_id(event.repo_id)
    except ApiError:
        return
    gitcache.remember_derived(repo.git_path, WORKFLOWS_OF_COMMIT, event.commit, ())


def create_run(
    repo: Repo,
    workflow: Workflow,
    *,
    event: str,
    ref: str,
    sha: str,
    trigger_user_id: int,
    display_title: str,
    event_payload: Mapping[str, Any],
    inputs: Mapping[str, str] | None = None,
) -> Run:
    """Store a run and its jobs (jobs with needs start blocked, the others waiting) in one transaction."""
    now = now_seconds()
    db = forge().db
    with db.transaction():
        run_id = store.insert_run(
            {
                "repo_id": repo.id,
                "owner_id": repo.owner_id,
                "run_number": store.next_run_number(repo.id),
                "workflow_id": workflow.file_name,
                "workflow_path": workflow.path,
                "name": workflow.name,
                "display_title": display_title[:255] or workflow.name,
                "event": event,
                "ref": ref,
                "head_sha": sha,
                "trigger_user_id": trigger_user_id,
                "event_payload": dict(event_payload),
                "inputs": None if inputs is None else dict(inputs),
                "status": int(Status.WAITING),
                "created": now,
                "updated": now,
            }
        )
        publish_run_status(run_id, repo.id, Status.WAITING)
        any_waiting = False
        for spec in workflow.jobs:
            status = Status.BLOCKED if spec.needs else Status.WAITING
            any_waiting = any_waiting or status == Status.WAITING
            job_id = store.insert_job(
                {
                    "run_id": run_id,
                    "repo_id": repo.id,
                    "owner_id": repo.owner_id,
                    "job_key": spec.key,
                    "name": spec.name,
                    "labels": spec.runs_on,
                    "needs": spec.needs,
                    "condition": spec.condition,
                    "steps": spec.steps,
                    "workflow_payload": spec.payload,
                    "status": int(status),
                    "created": now,
                    "updated": now,
                }
            )
            publish_job_status(job_id, run_id, repo.id, status)
        if any_waiting:
            bump_tasks_version(repo.owner_id, repo.id, now)
        refresh_run(run_id, now)
    task_queue_signal().notify()
    run = get_run(run_id)
    if run is None:  # pragma: no cover - the row was written in the transaction above
        raise ApiError("the run vanished right after it was created")
    return run


def _changed_files(git: Git, before: str, after: str) -> list[str] | None:
    """Paths changed by a push, or None when unknown (a new branch, or the old commit is gone)."""
    if not before or before == ZERO_SHA:
        return None
    try:
        out = git.run("diff-tree", "-r", "--name-only", "-z", "--no-commit-id", before, after).stdout
    except GitError:
        return None
    return [name.decode("utf-8", "surrogateescape") for name in out.split(b"\x00") if name]


def _first_line(message: str) -> str:
    return message.strip().splitlines()[0].strip() if message.strip() else ""


def on_push(event: PushEvent) -> None:
    """A ref moved: every enabled workflow of the new commit whose ``on: push`` filters match gets a run."""
    if not event.after or event.after == ZERO_SHA or not event.ref.startswith(("refs/heads/", "refs/tags/")):
        return
    if event.pusher_id <= 0:
        return  # pushed by a workflow's job token (the Actions user): no new runs, as in Gitea and GitHub
    try:
        repo = get_repo_by_id(event.repo_id)
        pusher = get_user(event.pusher_id)
    except ApiError:
        return
    git = Git(repo.git_path)
    _carry_workflows(git, event)
    # An annotated tag names a tag object: runs record its commit. A branch always names a commit.
    sha = event.after if event.ref.startswith("refs/heads/") else git.rev_parse(event.after)
    if sha is None:
        return
    files = [item for item in workflow_files(git, sha) if item.workflow is not None]
    if not files:
        return
    disabled = store.disabled_workflows(repo.id)
    changed: list[list[str] | None] = []

    def changed_files() -> list[str] | None:
        if not changed:
            changed.append(_changed_files(git, event.before, sha))
        return changed[0]

    matching = [
        item.workflow
        for item in files
        if item.workflow is not None
        and item.file_name not in disabled
        and item.workflow.matches_push(event.ref, changed_files)
    ]
    if not matching:
        return
    commit = git.commit_info(sha)
    payload = {
        "ref": event.ref,
        "before": event.before,
        "after": event.after,
        "head_commit": {"id": commit.sha, "message": commit.message},
        "repository": repo_to_api(repo),
        "pusher": user_to_api(pusher),
        "sender": user_to_api(pusher),
    }
    for workflow in matching:
        create_run(
            repo,
            workflow,
            event="push",
            ref=event.ref,
            sha=sha,
            trigger_user_id=pusher.id,
            display_title=_first_line(commit.message),
            event_payload=payload,
        )


def on_repo_deleted(event: RepoDeletedEvent) -> None:
    """Drop the runs, jobs, tasks, runners and counters of a deleted repository."""
    now = now_seconds()
    with forge().db.transaction():
        store.delete_repo_state(event.repo_id)
        runner_store.delete_runners_of_repo(event.repo_id, now)


def _go_quote(text: str) -> str:
    """``text`` double-quoted with escapes, as Go's ``%q`` puts names into Gitea's messages."""
    return json.dumps(text, ensure_ascii=False)


def resolve_ref(git: Git, ref: str) -> tuple[str, str]:
    """``(full ref, commit)`` for ``main``, ``refs/heads/main`` or a tag; :class:`RefNotFound` otherwise."""
    candidates = [ref] if ref.startswith("refs/") else [f"refs/heads/{ref}", f"refs/tags/{ref}"]
    for candidate in candidates:
        if candidate.startswith(("refs/heads/", "refs/tags/")):
            sha = git.rev_parse(candidate)
            if sha is not None:
                return candidate, sha
    raise RefNotFound(f"ref {_go_quote(ref)} doesn't exist")


def find_workflow(git: Git, rev: str, workflow_id: str) -> WorkflowFile:
    for item in workflow_files(git, rev):
        if item.file_name == workflow_id:
            return item
    raise WorkflowNotFound(f"workflow {_go_quote(workflow_id)} doesn't exist")


def dispatch_workflow(repo: Repo, workflow_id: str, ref: str, given: Mapping[str, str], user_id: int) -> Run:
    """Start a ``workflow_dispatch`` run of the workflow as it is at ``ref``."""
    # Gitea's order: a disabled workflow is refused before the ref is looked up, the ref before the file.
    if workflow_id in store.disabled_workflows(repo.id):
        raise WorkflowDisabled("workflow is disabled")
    git = Git(repo.git_path)
    full_ref, sha = resolve_ref(git, ref)
    item = find_workflow(git, sha, workflow_id)
    workflow = item.workflow
    if workflow is None:
        raise Unprocessable(f"workflow {workflow_id!r} is invalid: {item.error}")
    if not workflow.dispatchable:
        raise WorkflowNotDispatchable(f"workflow {_go_quote(workflow_id)} has no workflow_dispatch event trigger")
    inputs: dict[str, str] = {}
    for name, declared in workflow.dispatch_inputs.items():
        value = given.get(name, declared.default)
        if value is None:
            if declared.required:
                raise Unprocessable(f"input {name!r} is required")
            value = ""
        inputs[name] = value
    user = get_user(user_id)
    payload = {
        "inputs": inputs,
        "ref": full_ref,
        "repository": repo_to_api(repo),
        "sender": user_to_api(user),
        "workflow": workflow.path,
    }
    return create_run(
        repo,
        workflow,
        event="workflow_dispatch",
        ref=full_ref,
        sha=sha,
        trigger_user_id=user.id,
        display_title=workflow.name,
        event_payload=payload,
        inputs=inputs,
    )

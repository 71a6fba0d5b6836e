"""A repository's Git tags over REST: Gitea's rules for creating and deleting them (protection rules answer
422, a tag holding a release cannot be deleted, 409), and the tag lookups the releases share."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..auth import Principal
from ..branches.models import RefUpdate, move_refs
from ..context import forge
from ..errors import Unprocessable
from ..gitcli import ZERO_SHA, Identity, valid_branch_name
from ..protections import tags as tag_protections
from ..protections.guard import pusher_for
from ..protections.rules import tag_refusal
from ..repos import models as repos
from ..repos.commit_gate import require_unarchived
from ..users import models as users
from . import gittags, store
from .errors import NotAnnotatedTag, ProtectedTagRefused, TagAttachedToRelease, TagExists, TagNotFound, TargetNotFound
from .gittags import AnnotatedTag, TagInfo

__all__ = ["annotated_tag", "create_tag", "delete_tag", "ensure_tag", "get_tag", "list_tags"]

MAX_TAG_NAME = 255


def list_tags(repo: repos.Repo, limit: int, offset: int) -> tuple[list[TagInfo], int]:
    """One page of tags in Gitea's order (newest tagged first), and the total."""
    found = gittags.list_tags(repo.git)
    return found[offset : offset + limit], len(found)


def get_tag(repo: repos.Repo, name: str) -> TagInfo:
    """The tag ``name``; 404 ``tag doesn't exist: <name>`` otherwise."""
    found = gittags.tag_named(repo.git, name)
    if found is None:
        raise TagNotFound(f"tag doesn't exist: {name}")
    return found


def annotated_tag(repo: repos.Repo, sha: str) -> AnnotatedTag:
    """The annotated tag object ``sha``; 400 for anything else (a commit, a lightweight tag's SHA, nothing)."""
    found = gittags.annotated_tag(repo.git, sha)
    if found is None:
        raise NotAnnotatedTag(f"object does not exist [id: {sha}, rel_path: ]")
    return found


def _refuse_protected(repo: repos.Repo, principal: Principal, name: str, verb: str) -> None:
    if tag_refusal(tag_protections.tag_rules(repo.id), pusher_for(principal, repo), name) is not None:
        raise ProtectedTagRefused(f"user not allowed to {verb} protected tag")


def _target_commit(repo: repos.Repo, target: str) -> str:
    found = repo.git.resolve_ref(target)
    if found is None:
        raise TargetNotFound(f'target "{target}" not found: object does not exist [id: {target}, rel_path: ]')
    return found[1]


def _tagger(principal: Principal) -> Identity:
    user = users.get_user(principal.user_id)
    return Identity(user.full_name or user.name, user.email, int(forge().now()))


def _write_tag(repo: repos.Repo, principal: Principal, name: str, commit: str, message: str) -> None:
    """Create ``refs/tags/<name>`` (annotated when ``message`` is given) through the ref choke point."""
    target = commit
    if message:
        target = gittags.write_tag_object(
            repo.git, name=name, commit=commit, tagger=_tagger(principal), message=message
        )
    move_refs(repo, principal, [RefUpdate(f"refs/tags/{name}", ZERO_SHA, target)])


def ensure_tag(repo: repos.Repo, principal: Principal, name: str, target: str, message: str = "") -> None:
    """A published release's tag: kept when it exists, else created from ``target`` (422 when protected,
    404 when the target names nothing), as Gitea's release service does."""
    if gittags.tag_named(repo.git, name) is not None:
        return
    if not valid_branch_name(name):
        raise Unprocessable(f"[TagName]: GitRefName: {name}")
    _refuse_protected(repo, principal, name, "create")
    _write_tag(repo, principal, name, _target_commit(repo, target), message)


def create_tag(repo: repos.Repo, principal: Principal, options: Mapping[str, Any]) -> TagInfo:
    """``CreateTagOption``: annotated when ``message`` is given, lightweight otherwise; ``target`` defaults to
    the default branch (404 when it names nothing), 409 when the tag exists, 422 when protected."""
    require_unarchived(repo)
    name = options.get("tag_name")
    if not isinstance(name, str) or not name:
        raise Unprocessable("[TagName]: Required")
    if len(name) > MAX_TAG_NAME or not valid_branch_name(name):
        raise Unprocessable("[TagName]: GitRefName")
    target = options.get("target") or repo.default_branch
    message = options.get("message") or ""
    if not isinstance(target, str) or not isinstance(message, str):
        raise Unprocessable("[Target]: must be a string")
    commit = _target_commit(repo, target)
    if gittags.tag_named(repo.git, name) is not None:
        raise TagExists(f"tag already exists [name: {name}]")
    _refuse_protected(repo, principal, name, "create")
    _write_tag(repo, principal, name, commit, message)
    return get_tag(repo, name)


def delete_tag(repo: repos.Repo, principal: Principal, name: str) -> None:
    """Delete a tag: 409 while a release holds it, 404 when missing, 422 when protected."""
    require_unarchived(repo)
    if store.release_by_tag(repo.id, name) is not None:
        raise TagAttachedToRelease()
    found = gittags.tag_named(repo.git, name)
    if found is None:
        raise TagNotFound(f"tag doesn't exist: {name}")
    _refuse_protected(repo, principal, name, "delete")
    move_refs(repo, principal, [RefUpdate(f"refs/tags/{name}", found.id, ZERO_SHA)])

"""Generating a repository from a template, as Gitea's ``repo.Generate`` and ``GenerateRepository`` do.

The template must be marked as one (422); at least one item must be chosen (422); the new owner is the
caller, or (by name) an organization where the caller may create repositories, or any user for a site
admin (403 otherwise, 404 for an unknown name). ``git_content`` copies the template's default branch as
ONE new commit by the caller (history is not kept; files named in ``.gitea/template`` are expanded);
``topics``, ``labels``, ``avatar``, ``webhooks`` and ``protected_branch`` copy those; ``git_hooks`` has
nothing to copy here (the reference keeps no custom Git hooks). The new repository is never a template.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..auth import Principal
from ..avatars.models import copy_repo_avatar
from ..context import forge, now_seconds
from ..events import RepoCreatedEvent
from ..gitcli import Git, Identity
from ..labels.models import copy_labels
from ..orgs import store as orgs_store
from ..protections.models import copy_branch_rules
from ..repos.creation import create_repo_from_git
from ..repos.models import Repo
from ..topics.models import replace_topics, topic_names
from ..users import models as users
from ..webhooks.models import copy_hooks
from .casing import TRANSFORMERS
from .errors import NotATemplate, NoTemplateItem, OtherUsersRepository, OwnerNotFound
from .expansion import TEMPLATE_FILE, expand, matcher, sanitized_path

__all__ = ["GenerateOptions", "generate_repo", "parse_options"]

ITEMS = ("git_content", "topics", "git_hooks", "webhooks", "avatar", "labels", "protected_branch")
NOT_ALLOWED_IN_ORG = "Given user is not allowed to create repository in organization."


@dataclass(frozen=True)
class GenerateOptions:
    """A ``GenerateRepoOption`` after Gitea's checks."""

    owner: str
    name: str
    description: str
    private: bool
    default_branch: str
    items: frozenset[str]


def parse_options(template: Repo, body: Mapping[str, Any]) -> GenerateOptions:
    """422 for a repository that is no template, or when no item is chosen (in Gitea's order)."""
    if not template.is_template:
        raise NotATemplate()
    items = frozenset(item for item in ITEMS if body.get(item) is True)
    if not items:
        raise NoTemplateItem()
    return GenerateOptions(
        owner=str(body.get("owner") or ""),
        name=str(body.get("name") or ""),
        description=str(body.get("description") or ""),
        private=body.get("private") is True,
        default_branch=str(body.get("default_branch") or ""),
        items=items,
    )


def _owner(options: GenerateOptions, principal: Principal) -> users.User:
    """The caller (its exact name), else the named account if the caller may create repositories there."""
    doer = users.get_user(principal.user_id)
    if options.owner == doer.name:
        return doer
    owner = users.find_account(options.owner)
    if owner is None:
        raise OwnerNotFound(f"request owner `{options.owner}` does not exist")
    if not principal.is_admin and not owner.is_org:
        raise OtherUsersRepository()
    if not principal.is_admin and not orgs_store.can_create_repo(owner.id, principal.user_id):
        raise OtherUsersRepository(NOT_ALLOWED_IN_ORG)
    return owner


def _values(template: Repo, owner: users.User, options: GenerateOptions) -> dict[str, str]:
    """Gitea's variables: names and owners with their case variants (``REPO_NAME_SNAKE``, ...), descriptions,
    links and clone URLs as written, and the date of generation (UTC) with the month's English name."""
    new_path = f"{owner.name}/{options.name}"
    today = datetime.fromtimestamp(now_seconds(), tz=UTC)
    month = today.strftime("%B")  # the C locale's English month name, as Go's time.Month.String()
    with_variants = {
        "MONTH_ENGLISH": month,
        "REPO_NAME": options.name,
        "TEMPLATE_NAME": template.name,
        "REPO_OWNER": owner.name,
        "TEMPLATE_OWNER": template.owner_name,
    }
    values = {
        "YEAR": str(today.year),
        "MONTH": f"{today.month:02d}",
        "DAY": f"{today.day:02d}",
        "REPO_DESCRIPTION": options.description,
        "TEMPLATE_DESCRIPTION": template.description,
        "REPO_LINK": forge().url(new_path),
        "TEMPLATE_LINK": forge().url(template.full_name),
        "REPO_HTTPS_URL": forge().url(f"{new_path}.git"),
        "TEMPLATE_HTTPS_URL": forge().url(f"{template.full_name}.git"),
        "REPO_SSH_URL": "",
        "TEMPLATE_SSH_URL": "",
    }
    for name, value in with_variants.items():
        values[name] = value
        for suffix, transform in TRANSFORMERS:
            values[f"{name}_{suffix}"] = transform(value)
    return values


def _tree(git: Git, commit: str) -> list[tuple[str, str, str]]:
    """Every entry of the commit's tree: (mode, object, path)."""
    listed = git.run("ls-tree", "-r", "-z", "--full-tree", commit).stdout.decode("utf-8", "surrogateescape")
    entries = []
    for record in filter(None, listed.split("\0")):
        meta, path = record.split("\t", 1)
        mode, _kind, sha = meta.split()
        entries.append((mode, sha, path))
    return entries


def _copy_content(git: Git, template: Repo, branch: str, doer: users.User, values: Mapping[str, str]) -> None:
    """The template's default branch as one commit on ``branch``, ``.gitea/template`` files expanded."""
    source = template.default_branch
    git.fetch_objects(template.git_path, f"refs/heads/{source}")
    head = git.rev_parse("FETCH_HEAD") or template.git.rev_parse(f"refs/heads/{source}")
    if head is None:
        return
    tree = _tree(git, head)
    config = next((sha for mode, sha, path in tree if path == TEMPLATE_FILE), None)
    patterns = matcher(git.read_object(config) or b"") if config else []
    entries: dict[str, tuple[str, bytes | str] | None] = {}
    for mode, sha, path in tree:
        if path == TEMPLATE_FILE:
            continue
        if mode.startswith("100") and any(pattern.match(path) for pattern in patterns):
            content = (git.read_object(sha) or b"").decode("utf-8", "surrogateescape")
            target = sanitized_path(expand(path, values))
            if target:  # a path that expands to nothing names no file: Gitea drops it
                entries[target] = (mode, expand(content, values).encode("utf-8", "surrogateescape"))
        else:
            entries[path] = (mode, sha)
    now = now_seconds()
    who = Identity(doer.name, doer.email or f"{doer.name.lower()}@noreply.invalid", now)
    commit = git.write_commit(None, entries, "Initial commit\n", author=who, committer=who)
    git.update_ref(f"refs/heads/{branch}", commit, "0" * 40)


def generate_repo(template: Repo, body: Mapping[str, Any], principal: Principal) -> Repo:
    """Create the repository and copy what the options choose; 409 when the owner has the name already."""
    options = parse_options(template, body)
    owner = _owner(options, principal)
    doer = users.get_user(principal.user_id)
    branch = options.default_branch or template.default_branch
    with_content = "git_content" in options.items and bool(template.git.branches())
    values = _values(template, owner, options)

    def populate(git: Git) -> str:
        git.init_bare(branch)
        if with_content:
            _copy_content(git, template, branch, doer, values)
        return branch

    create = {"name": options.name, "description": options.description, "private": options.private}
    create["default_branch"] = branch
    repo = create_repo_from_git(owner, create, populate)
    with forge().db.transaction():
        if "topics" in options.items:
            replace_topics(repo.id, topic_names(template.id))
        if "labels" in options.items:
            copy_labels(template.id, repo.id)
        if "webhooks" in options.items:
            copy_hooks(template.id, repo.id)
        if "protected_branch" in options.items:
            copy_branch_rules(template.id, repo.id)
    if "avatar" in options.items:
        copy_repo_avatar(template.id, repo.id)
    forge().events.publish(RepoCreatedEvent(repo.id, "generated" if with_content else "empty", principal.user_id))
    return repo

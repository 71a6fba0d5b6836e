"""Push mirrors: a repository pushing to another repository of the target over its clone URL, with the
owner's token as the password; what the mirror answers (never the password) and what a sync pushed.
Branch heads are compared with the forks steps (``the branch ... points at the head of ...``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.admin import AdminApi
from conformance.api.branches import BranchesApi
from conformance.api.contents import ContentsApi
from conformance.api.mirrors import MirrorsApi
from conformance.api.repos import ReposApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from conformance.polling import Backoff
from steps.actors import ADMIN, acting
from steps.common import expect_status
from steps.parsing import phrase

__all__: list[str] = []

SYNC_SECONDS = 30.0


@dataclass
class MirrorNotes:
    """The remote name of each repository's push mirror made by a Given step."""

    names: dict[str, str] = field(default_factory=dict)


@pytest.fixture
def mirror_notes() -> MirrorNotes:
    return MirrorNotes()


def _clone_url(ctx: ScenarioContext, repo: str) -> str:
    ref = ctx.repo(repo)
    body = json_of(ctx.admin.area(ReposApi).get(ref.owner, ref.name))
    assert isinstance(body, dict) and body.get("clone_url"), f"no clone_url for {repo}"
    return str(body["clone_url"])


def _body(
    ctx: ScenarioContext,
    who: str,
    target: str,
    password: str | None = None,
    *,
    interval: str = "8h",
    on_commit: bool = True,
) -> dict[str, Any]:
    return {
        "remote_address": _clone_url(ctx, target),
        "remote_username": ctx.user(who).username,
        "remote_password": ctx.user(who).token if password is None else password,
        "interval": interval,
        "sync_on_commit": on_commit,
    }


def _wait(condition: Callable[[], bool], what: str) -> None:
    """Poll ``condition`` for up to ``SYNC_SECONDS``: Gitea queues mirror syncs."""
    deadline = time.monotonic() + SYNC_SECONDS
    backoff = Backoff(cap=0.2)
    while not condition():
        assert time.monotonic() < deadline, f"{what} did not happen within {SYNC_SECONDS:.0f} s"
        backoff.sleep()


def _name(ctx: ScenarioContext, notes: MirrorNotes, repo: str) -> str:
    name = notes.names.get(repo)
    assert name, f'no push mirror of "{repo}": add `Given "alice" added a push mirror of "{repo}" to ...`'
    return name


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" added a push mirror of "{repo}" to "{target}" with her token'))
def given_mirror(ctx: ScenarioContext, mirror_notes: MirrorNotes, who: str, repo: str, target: str) -> None:
    ref = ctx.repo(repo)
    response = acting(ctx, who, MirrorsApi).add(ref.owner, ref.name, _body(ctx, who, target))
    mirror_notes.names[repo] = str(expect_status(response, 200, "add a push mirror")["remote_name"])


@given(phrase('"{who}" added a push mirror of "{repo}" to "{target}" every "{interval}", not syncing on commit'))
def given_periodic_mirror(
    ctx: ScenarioContext, mirror_notes: MirrorNotes, *, who: str, repo: str, target: str, interval: str
) -> None:
    """A mirror only the interval (Gitea's update_mirrors task) or a manual sync pushes; the latest one made is
    "the push mirror of" the repository."""
    ref = ctx.repo(repo)
    body = _body(ctx, who, target, interval=interval, on_commit=False)
    response = acting(ctx, who, MirrorsApi).add(ref.owner, ref.name, body)
    mirror_notes.names[repo] = str(expect_status(response, 200, "add a push mirror")["remote_name"])


@given(phrase('the admin has run the cron task "update_mirrors" and the push mirror of "{repo}" has synced'))
def given_periodic_sync(ctx: ScenarioContext, mirror_notes: MirrorNotes, repo: str) -> None:
    """The task runs (204) and the mirror's ``last_update`` is set: its first sync is over."""
    expect_status(ctx.admin.area(AdminApi).run_cron_task("update_mirrors"), 204, "run update_mirrors")
    ref, name = ctx.repo(repo), _name(ctx, mirror_notes, repo)

    def synced() -> bool:
        response = acting(ctx, ADMIN, MirrorsApi).get(ref.owner, ref.name, name)
        return bool(expect_status(response, 200, "read the push mirror").get("last_update"))

    _wait(synced, f'the first sync of the push mirror of "{repo}"')


@given(phrase('"{who}" added a push mirror of "{repo}" to "{target}" with a wrong password'))
def given_bad_mirror(ctx: ScenarioContext, mirror_notes: MirrorNotes, who: str, repo: str, target: str) -> None:
    ref = ctx.repo(repo)
    body = _body(ctx, who, target, password="not-the-password")
    response = acting(ctx, who, MirrorsApi).add(ref.owner, ref.name, body)
    mirror_notes.names[repo] = str(expect_status(response, 200, "add a push mirror")["remote_name"])


# ---------------------------------------------------------------- When


@when(phrase('"{who}" adds a push mirror of "{repo}" to "{target}" with her token'))
def when_add(ctx: ScenarioContext, who: str, repo: str, target: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, MirrorsApi).add(ref.owner, ref.name, _body(ctx, who, target))


@when(phrase('"{who}" adds a push mirror of "{repo}" to "{address}" every "{interval}"'))
def when_add_address(ctx: ScenarioContext, who: str, repo: str, address: str, interval: str) -> None:
    ref = ctx.repo(repo)
    body = {"remote_address": address, "interval": interval}
    ctx.response = acting(ctx, who, MirrorsApi).add(ref.owner, ref.name, body)


@when(phrase('"{who}" commits the file "{path}" to "{repo}"'))
def when_commit(ctx: ScenarioContext, who: str, path: str, repo: str) -> None:
    """A commit on the default branch through the contents API (a push, for the mirrors)."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ContentsApi).create(ref.owner, ref.name, path, "pushed on commit")


@when(phrase('"{who}" lists the push mirrors of "{repo}"'))
def when_list(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, MirrorsApi).list(ref.owner, ref.name)


@when(phrase('"{who}" reads the push mirror of "{repo}"'))
def when_get(ctx: ScenarioContext, mirror_notes: MirrorNotes, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, MirrorsApi).get(ref.owner, ref.name, _name(ctx, mirror_notes, repo))


@when(phrase('"{who}" deletes the push mirror of "{repo}"'))
def when_delete(ctx: ScenarioContext, mirror_notes: MirrorNotes, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, MirrorsApi).delete(ref.owner, ref.name, _name(ctx, mirror_notes, repo))


@when(phrase('"{who}" syncs the push mirrors of "{repo}"'))
def when_sync(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, MirrorsApi).sync(ref.owner, ref.name)


# ---------------------------------------------------------------- Then


@then(phrase('the answer never shows the token of "{who}"'))
def then_no_token(ctx: ScenarioContext, who: str) -> None:
    """Neither the password given (the token) nor any user info in the address."""
    text = ctx.last_response().text
    assert ctx.user(who).token not in text, "the answer shows the mirror's password"
    assert "@" not in text.split('"remote_address"', 1)[-1].split(",", 1)[0], "the address keeps its user info"


@then(phrase('the push mirror pushes to the clone URL of "{target}"'))
def then_address(ctx: ScenarioContext, target: str) -> None:
    body = json_of(ctx.last_response())
    mirror = body[0] if isinstance(body, list) and body else body
    assert isinstance(mirror, dict), f"expected a PushMirror, got {str(body)[:200]}"
    wanted = _clone_url(ctx, target)
    assert mirror.get("remote_address") == wanted, f"remote_address is {mirror.get('remote_address')!r}, not {wanted}"


@then(phrase('the push mirror is of the repository "{repo}"'))
def then_repo_name(ctx: ScenarioContext, repo: str) -> None:
    """``repo_name`` is the repository's name (without its owner)."""
    body = json_of(ctx.last_response())
    assert body.get("repo_name") == ctx.repo(repo).name, f"repo_name is {body.get('repo_name')!r}"


def _head(ctx: ScenarioContext, repo: str, branch: str) -> str | None:
    ref = ctx.repo(repo)
    response = ctx.admin.area(BranchesApi).get(ref.owner, ref.name, branch)
    return str(json_of(response)["commit"]["id"]) if response.status_code == 200 else None


@then(phrase('the branch "{branch}" of "{target}" soon points at the head of the branch "{branch2}" of "{repo}"'))
def then_soon_same_head(ctx: ScenarioContext, branch: str, target: str, branch2: str, repo: str) -> None:
    """A sync on commit runs in the background (Gitea queues it): poll for up to 30 seconds."""
    wanted = _head(ctx, repo, branch2)
    _wait(lambda: _head(ctx, target, branch) == wanted, f'"{target}" getting {wanted}')


@then(phrase('the branch "{branch}" of "{target}" does not point at the head of the branch "{branch2}" of "{repo}"'))
def then_not_same_head(ctx: ScenarioContext, branch: str, target: str, branch2: str, repo: str) -> None:
    """The mirror was not pushed again (say it after a check that waited for the same task's other work)."""
    head = _head(ctx, target, branch)
    assert head is not None, f'"{target}" has no branch "{branch}"'
    assert head != _head(ctx, repo, branch2), f'"{target}" got the head of "{repo}" ({head})'


@then(phrase('the push mirror of "{repo}" is gone'))
def then_gone(ctx: ScenarioContext, mirror_notes: MirrorNotes, repo: str) -> None:
    ref = ctx.repo(repo)
    response = acting(ctx, ADMIN, MirrorsApi).get(ref.owner, ref.name, _name(ctx, mirror_notes, repo))
    assert response.status_code == 404, f"the deleted mirror answers {response.status_code}"


@then(phrase('"{repo}" has no push mirror'))
def then_none(ctx: ScenarioContext, repo: str) -> None:
    ref = ctx.repo(repo)
    body = expect_status(acting(ctx, ADMIN, MirrorsApi).list(ref.owner, ref.name), 200, "list push mirrors")
    assert body == [], f"the repository has push mirrors: {body}"


@then(phrase('the push mirror of "{repo}" records its last error'))
def then_last_error(ctx: ScenarioContext, mirror_notes: MirrorNotes, repo: str) -> None:
    ref = ctx.repo(repo)
    response = acting(ctx, ADMIN, MirrorsApi).get(ref.owner, ref.name, _name(ctx, mirror_notes, repo))
    mirror = expect_status(response, 200, "read the push mirror")
    assert mirror.get("last_error"), "the failed sync left no last_error"
    assert mirror.get("last_update"), "the failed sync left no last_update"
    assert "not-the-password" not in response.text, "the answer shows the mirror's password"


@then(phrase('the repository "{repo}" is still empty'))
def then_empty(ctx: ScenarioContext, repo: str) -> None:
    ref = ctx.repo(repo)
    body = expect_status(ctx.admin.area(ReposApi).get(ref.owner, ref.name), 200, "read the repository")
    assert body.get("empty") is True, f'"{repo}" is not empty'

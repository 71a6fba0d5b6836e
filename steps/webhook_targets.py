"""Where a forge may deliver webhooks: a canary listener on 127.0.0.1 stands for the forge machine's own
services, which no hook may reach (Gitea's ``ALLOWED_HOST_LIST = external``).

The canary shows a hole only when the forge runs on the harness's machine (the embedded server, a
local forge): a remote forge's 127.0.0.1 is its own. The harness's real receiver is on 127.0.0.2, which
the forge is told to allow, so an allowed delivery made after the refused one serves as a barrier: once
it arrived, the refused one had its chance.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest
from pytest_bdd import given, then, when

from conformance.api.hooks import HooksApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from conformance.receiver import WebhookReceiver
from steps.actors import acting, repo_owner
from steps.parsing import phrase

CANARY_HOST = "127.0.0.1"
SETTLE_SECONDS = 1.0
"""How long after the barrier delivery the canary is still watched (a forge may deliver out of order)."""
BARRIER_SECONDS = 30.0


@pytest.fixture(scope="session")
def loopback_canary() -> Iterator[WebhookReceiver]:
    """A listener on 127.0.0.1 that no webhook may reach."""
    with WebhookReceiver(CANARY_HOST, 0, None) as canary:
        yield canary


@dataclass
class CanaryNotes:
    """The canary path the last hook points at, and the host names the reference resolves to the canary."""

    path: str = ""
    hosts: dict[str, str] = field(default_factory=dict)


@pytest.fixture
def canary_notes() -> CanaryNotes:
    """The scenario's canary notes."""
    return CanaryNotes()


def _hook_to(url: str) -> dict[str, object]:
    return {"type": "gitea", "config": {"url": url, "content_type": "json"}, "events": ["push"], "active": True}


@when(phrase('"{who}" creates a webhook on "{repo}" to the loopback canary'))
def when_create_to_canary(
    ctx: ScenarioContext, canary_notes: CanaryNotes, loopback_canary: WebhookReceiver, who: str, repo: str
) -> None:
    """``POST .../hooks`` pointed at the canary on 127.0.0.1."""
    path = loopback_canary.new_path(ctx.real_name("canary"))
    canary_notes.path = path
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, HooksApi).create_hook(ref.owner, ref.name, _hook_to(loopback_canary.url(path)))


def _assert_never_reaches(
    ctx: ScenarioContext, canary: WebhookReceiver, receiver: WebhookReceiver, *, path: str, repo: str, hook_id: int
) -> None:
    """Test the hook, then a barrier hook to the harness's receiver; the canary must have seen nothing."""
    ref = ctx.repo(repo)
    hooks = repo_owner(ctx, repo).area(HooksApi)
    assert hooks.test_hook(ref.owner, ref.name, hook_id).status_code == 204
    barrier_path = receiver.new_path(ctx.real_name("barrier"))
    barrier = hooks.create_hook(ref.owner, ref.name, _hook_to(receiver.url(barrier_path)))
    assert barrier.status_code == 201, f"the barrier hook to the harness's receiver: {barrier.text[:300]}"
    assert hooks.test_hook(ref.owner, ref.name, int(json_of(barrier)["id"])).status_code == 204
    receiver.wait_for(barrier_path, lambda _request: True, "the barrier delivery", BARRIER_SECONDS)
    time.sleep(SETTLE_SECONDS)
    reached = canary.requests(path)
    assert not reached, f"the forge delivered a webhook to {CANARY_HOST}: {len(reached)} request(s)"


@given(phrase('the reference resolves the name "{name}" to the loopback canary\'s address'))
def given_static_host(ctx: ScenarioContext, canary_notes: CanaryNotes, name: str) -> None:
    """The reference's test hook: outgoing requests resolve the name to 127.0.0.1 (a DNS answer changed
    after the hook was stored, or a name that points inside)."""
    host = f"{ctx.real_name(name)}.test"
    response = ctx.admin.http.put(f"-/reference/hosts/{host}", json={"addresses": [CANARY_HOST]})
    assert response.status_code == 204, f"the reference's host hook answered {response.status_code}: {response.text}"
    canary_notes.hosts[name] = host


@when(phrase('"{who}" creates a webhook on "{repo}" to the loopback canary through the name "{name}"'))
def when_create_through_name(
    ctx: ScenarioContext, canary_notes: CanaryNotes, loopback_canary: WebhookReceiver, *, who: str, repo: str, name: str
) -> None:
    """``POST .../hooks`` with the canary's port behind a host name."""
    path = loopback_canary.new_path(ctx.real_name("canary"))
    canary_notes.path = path
    port = urlsplit(loopback_canary.url(path)).port
    ref = ctx.repo(repo)
    assert name in canary_notes.hosts, f'add `Given the reference resolves the name "{name}" ...`'
    url = f"http://{canary_notes.hosts[name]}:{port}{path}"
    ctx.response = acting(ctx, who, HooksApi).create_hook(ref.owner, ref.name, _hook_to(url))


@then(phrase('the webhook on "{repo}" is refused, or its test delivery never reaches the canary'))
def then_canary_untouched(
    ctx: ScenarioContext,
    canary_notes: CanaryNotes,
    loopback_canary: WebhookReceiver,
    webhook_receiver: WebhookReceiver,
    repo: str,
) -> None:
    """Refused at creation (422, the reference), or accepted and never delivered (Gitea checks at delivery)."""
    created = ctx.last_response()
    if created.status_code != 201:
        assert created.status_code == 422, f"expected 422 or 201, got {created.status_code}: {created.text[:300]}"
        return
    _assert_never_reaches(
        ctx, loopback_canary, webhook_receiver, path=canary_notes.path, repo=repo, hook_id=int(json_of(created)["id"])
    )


@then(phrase('the webhook on "{repo}" is accepted, and its test delivery never reaches the canary'))
def then_accepted_never_delivered(
    ctx: ScenarioContext,
    canary_notes: CanaryNotes,
    loopback_canary: WebhookReceiver,
    webhook_receiver: WebhookReceiver,
    repo: str,
) -> None:
    """A name is judged when the server connects: stored, then refused on every delivery."""
    created = ctx.last_response()
    assert created.status_code == 201, f"the hook to a plain name was refused: {created.text[:300]}"
    _assert_never_reaches(
        ctx, loopback_canary, webhook_receiver, path=canary_notes.path, repo=repo, hook_id=int(json_of(created)["id"])
    )

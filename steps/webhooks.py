"""Webhooks: repository hooks over REST and the deliveries the harness's receiver gets from the forge.

Hooks point at a path of their own on the harness's receiver (``conformance.receiver``), so a
scenario only sees its own deliveries. Against a live forge, give the address where the forge can
reach this process with ``--webhook-url`` (or ``CONFORMANCE_WEBHOOK_URL``) and the local address to
bind with ``--webhook-host`` (or ``CONFORMANCE_WEBHOOK_HOST``); the default is loopback, which the
embedded reference server reaches. In ``body`` docstrings ``{receiver}`` stands for a fresh receiver URL.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.hooks import HooksApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from conformance.receiver import ReceivedRequest, WebhookReceiver, receiver_address
from conformance.schemas import validate
from steps.actors import acting, repo_owner
from steps.ci import find_run
from steps.common import expand, field_value, json_document, json_option
from steps.parsing import phrase

__all__ = ["RECEIVER_PLACEHOLDER", "HookNotes", "HookRef", "webhook_receiver"]

DELIVERY_WAIT_SECONDS = 30.0
RECEIVER_PLACEHOLDER = "{receiver}"


def pytest_addoption(parser: pytest.Parser) -> None:
    """Where the harness's webhook receiver listens and the address the forge is given."""
    group = parser.getgroup("conformance")
    group.addoption(
        "--webhook-host",
        dest="conformance_webhook_host",
        metavar="HOST",
        default=os.environ.get("CONFORMANCE_WEBHOOK_HOST"),
        help="address the webhook receiver binds (env CONFORMANCE_WEBHOOK_HOST; default 127.0.0.2)",
    )
    group.addoption(
        "--webhook-url",
        dest="conformance_webhook_url",
        metavar="URL",
        default=os.environ.get("CONFORMANCE_WEBHOOK_URL"),
        help="base URL at which the forge reaches the receiver, e.g. http://10.0.0.5:8765 "
        "(env CONFORMANCE_WEBHOOK_URL; default the bound address)",
    )


@pytest.fixture(scope="session")
def webhook_receiver(request: pytest.FixtureRequest) -> Iterator[WebhookReceiver]:
    """The run's receiver, started when a scenario first needs it."""
    host, port, public_url = receiver_address(
        request.config.getoption("conformance_webhook_host"), request.config.getoption("conformance_webhook_url")
    )
    with WebhookReceiver(host, port, public_url) as receiver:
        yield receiver


@dataclass(frozen=True)
class HookRef:
    """A hook a scenario made: its id, its repository (or the organization's real name, or ``own`` for the
    caller's ``/user/hooks``), its receiver path and secret."""

    id: int
    repo: str
    path: str
    secret: str
    org: str | None = None
    own: bool = False


@dataclass
class HookNotes:
    """The last hook the scenario made and every secret given to one (no answer may show them)."""

    last: HookRef | None = None
    secrets: list[str] = field(default_factory=list)

    def hook(self) -> HookRef:
        """The last hook the scenario made."""
        assert self.last is not None, 'no webhook yet: add `Given "..." has a webhook on ...`'
        return self.last

    def created(
        self, ctx: ScenarioContext, repo: str, path: str, secret: str, *, org: str | None = None, own: bool = False
    ) -> None:
        """Keep the hook the last response created (if it did)."""
        response = ctx.last_response()
        if response.status_code == 201:
            self.last = HookRef(int(json_of(response)["id"]), repo, path, secret, org, own)
            self.secrets.append(secret)


@pytest.fixture
def hook_notes() -> HookNotes:
    """The scenario's webhooks."""
    return HookNotes()


def _create(
    ctx: ScenarioContext,
    hook_notes: HookNotes,
    receiver: WebhookReceiver,
    *,
    who: str,
    repo: str,
    events: str,
    secret: str,
    active: bool,
) -> None:
    ref = ctx.repo(repo)
    path = receiver.new_path(ctx.real_name("hook"))
    option = {
        "type": "gitea",
        "config": {"url": receiver.url(path), "content_type": "json", "secret": secret},
        "events": [event.strip() for event in events.split(",") if event.strip()],
        "active": active,
    }
    ctx.response = acting(ctx, who, HooksApi).create_hook(ref.owner, ref.name, option)
    assert ctx.response.status_code == 201, f"the webhook was not created: {ctx.response.text[:300]}"
    hook_notes.created(ctx, repo, path, secret)


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" has a webhook on "{repo}" for the events "{events}" with the secret "{secret}"'))
def given_hook(
    ctx: ScenarioContext,
    hook_notes: HookNotes,
    webhook_receiver: WebhookReceiver,
    *,
    who: str,
    repo: str,
    events: str,
    secret: str,
) -> None:
    """An active Gitea-type hook with a JSON body, pointed at a fresh receiver path."""
    _create(ctx, hook_notes, webhook_receiver, who=who, repo=repo, events=events, secret=secret, active=True)


@pytest.fixture
def system_hooks(ctx: ScenarioContext) -> Iterator[list[int]]:
    """The system webhooks a scenario made, deleted when it ends (they would hear every later scenario)."""
    made: list[int] = []
    yield made
    for hook_id in made:
        ctx.admin.area(HooksApi).delete_system_hook(hook_id)


@given(phrase('the admin has a system webhook for the events "{events}" with the secret "{secret}"'))
def given_system_hook(
    ctx: ScenarioContext,
    hook_notes: HookNotes,
    webhook_receiver: WebhookReceiver,
    system_hooks: list[int],
    *,
    events: str,
    secret: str,
) -> None:
    """An active instance-wide hook (``/admin/hooks``) pointed at a fresh receiver path."""
    path = webhook_receiver.new_path(ctx.real_name("system-hook"))
    option = {
        "type": "gitea",
        "config": {"url": webhook_receiver.url(path), "content_type": "json", "secret": secret},
        "events": [event.strip() for event in events.split(",") if event.strip()],
        "active": True,
    }
    ctx.response = ctx.admin.area(HooksApi).create_system_hook(option)
    assert ctx.response.status_code == 201, f"the system webhook was not created: {ctx.response.text[:300]}"
    system_hooks.append(int(json_of(ctx.response)["id"]))
    hook_notes.created(ctx, "", path, secret)


# ---------------------------------------------------------------- When


@when(phrase('"{who}" creates a webhook on "{repo}" with the body'))
def when_create(
    ctx: ScenarioContext,
    hook_notes: HookNotes,
    webhook_receiver: WebhookReceiver,
    *,
    who: str,
    repo: str,
    docstring: str,
) -> None:
    """``POST .../hooks``; ``{receiver}`` in the body is a fresh receiver URL."""
    path = webhook_receiver.new_path(ctx.real_name("hook"))
    text = expand(ctx, docstring.replace(RECEIVER_PLACEHOLDER, "\0")).replace("\0", webhook_receiver.url(path))
    option = json_document(text)
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, HooksApi).create_hook(ref.owner, ref.name, option)
    config = option.get("config") if isinstance(option, dict) else None
    secret = str(config.get("secret", "")) if isinstance(config, dict) else ""
    hook_notes.created(ctx, repo, path, secret)


@when(phrase('"{who}" lists the webhooks of "{repo}"'))
def when_list(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, HooksApi).list_hooks(ref.owner, ref.name)


@when(phrase('"{who}" gets the webhook'))
def when_get(ctx: ScenarioContext, hook_notes: HookNotes, who: str) -> None:
    """The scenario's last hook through its own path: its repository's, its organization's or ``/user/hooks``."""
    hook = hook_notes.hook()
    api = acting(ctx, who, HooksApi)
    if hook.org is not None or hook.own:
        ctx.response = api.get_account_hook(hook.id, hook.org)
        return
    ref = ctx.repo(hook.repo)
    ctx.response = api.get_hook(ref.owner, ref.name, hook.id)


@when(phrase('"{who}" gets the webhook through the repository "{repo}"'))
def when_get_elsewhere(ctx: ScenarioContext, hook_notes: HookNotes, who: str, repo: str) -> None:
    """The hook's id under another repository's path."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, HooksApi).get_hook(ref.owner, ref.name, hook_notes.hook().id)


@when(phrase('"{who}" edits the webhook with the body'))
def when_edit(ctx: ScenarioContext, hook_notes: HookNotes, who: str, docstring: str) -> None:
    hook = hook_notes.hook()
    option = json_option(ctx, docstring)
    api = acting(ctx, who, HooksApi)
    if hook.org is not None or hook.own:
        ctx.response = api.edit_account_hook(hook.id, option, hook.org)
        return
    ref = ctx.repo(hook.repo)
    ctx.response = api.edit_hook(ref.owner, ref.name, hook.id, option)


@when(phrase('"{who}" deletes the webhook'))
def when_delete(ctx: ScenarioContext, hook_notes: HookNotes, who: str) -> None:
    hook = hook_notes.hook()
    api = acting(ctx, who, HooksApi)
    if hook.org is not None or hook.own:
        ctx.response = api.delete_account_hook(hook.id, hook.org)
        return
    ref = ctx.repo(hook.repo)
    ctx.response = api.delete_hook(ref.owner, ref.name, hook.id)


@when(phrase('"{who}" tests the webhook'))
def when_test(ctx: ScenarioContext, hook_notes: HookNotes, who: str) -> None:
    hook = hook_notes.hook()
    ref = ctx.repo(hook.repo)
    ctx.response = acting(ctx, who, HooksApi).test_hook(ref.owner, ref.name, hook.id)


# ---------------------------------------------------------------- Then: hooks


@then(phrase("the response holds no hook secret"))
def then_no_secret(ctx: ScenarioContext, hook_notes: HookNotes) -> None:
    """Neither a ``secret`` key nor any secret value given to a hook of the scenario."""
    response = ctx.last_response()
    documents = json_of(response)
    for document in documents if isinstance(documents, list) else [documents]:
        assert "secret" not in document, "the hook has a secret field"
        assert "secret" not in document.get("config", {}), "the hook's config has a secret"
    for secret in hook_notes.secrets:
        assert secret not in response.text, "a hook's secret is in the response"


@then(phrase("the response is the webhook pointed at the receiver"))
def then_is_the_hook(ctx: ScenarioContext, hook_notes: HookNotes, webhook_receiver: WebhookReceiver) -> None:
    hook = hook_notes.hook()
    body = json_of(ctx.last_response())
    assert body["id"] == hook.id, f"expected hook {hook.id}, got {body['id']}"
    assert body["config"]["url"] == webhook_receiver.url(hook.path), body["config"]


@then(phrase('the webhooks of "{repo}" are {count:d}'))
def then_hook_count(ctx: ScenarioContext, repo: str, count: int) -> None:
    """The owner's list of the repository's hooks has exactly ``count`` entries."""
    ref = ctx.repo(repo)
    response = repo_owner(ctx, repo).area(HooksApi).list_hooks(ref.owner, ref.name)
    assert response.status_code == 200, response.text[:300]
    assert len(json_of(response)) == count, f"expected {count} hooks, got {json_of(response)}"


# ---------------------------------------------------------------- Then: deliveries


def _deliveries(receiver: WebhookReceiver, hook: HookRef, event: str) -> list[ReceivedRequest]:
    return [request for request in receiver.requests(hook.path) if request.event == event]


def _wait_delivery(receiver: WebhookReceiver, hook: HookRef, event: str, action: str) -> ReceivedRequest:
    return receiver.wait_for(
        hook.path,
        lambda request: request.event == event and request.action == action,
        f'a "{event}" delivery with the action "{action}"',
        DELIVERY_WAIT_SECONDS,
    )


@then(phrase('the webhook receives "{event}" deliveries with the actions "{actions}" in this order'))
def then_actions(hook_notes: HookNotes, webhook_receiver: WebhookReceiver, event: str, actions: str) -> None:
    """Each action arrives (waiting for it), and the first delivery of each comes in the given order."""
    hook = hook_notes.hook()
    expected = [action.strip() for action in actions.split(",")]
    for action in expected:
        _wait_delivery(webhook_receiver, hook, event, action)
    first_seen = list(dict.fromkeys(r.action for r in _deliveries(webhook_receiver, hook, event) if r.action))
    order = [action for action in first_seen if action in expected]
    assert order == expected, f'"{event}" actions arrived in the order {first_seen}'


@then(phrase('the webhook receives "{event}" deliveries with the actions "{actions}" and no other'))
def then_only_actions(hook_notes: HookNotes, webhook_receiver: WebhookReceiver, event: str, actions: str) -> None:
    """Exactly these deliveries of ``event``, in this order: waiting for each shows the earlier ones arrived
    (a forge's queue sends one hook's deliveries in order), so an extra one would already be there."""
    hook = hook_notes.hook()
    expected = [action.strip() for action in actions.split(",")]
    for action in expected:
        _wait_delivery(webhook_receiver, hook, event, action)
    arrived = [request.action for request in _deliveries(webhook_receiver, hook, event)]
    assert arrived == expected, f'the "{event}" deliveries were {arrived}, expected {expected}'


@then(phrase('every "{event}" delivery is signed with the secret "{secret}"'))
def then_signed(hook_notes: HookNotes, webhook_receiver: WebhookReceiver, event: str, secret: str) -> None:
    """``X-Hub-Signature-256`` is ``sha256=`` and ``X-Gitea-Signature`` the hex HMAC-SHA256 of the payload."""
    deliveries = _deliveries(webhook_receiver, hook_notes.hook(), event)
    assert deliveries, f'no "{event}" delivery arrived'
    for request in deliveries:
        digest = hmac.new(secret.encode(), request.payload_text, hashlib.sha256).hexdigest()
        assert request.header("X-Hub-Signature-256") == f"sha256={digest}", (
            f"X-Hub-Signature-256 {request.header('X-Hub-Signature-256')!r} does not verify with the secret"
        )
        assert request.header("X-Gitea-Signature") == digest, "X-Gitea-Signature does not verify with the secret"


@then(phrase('every "{event}" delivery names its event and has its own delivery id'))
def then_headers(hook_notes: HookNotes, webhook_receiver: WebhookReceiver, event: str) -> None:
    """``X-Gitea-Event``/``X-GitHub-Event`` name the event; ``X-Gitea-Delivery`` is a UUID, one per delivery."""
    deliveries = _deliveries(webhook_receiver, hook_notes.hook(), event)
    assert deliveries, f'no "{event}" delivery arrived'
    ids = []
    for request in deliveries:
        assert request.header("X-GitHub-Event") == event, f"X-GitHub-Event is {request.header('X-GitHub-Event')!r}"
        delivery_id = request.header("X-Gitea-Delivery") or ""
        uuid.UUID(delivery_id)
        ids.append(delivery_id)
    assert len(set(ids)) == len(ids), f"delivery ids repeat: {ids}"


@then(phrase('every "{event}" delivery body matches the schema "{schema}"'))
def then_payload_schema(hook_notes: HookNotes, webhook_receiver: WebhookReceiver, event: str, schema: str) -> None:
    deliveries = _deliveries(webhook_receiver, hook_notes.hook(), event)
    assert deliveries, f'no "{event}" delivery arrived'
    for request in deliveries:
        validate(request.json(), schema)


def _payload(receiver: WebhookReceiver, hook: HookRef, event: str, action: str) -> Any:
    return _wait_delivery(receiver, hook, event, action).json()


@then(phrase('the "{action}" "{event}" delivery is about the run of "{file_name}"'))
def then_about_run(
    ctx: ScenarioContext,
    hook_notes: HookNotes,
    webhook_receiver: WebhookReceiver,
    *,
    action: str,
    event: str,
    file_name: str,
) -> None:
    """The payload's run id is the id the REST API gives the run of that workflow."""
    hook = hook_notes.hook()
    run_id = find_run(ctx, ctx.repo(hook.repo), file_name)["id"]
    payload = _payload(webhook_receiver, hook, event, action)
    subject = payload["workflow_run"]["id"] if event == "workflow_run" else payload["workflow_job"]["run_id"]
    assert subject == run_id, f"the delivery is about run {subject}, the run of {file_name} is {run_id}"


@then(phrase('the "{action}" "{event}" delivery field "{path}" is "{expected}"'))
def then_payload_field(
    ctx: ScenarioContext,
    hook_notes: HookNotes,
    webhook_receiver: WebhookReceiver,
    *,
    action: str,
    event: str,
    path: str,
    expected: str,
) -> None:
    payload = _payload(webhook_receiver, hook_notes.hook(), event, action)
    actual = field_value(payload, path)
    assert str(actual) == expand(ctx, expected), f'"{path}" is {actual!r}, expected {expected!r}'


@then(phrase("every workflow_job delivery has a job url without the runs part and a run url with it"))
def then_job_urls(ctx: ScenarioContext, hook_notes: HookNotes, webhook_receiver: WebhookReceiver) -> None:
    """Specification 6.2: ``url`` is ``.../actions/jobs/{job}``; ``run_url`` keeps ``.../actions/runs/{run}``."""
    hook = hook_notes.hook()
    deliveries = _deliveries(webhook_receiver, hook, "workflow_job")
    assert deliveries, "no workflow_job delivery arrived"
    ref = ctx.repo(hook.repo)
    for request in deliveries:
        job = request.json()["workflow_job"]
        url, run_url = str(job["url"]), str(job["run_url"])
        assert "/runs/" not in url, f"the job url {url!r} has a runs/<run> part"
        assert re.search(rf"/repos/{re.escape(ref.full_name)}/actions/jobs/{job['id']}$", url), url
        assert re.search(rf"/repos/{re.escape(ref.full_name)}/actions/runs/{job['run_id']}$", run_url), run_url


@then(phrase('the webhook receives no "{event}" delivery once the "{action}" "{other}" delivery has arrived'))
def then_none_of(
    hook_notes: HookNotes,
    webhook_receiver: WebhookReceiver,
    *,
    event: str,
    action: str,
    other: str,
) -> None:
    """A negative check anchored on a delivery that must come: after it, nothing of ``event`` came either."""
    hook = hook_notes.hook()
    _wait_delivery(webhook_receiver, hook, other, action)
    unexpected = _deliveries(webhook_receiver, hook, event)
    assert not unexpected, f'{len(unexpected)} "{event}" deliveries arrived'


@then(phrase('the webhook receives a "push" delivery of the head of the default branch'))
def then_test_push(ctx: ScenarioContext, hook_notes: HookNotes, webhook_receiver: WebhookReceiver) -> None:
    """The test delivery: event ``push``, ``ref`` the default branch, ``after`` and ``head_commit`` its head."""
    hook = hook_notes.hook()
    ref = ctx.repo(hook.repo)
    push = webhook_receiver.wait_for(
        hook.path, lambda request: request.event == "push", 'a "push" delivery', DELIVERY_WAIT_SECONDS
    ).json()
    assert push["ref"] == f"refs/heads/{ref.default_branch}", f"ref is {push['ref']!r}"
    assert re.fullmatch(r"[0-9a-f]{40}", str(push["after"])), f"after is {push['after']!r}"
    assert push["head_commit"]["id"] == push["after"], "head_commit is not the pushed head"

"""Webhooks of an organization (``/orgs/{org}/hooks``) and of a user (``/user/hooks``).

They share the repository hooks' notes (:class:`steps.webhooks.HookNotes`), so the steps that read, change,
delete and wait for deliveries of "the webhook" work on them too; ``{receiver}`` in a body is a fresh
receiver URL, as for repository hooks.
"""

from __future__ import annotations

from pytest_bdd import given, then, when

from conformance.api.hooks import HooksApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from conformance.receiver import WebhookReceiver
from steps.actors import acting, org_owner
from steps.common import expand, json_document
from steps.parsing import phrase
from steps.webhooks import RECEIVER_PLACEHOLDER, HookNotes

__all__: list[str] = []


def _option(receiver: WebhookReceiver, path: str, events: str, secret: str) -> dict[str, object]:
    return {
        "type": "gitea",
        "config": {"url": receiver.url(path), "content_type": "json", "secret": secret},
        "events": [event.strip() for event in events.split(",") if event.strip()],
        "active": True,
    }


def _body(ctx: ScenarioContext, receiver: WebhookReceiver, path: str, docstring: str) -> object:
    text = expand(ctx, docstring.replace(RECEIVER_PLACEHOLDER, "\0")).replace("\0", receiver.url(path))
    return json_document(text)


def _secret(option: object) -> str:
    config = option.get("config") if isinstance(option, dict) else None
    return str(config.get("secret", "")) if isinstance(config, dict) else ""


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" has a webhook on the organization "{org}" for the events "{events}" with the secret "{secret}"'))
def given_org_hook(
    ctx: ScenarioContext,
    hook_notes: HookNotes,
    webhook_receiver: WebhookReceiver,
    *,
    who: str,
    org: str,
    events: str,
    secret: str,
) -> None:
    """An active Gitea-type organization hook with a JSON body, pointed at a fresh receiver path."""
    path = webhook_receiver.new_path(ctx.real_name("org-hook"))
    ctx.response = acting(ctx, who, HooksApi).create_account_hook(
        _option(webhook_receiver, path, events, secret), ctx.orgs[org]
    )
    assert ctx.response.status_code == 201, f"the webhook was not created: {ctx.response.text[:300]}"
    hook_notes.created(ctx, "", path, secret, org=ctx.orgs[org])


@given(phrase('"{who}" has a webhook of their own for the events "{events}" with the secret "{secret}"'))
def given_user_hook(
    ctx: ScenarioContext,
    hook_notes: HookNotes,
    webhook_receiver: WebhookReceiver,
    *,
    who: str,
    events: str,
    secret: str,
) -> None:
    """An active Gitea-type hook of the user (``/user/hooks``), pointed at a fresh receiver path."""
    path = webhook_receiver.new_path(ctx.real_name("user-hook"))
    ctx.response = acting(ctx, who, HooksApi).create_account_hook(_option(webhook_receiver, path, events, secret))
    assert ctx.response.status_code == 201, f"the webhook was not created: {ctx.response.text[:300]}"
    hook_notes.created(ctx, "", path, secret, own=True)


# ---------------------------------------------------------------- When


@when(phrase('"{who}" creates a webhook on the organization "{org}" with the body'))
def when_create_org_hook(
    ctx: ScenarioContext,
    hook_notes: HookNotes,
    webhook_receiver: WebhookReceiver,
    *,
    who: str,
    org: str,
    docstring: str,
) -> None:
    """``POST /orgs/{org}/hooks``."""
    path = webhook_receiver.new_path(ctx.real_name("org-hook"))
    option = _body(ctx, webhook_receiver, path, docstring)
    ctx.response = acting(ctx, who, HooksApi).create_account_hook(option, ctx.orgs[org])
    hook_notes.created(ctx, "", path, _secret(option), org=ctx.orgs[org])


@when(phrase('"{who}" creates a webhook of their own with the body'))
def when_create_user_hook(
    ctx: ScenarioContext, hook_notes: HookNotes, webhook_receiver: WebhookReceiver, *, who: str, docstring: str
) -> None:
    """``POST /user/hooks``."""
    path = webhook_receiver.new_path(ctx.real_name("user-hook"))
    option = _body(ctx, webhook_receiver, path, docstring)
    ctx.response = acting(ctx, who, HooksApi).create_account_hook(option)
    hook_notes.created(ctx, "", path, _secret(option), own=True)


@when(phrase('"{who}" lists the webhooks of the organization "{org}"'))
def when_list_org_hooks(ctx: ScenarioContext, who: str, org: str) -> None:
    ctx.response = acting(ctx, who, HooksApi).list_account_hooks(ctx.orgs[org])


@when(phrase('"{who}" lists their own webhooks'))
def when_list_user_hooks(ctx: ScenarioContext, who: str) -> None:
    ctx.response = acting(ctx, who, HooksApi).list_account_hooks()


# ---------------------------------------------------------------- Then


@then(phrase('the webhooks of the organization "{org}" are {count:d}'))
def then_org_hook_count(ctx: ScenarioContext, org: str, count: int) -> None:
    """The organization owner's list of the organization's hooks has exactly ``count`` entries."""
    response = org_owner(ctx, org).api.area(HooksApi).list_account_hooks(ctx.orgs[org])
    assert response.status_code == 200, response.text[:300]
    assert len(json_of(response)) == count, f"expected {count} hooks, got {json_of(response)}"


@then(phrase('the own webhooks of "{who}" are {count:d}'))
def then_user_hook_count(ctx: ScenarioContext, who: str, count: int) -> None:
    """The user's own list (``/user/hooks``) has exactly ``count`` entries."""
    response = acting(ctx, who, HooksApi).list_account_hooks()
    assert response.status_code == 200, response.text[:300]
    assert len(json_of(response)) == count, f"expected {count} hooks, got {json_of(response)}"


@when(phrase('"{who}" gets the webhook through the organization "{org}"'))
def when_get_elsewhere(ctx: ScenarioContext, hook_notes: HookNotes, who: str, org: str) -> None:
    """The hook's id under another organization's path."""
    ctx.response = acting(ctx, who, HooksApi).get_account_hook(hook_notes.hook().id, ctx.orgs[org])

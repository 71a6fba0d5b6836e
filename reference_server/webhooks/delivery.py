"""Webhook delivery: signed requests sent by one background thread per app, after the request commits.

Deliveries made during a request wait in the request's context and are handed to the worker only
when the request ends without an error, so a rolled-back change is never announced and no receiver
is contacted while a transaction holds the database. A slow or dead receiver only delays other
deliveries (each attempt times out), never the API; every attempt is recorded in ``webhook_delivery``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import requests
from flask import Flask, Response, current_app, g, has_app_context, has_request_context

from ..context import forge, now_seconds
from ..outgoing import checked_session
from ..workers import IdleWorker
from . import store
from .models import Hook, subscribed_hooks

if TYPE_CHECKING:
    from ..repos.models import Repo

__all__ = [
    "DELIVERY_TIMEOUT_SECONDS",
    "Delivery",
    "DeliveryWorker",
    "announce",
    "delivery_for",
    "install_delivery",
    "request_headers",
    "schedule",
    "signature",
    "worker_of",
]

log = logging.getLogger(__name__)

DELIVERY_TIMEOUT_SECONDS = 5.0
IDLE_SECONDS = 30.0
EXTENSION = "webhook_delivery"
PENDING = "webhook_pending"
USER_AGENT = "GiteaServer"


@dataclass(frozen=True)
class Delivery:
    """One request to send: the hook's address and secret, the event, and the JSON payload as sent."""

    hook_id: int
    url: str
    content_type: str
    secret: str
    authorization: str
    event: str
    action: str
    payload: bytes


def delivery_for(hook: Hook, event: str, payload: dict[str, Any]) -> Delivery:
    """Freeze a payload for one hook (the JSON text is fixed now, so the signature covers what is sent)."""
    return Delivery(
        hook_id=hook.id,
        url=hook.url,
        content_type=hook.content_type,
        secret=hook.secret,
        authorization=hook.authorization_header,
        event=event,
        action=str(payload.get("action", "")),
        payload=json.dumps(payload, indent=2).encode(),
    )


def signature(secret: str, payload: bytes) -> str:
    """Hex HMAC-SHA256 of the JSON payload with the hook's secret (empty when the hook has none, as Gitea)."""
    if not secret:
        return ""
    return hmac.new(secret.encode(), payload, hashlib.sha256).hexdigest()


def request_headers(delivery: Delivery, delivery_id: str) -> dict[str, str]:
    """Gitea's delivery headers, with the GitHub- and Gogs-compatible names."""
    sig = signature(delivery.secret, delivery.payload)
    headers = {
        "Content-Type": "application/json" if delivery.content_type == "json" else "application/x-www-form-urlencoded",
        "User-Agent": USER_AGENT,
        "X-Gitea-Delivery": delivery_id,
        "X-Gitea-Event": delivery.event,
        "X-Gitea-Event-Type": delivery.event,
        "X-Gitea-Signature": sig,
        "X-Gogs-Delivery": delivery_id,
        "X-Gogs-Event": delivery.event,
        "X-Gogs-Event-Type": delivery.event,
        "X-Gogs-Signature": sig,
        "X-GitHub-Delivery": delivery_id,
        "X-GitHub-Event": delivery.event,
        "X-GitHub-Event-Type": delivery.event,
        "X-Hub-Signature-256": f"sha256={sig}" if sig else "",
    }
    if delivery.authorization:
        headers["Authorization"] = delivery.authorization
    return headers


def _body(delivery: Delivery) -> bytes:
    if delivery.content_type == "json":
        return delivery.payload
    return b"payload=" + quote(delivery.payload.decode(), safe="").encode()


class DeliveryWorker(IdleWorker[Delivery]):
    """Sends deliveries in order on one background thread (``workers.IdleWorker``)."""

    def __init__(self, app: Flask, *, timeout: float = DELIVERY_TIMEOUT_SECONDS, idle: float = IDLE_SECONDS) -> None:
        super().__init__(self._deliver, name="webhook-delivery", what="a webhook delivery", idle=idle)
        self._app = app
        self._timeout = timeout
        services = app.extensions["forge"]
        self._session = checked_session(services.webhook_hosts, services.resolver)

    def _deliver(self, delivery: Delivery) -> None:
        delivery_id = str(uuid.uuid4())
        status_code, error = 0, ""
        started = time.monotonic()
        try:
            response = self._session.post(
                delivery.url,
                data=_body(delivery),
                headers=request_headers(delivery, delivery_id),
                timeout=self._timeout,
                allow_redirects=False,
            )
            status_code = response.status_code
            response.close()
        except requests.RequestException as exc:
            error = f"{type(exc).__name__}: {exc}"[:500]
            log.warning("webhooks: delivery %s to hook %s failed: %s", delivery_id, delivery.hook_id, error)
        duration_ms = int((time.monotonic() - started) * 1000)
        with self._app.app_context():
            db = forge().db
            with db.transaction():
                if store.hook_exists(delivery.hook_id):
                    store.insert_delivery(
                        {
                            "hook_id": delivery.hook_id,
                            "uuid": delivery_id,
                            "event": delivery.event,
                            "action": delivery.action,
                            "status_code": status_code,
                            "error": error,
                            "delivered": now_seconds(),
                            "duration_ms": duration_ms,
                        }
                    )


def worker_of(app: Flask) -> DeliveryWorker:
    worker = app.extensions[EXTENSION]
    if not isinstance(worker, DeliveryWorker):  # pragma: no cover - set by install_delivery only
        raise TypeError("the webhook delivery worker is not installed")
    return worker


def announce(repo: Repo, event: str, payload: Callable[[], dict[str, Any]]) -> None:
    """Deliver ``event`` to every hook that hears the repository and takes it (its own, its owner's, the system's);
    the payload is built only when one does (families above this one render their models and hand it over)."""
    hooks = subscribed_hooks(repo.id, repo.owner_id, event)
    if hooks:
        built = payload()
        schedule([delivery_for(hook, event, built) for hook in hooks])


def schedule(deliveries: list[Delivery]) -> None:
    """Send after the current request succeeds; outside a request (a background job), at once."""
    if not deliveries:
        return
    if has_request_context():
        pending: list[Delivery] = g.setdefault(PENDING, [])
        pending.extend(deliveries)
        return
    if not has_app_context():  # pragma: no cover - publishers always run inside the app
        raise RuntimeError("webhook deliveries need the application")
    worker = worker_of(current_app)
    for delivery in deliveries:
        worker.submit(delivery)


def install_delivery(app: Flask) -> DeliveryWorker:
    """Create the app's worker and the request hooks that release or drop a request's deliveries."""
    worker = DeliveryWorker(app)
    app.extensions[EXTENSION] = worker

    @app.after_request
    def drop_on_error(response: Response) -> Response:
        if response.status_code >= 400:
            g.pop(PENDING, None)  # the request failed: whatever it announced may not have happened
        return response

    @app.teardown_request
    def release(error: BaseException | None) -> None:
        pending: list[Delivery] = g.pop(PENDING, [])
        if error is None:
            for delivery in pending:
                worker.submit(delivery)

    return worker

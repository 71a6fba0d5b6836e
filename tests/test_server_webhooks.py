"""Repository webhooks: management over REST, status events of the actions family, signed deliveries."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask, Response
from forge_proto import runner_pb2
from test_server_actions_support import SIMPLE_WORKFLOW, World, world

from conformance.receiver import ReceivedRequest, WebhookReceiver, receiver_address
from reference_server.access import PUBLIC
from reference_server.actions.status import Status
from reference_server.context import forge
from reference_server.endpoints import Endpoint, register_endpoints
from reference_server.errors import Unprocessable
from reference_server.events import JobStatusEvent, RunStatusEvent
from reference_server.webhooks import store
from reference_server.webhooks.delivery import Delivery, schedule, worker_of

__all__ = ["world"]

WORKFLOW = ".gitea/workflows/ci.yml"


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver() as running:
        yield running


def _hook(world: World, receiver: WebhookReceiver, path: str, **overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": "gitea",
        "config": {"url": receiver.url(path), "content_type": "json", "secret": "s3cret"},
        "events": ["workflow_run", "workflow_job"],
        "active": True,
    }
    body.update(overrides)
    response = world.api("POST", "repos/alice/app/hooks", "alice", json=body)
    assert response.status_code == 201, response.get_data(as_text=True)
    created: dict[str, Any] = response.get_json()
    return created


def _drain(app: Flask) -> None:
    assert worker_of(app).wait_idle(10), "deliveries still pending"


def _of(receiver: WebhookReceiver, path: str, event: str) -> list[ReceivedRequest]:
    return [request for request in receiver.requests(path) if request.event == event]


# --- management ----------------------------------------------------------------------------------


def test_create_get_list_edit_delete(world: World, receiver: WebhookReceiver) -> None:
    world.repo("alice", "app")
    created = _hook(world, receiver, "/h")
    assert created["config"] == {"url": receiver.url("/h"), "content_type": "json", "http_method": "post"}
    assert "s3cret" not in str(created)
    assert created["events"] == ["workflow_run", "workflow_job"] and created["active"] is True
    listed = world.api("GET", "repos/alice/app/hooks", "alice")
    assert listed.status_code == 200 and listed.headers["X-Total-Count"] == "1"
    assert [hook["id"] for hook in listed.get_json()] == [created["id"]]
    edited = world.api(
        "PATCH", f"repos/alice/app/hooks/{created['id']}", "alice", json={"active": False, "events": ["push"]}
    )
    assert edited.status_code == 200
    assert edited.get_json()["active"] is False and edited.get_json()["events"] == ["push"]
    assert edited.get_json()["config"]["url"] == receiver.url("/h")
    fetched = world.api("GET", f"repos/alice/app/hooks/{created['id']}", "alice").get_json()
    assert fetched["active"] is False
    assert world.api("DELETE", f"repos/alice/app/hooks/{created['id']}", "alice").status_code == 204
    assert world.api("GET", f"repos/alice/app/hooks/{created['id']}", "alice").status_code == 404


def test_defaults_follow_gitea(world: World) -> None:
    world.repo("alice", "app")
    body = {"type": "gitea", "config": {"url": "http://example.test/x", "content_type": "form"}}
    created = world.api("POST", "repos/alice/app/hooks", "alice", json=body).get_json()
    assert created["events"] == ["push"] and created["active"] is False


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"type": "gitea", "config": {"url": "not a url", "content_type": "json"}}, "Invalid url"),
        ({"type": "gitea", "config": {"url": "http://[::1", "content_type": "json"}}, "Invalid url"),
        ({"type": "gitea", "config": {"url": "ftp://example.test/", "content_type": "json"}}, "Invalid url"),
        ({"type": "gitea", "config": {"content_type": "json"}}, "Missing config option: url"),
        ({"type": "gitea", "config": {"url": "http://example.test/"}}, "Missing config option: content_type"),
        ({"type": "gitea", "config": {"url": "http://example.test/", "content_type": "xml"}}, "Invalid content type"),
        ({"type": "nope", "config": {"url": "http://example.test/", "content_type": "json"}}, "Invalid hook type"),
        ({"type": "gitea", "config": {"url": 5, "content_type": "json"}}, "must be a string"),
        (
            {"type": "gitea", "config": {"url": "http://e.test/", "content_type": "json"}, "events": "push"},
            "[Events]: must be a list",
        ),
        (
            {"type": "gitea", "config": {"url": "http://e.test/", "content_type": "json"}, "active": "yes"},
            "[Active]: must be a boolean",
        ),
        ({"config": {"url": "http://example.test/", "content_type": "json"}}, "[Type]: Required"),
    ],
)
def test_bad_options_are_refused_and_store_nothing(world: World, body: dict[str, Any], message: str) -> None:
    world.repo("alice", "app")
    response = world.api("POST", "repos/alice/app/hooks", "alice", json=body)
    assert response.status_code == 422, response.get_data(as_text=True)
    assert message in response.get_json()["message"]
    assert world.api("GET", "repos/alice/app/hooks", "alice").get_json() == []


def test_bad_edit_changes_nothing(world: World, receiver: WebhookReceiver) -> None:
    world.repo("alice", "app")
    created = _hook(world, receiver, "/h")
    path = f"repos/alice/app/hooks/{created['id']}"
    response = world.api("PATCH", path, "alice", json={"active": False, "config": {"url": "::bad::"}})
    assert response.status_code == 422
    assert world.api("GET", path, "alice").get_json() == created


def test_access_rules(world: World, receiver: WebhookReceiver) -> None:
    world.repo("alice", "app")
    world.repo("bob", "other")
    created = _hook(world, receiver, "/h")
    assert world.api("GET", "repos/alice/app/hooks").status_code == 401
    assert world.api("GET", "repos/alice/app/hooks", "bob").status_code == 403
    read_only = world.token("alice", ["read:repository"])
    assert world.api("POST", "repos/alice/app/hooks", headers=read_only, json={}).status_code == 403
    assert world.api("GET", f"repos/bob/other/hooks/{created['id']}", "bob").status_code == 404
    assert world.api("GET", "repos/alice/app/hooks/abc", "alice").status_code == 404


# --- events of the actions family -----------------------------------------------------------------


def test_actions_publish_run_and_job_status_events(world: World) -> None:
    seen: list[Any] = []
    with world.app.app_context():
        events = world.app.extensions["forge"].events
        events.subscribe(RunStatusEvent, seen.append)
        events.subscribe(JobStatusEvent, seen.append)
    world.repo("alice", "app")
    world.push("alice", "app", WORKFLOW, SIMPLE_WORKFLOW)
    runner = world.register("alice", "app", ["ubuntu-latest"])
    task = world.fetch(runner).task
    world.finish(runner, task.id, runner_pb2.RESULT_SUCCESS)
    statuses = [(type(event).__name__, event.status) for event in seen]
    assert statuses == [
        ("RunStatusEvent", Status.WAITING),
        ("JobStatusEvent", Status.WAITING),
        ("JobStatusEvent", Status.RUNNING),
        ("RunStatusEvent", Status.RUNNING),
        ("JobStatusEvent", Status.SUCCESS),
        ("RunStatusEvent", Status.SUCCESS),
    ]


def test_cancelling_a_run_publishes_cancelled_statuses(world: World) -> None:
    seen: list[Any] = []
    with world.app.app_context():
        world.app.extensions["forge"].events.subscribe(JobStatusEvent, seen.append)
    world.repo("alice", "app")
    world.push("alice", "app", WORKFLOW, SIMPLE_WORKFLOW)
    run_id = world.api("GET", "repos/alice/app/actions/runs", "alice").get_json()["workflow_runs"][0]["id"]
    assert world.api("POST", f"repos/alice/app/actions/runs/{run_id}/cancel", "alice").status_code == 204
    assert [event.status for event in seen] == [Status.WAITING, Status.CANCELLED]


# --- deliveries ------------------------------------------------------------------------------------


def test_a_run_delivers_signed_workflow_run_and_job_events(world: World, receiver: WebhookReceiver) -> None:
    world.repo("alice", "app")
    hook = _hook(world, receiver, "/ci")
    world.push("alice", "app", WORKFLOW, SIMPLE_WORKFLOW)
    runner = world.register("alice", "app", ["ubuntu-latest"])
    task = world.fetch(runner).task
    world.finish(runner, task.id, runner_pb2.RESULT_SUCCESS)
    _drain(world.app)
    runs, jobs = _of(receiver, "/ci", "workflow_run"), _of(receiver, "/ci", "workflow_job")
    assert [request.action for request in runs] == ["requested", "in_progress", "completed"]
    assert [request.action for request in jobs] == ["queued", "in_progress", "completed"]
    for request in runs + jobs:
        digest = hmac.new(b"s3cret", request.body, hashlib.sha256).hexdigest()
        assert request.header("X-Hub-Signature-256") == f"sha256={digest}"
        assert request.header("X-Gitea-Signature") == digest
        assert request.header("X-GitHub-Event") == request.event == request.header("X-Gitea-Event-Type")
        assert request.header("X-Gitea-Delivery") == request.header("X-GitHub-Delivery")
    assert len({request.header("X-Gitea-Delivery") for request in runs + jobs}) == 6
    completed = runs[-1].json()
    assert completed["workflow_run"]["conclusion"] == "success"
    assert completed["workflow"]["id"] == "ci.yml"
    assert completed["repository"]["full_name"] == "alice/app"
    assert completed["sender"]["login"] == "alice"
    job = jobs[-1].json()["workflow_job"]
    assert job["url"].endswith(f"/api/v1/repos/alice/app/actions/jobs/{job['id']}")
    assert job["run_url"].endswith(f"/api/v1/repos/alice/app/actions/runs/{job['run_id']}")
    with world.app.app_context():
        recorded = store.delivery_rows(hook["id"])
    assert len(recorded) == 6 and {row["status_code"] for row in recorded} == {200}


def test_only_subscribed_active_gitea_hooks_receive(world: World, receiver: WebhookReceiver) -> None:
    world.repo("alice", "app")
    _hook(world, receiver, "/jobs-only", events=["workflow_job"])
    _hook(world, receiver, "/inactive", active=False)
    _hook(world, receiver, "/push-only", events=["push"])
    _hook(world, receiver, "/slack", type="slack")
    world.push("alice", "app", WORKFLOW, SIMPLE_WORKFLOW)
    _drain(world.app)
    assert [request.event for request in receiver.requests("/jobs-only")] == ["workflow_job"]
    for path in ("/inactive", "/push-only", "/slack"):
        assert receiver.requests(path) == []


def test_form_content_type_signs_the_json_payload(world: World, receiver: WebhookReceiver) -> None:
    world.repo("alice", "app")
    _hook(world, receiver, "/form", config={"url": receiver.url("/form"), "content_type": "form", "secret": "k"})
    world.push("alice", "app", WORKFLOW, SIMPLE_WORKFLOW)
    _drain(world.app)
    first = receiver.requests("/form")[0]
    assert first.header("Content-Type") == "application/x-www-form-urlencoded"
    digest = hmac.new(b"k", first.payload_text, hashlib.sha256).hexdigest()
    assert first.header("X-Hub-Signature-256") == f"sha256={digest}"
    assert first.json()["action"] == "requested"


def test_a_dead_receiver_is_recorded_and_does_not_fail_the_push(world: World) -> None:
    world.repo("alice", "app")
    body = {
        "type": "gitea",
        "config": {"url": "http://127.0.0.1:9/unreachable", "content_type": "json"},
        "events": ["workflow_run"],
        "active": True,
    }
    hook = world.api("POST", "repos/alice/app/hooks", "alice", json=body).get_json()
    world.push("alice", "app", WORKFLOW, SIMPLE_WORKFLOW)
    _drain(world.app)
    with world.app.app_context():
        recorded = store.delivery_rows(hook["id"])
    assert len(recorded) == 1 and recorded[0]["status_code"] == 0 and recorded[0]["error"]


def test_deliveries_of_a_failed_request_are_dropped(app: Flask, receiver: WebhookReceiver) -> None:
    delivery = Delivery(1, receiver.url("/x"), "json", "", "", "workflow_run", "requested", b"{}")

    def announce_then(status: int) -> Response:
        schedule([delivery])
        if status >= 400:
            raise Unprocessable("refused after announcing")
        return Response("ok", status=status)

    announce = Endpoint("GET", "/test/announce/<int:status>", "testAnnounce", announce_then, "reference", PUBLIC)
    register_endpoints(app, [announce], test_hooks=True)  # a declared route: undeclared ones refuse every caller
    client = app.test_client()
    assert client.get("/test/announce/422").status_code == 422
    _drain(app)
    assert receiver.requests("/x") == []
    assert client.get("/test/announce/200").status_code == 200
    _drain(app)
    assert len(receiver.requests("/x")) == 1


def test_a_hook_test_sends_a_signed_push_of_the_branch_head(world: World, receiver: WebhookReceiver) -> None:
    world.repo("alice", "app")
    sha = world.push("alice", "app", "notes.txt", "hello", message="Add notes")
    hook = _hook(world, receiver, "/t", active=False, events=["workflow_run"])
    assert world.api("POST", f"repos/alice/app/hooks/{hook['id']}/tests", "alice").status_code == 204
    _drain(world.app)
    [push] = receiver.requests("/t")
    assert push.event == "push"
    assert push.header("X-Hub-Signature-256") == "sha256=" + hmac.new(b"s3cret", push.body, hashlib.sha256).hexdigest()
    payload = push.json()
    assert payload["ref"] == "refs/heads/main" and payload["after"] == sha
    assert payload["head_commit"]["message"].strip() == "Add notes" and payload["pusher"]["login"] == "alice"
    missing = world.api("POST", f"repos/alice/app/hooks/{hook['id']}/tests?ref=nope", "alice")
    assert missing.status_code == 404
    assert world.api("POST", "repos/alice/app/hooks/999/tests", "alice").status_code == 404


def test_deleting_the_repository_drops_its_hooks(world: World, receiver: WebhookReceiver) -> None:
    world.repo("alice", "app")
    hook = _hook(world, receiver, "/h")
    assert world.api("DELETE", "repos/alice/app", "alice").status_code == 204
    with world.app.app_context():
        assert not store.hook_exists(hook["id"])


def test_receiver_address_options() -> None:
    assert receiver_address(None, None) == ("127.0.0.2", 0, None)
    assert receiver_address("0.0.0.0", "http://10.0.0.5:8765/") == ("0.0.0.0", 8765, "http://10.0.0.5:8765")  # noqa: S104
    with pytest.raises(ValueError, match="not an absolute"):
        receiver_address(None, "10.0.0.5:8765")


def test_a_system_hook_receives_the_events_of_every_repository(world: World, receiver: WebhookReceiver) -> None:
    body = {
        "type": "gitea",
        "config": {"url": receiver.url("/sys"), "content_type": "json"},
        "events": ["workflow_run"],
    }
    created = world.client.post("/api/v1/admin/hooks", headers=world.admin_headers, json={**body, "active": True})
    assert created.status_code == 201, created.get_data(as_text=True)
    hook_id = created.get_json()["id"]
    listed = world.client.get("/api/v1/admin/hooks", headers=world.admin_headers).get_json()
    assert [hook["id"] for hook in listed] == [hook_id]
    assert world.client.get("/api/v1/admin/hooks?type=default", headers=world.admin_headers).get_json() == []
    world.repo("alice", "app")
    world.push("alice", "app", WORKFLOW, SIMPLE_WORKFLOW)
    _drain(world.app)
    runs = [request.json() for request in receiver.requests("/sys") if request.event == "workflow_run"]
    assert runs and runs[0]["repository"]["full_name"] == "alice/app"
    assert world.api("GET", "repos/alice/app/hooks", "alice").get_json() == [], "a system hook is no repository's"
    path = f"/api/v1/admin/hooks/{hook_id}"
    edited = world.client.patch(path, headers=world.admin_headers, json={"active": False})
    assert edited.status_code == 200 and edited.get_json()["active"] is False
    assert world.client.delete(path, headers=world.admin_headers).status_code == 204
    assert world.client.get(path, headers=world.admin_headers).status_code == 404


# --- organization and user hooks ------------------------------------------------------------------


def _account_hook(world: World, receiver: WebhookReceiver, base: str, who: str, path: str) -> dict[str, Any]:
    body = {
        "type": "gitea",
        "config": {"url": receiver.url(path), "content_type": "json", "secret": "acc0unt"},
        "events": ["workflow_run"],
        "active": True,
    }
    created = world.api("POST", base, who, json=body)
    assert created.status_code == 201, created.get_data(as_text=True)
    hook: dict[str, Any] = created.get_json()
    return hook


def test_an_organization_hook_hears_every_repository_of_the_organization(
    world: World, receiver: WebhookReceiver
) -> None:
    assert world.api("POST", "orgs", "alice", json={"username": "acme"}).status_code == 201
    assert world.api("POST", "orgs", "alice", json={"username": "other"}).status_code == 201
    made = world.api("POST", "orgs/acme/repos", "alice", json={"name": "app", "auto_init": True})
    assert made.status_code == 201, made.get_data(as_text=True)
    hook = _account_hook(world, receiver, "orgs/acme/hooks", "alice", "/org")
    other = _account_hook(world, receiver, "orgs/other/hooks", "alice", "/other")
    assert world.api("GET", f"orgs/acme/hooks/{other['id']}", "alice").status_code == 404, "another org's hook"
    assert world.api("GET", f"user/hooks/{hook['id']}", "alice").status_code == 404, "an org hook is no user's"
    listed = world.api("GET", "orgs/acme/hooks", "alice")
    assert [item["id"] for item in listed.get_json()] == [hook["id"]] and listed.headers["X-Total-Count"] == "1"
    world.push("acme", "app", WORKFLOW, SIMPLE_WORKFLOW, as_user="alice")
    _drain(world.app)
    runs = [request.json() for request in _of(receiver, "/org", "workflow_run")]
    assert runs and runs[0]["repository"]["full_name"] == "acme/app"
    assert receiver.requests("/other") == [], "another organization's hook heard the run"
    assert world.api("GET", "repos/acme/app/hooks", "alice").get_json() == [], "an org hook is no repository's"
    world.user("bob")
    assert world.api("GET", "orgs/acme/hooks", "bob").status_code == 403
    assert world.api("DELETE", "orgs/other", "alice").status_code == 204
    with world.app.app_context():
        assert not store.hook_exists(other["id"]), "a deleted organization's hook stayed"


def test_a_user_hook_hears_the_users_own_repositories_only(world: World, receiver: WebhookReceiver) -> None:
    world.repo("alice", "app")
    world.repo("bob", "tool")
    hook = _account_hook(world, receiver, "user/hooks", "alice", "/mine")
    assert world.api("GET", f"user/hooks/{hook['id']}", "bob").status_code == 404, "another user's hook"
    assert world.api("GET", "user/hooks", "bob").get_json() == []
    world.push("bob", "tool", WORKFLOW, SIMPLE_WORKFLOW)
    world.push("alice", "app", WORKFLOW, SIMPLE_WORKFLOW)
    _drain(world.app)
    runs = [request.json() for request in _of(receiver, "/mine", "workflow_run")]
    assert runs and {run["repository"]["full_name"] for run in runs} == {"alice/app"}
    edited = world.api("PATCH", f"user/hooks/{hook['id']}", "alice", json={"active": False})
    assert edited.status_code == 200 and edited.get_json()["active"] is False
    assert "acc0unt" not in edited.get_data(as_text=True)
    assert world.api("DELETE", f"user/hooks/{hook['id']}", "alice").status_code == 204
    assert world.api("GET", "user/hooks", "alice").get_json() == []


def test_an_old_webhook_table_gains_the_owner_column(app: Flask) -> None:
    with app.app_context():
        db = forge().db
        db.execute("DROP INDEX webhook_owner")
        db.execute("ALTER TABLE webhook DROP COLUMN owner_id")
        store.upgrade(db)
        assert "owner_id" in {row["name"] for row in db.all("PRAGMA table_info(webhook)")}

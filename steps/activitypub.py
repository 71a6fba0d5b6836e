"""Steps of the ActivityPub area: every ActivityPub request and nodeinfo answer 501 (spec 4.4, 7)."""

from __future__ import annotations

from pytest_bdd import then, when

from conformance.api.activitypub import ActivityPubApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from steps.actors import ADMIN, ANONYMOUS, acting
from steps.parsing import phrase

__all__: list[str] = []


@when(phrase('an anonymous client sends {method:w} to the ActivityPub path "{sub_path}"'))
def anonymous_activitypub(ctx: ScenarioContext, method: str, sub_path: str) -> None:
    """A request without credentials under ``/activitypub``."""
    ctx.response = acting(ctx, ANONYMOUS, ActivityPubApi).activitypub(method, sub_path)


@when(phrase('"{who}" sends {method:w} to the ActivityPub path "{sub_path}"'))
def user_activitypub(ctx: ScenarioContext, who: str, method: str, sub_path: str) -> None:
    """A request with the user's token under ``/activitypub``."""
    ctx.response = acting(ctx, who, ActivityPubApi).activitypub(method, sub_path)


@when(phrase("an anonymous client asks for the nodeinfo"))
def anonymous_nodeinfo(ctx: ScenarioContext) -> None:
    """``GET /nodeinfo`` without credentials."""
    ctx.response = acting(ctx, ANONYMOUS, ActivityPubApi).nodeinfo()


@when(phrase("the admin asks for the nodeinfo"))
def admin_nodeinfo(ctx: ScenarioContext) -> None:
    """``GET /nodeinfo`` with the admin token."""
    ctx.response = acting(ctx, ADMIN, ActivityPubApi).nodeinfo()


@then(phrase('the answer is 501 with the plain text "{text}"'))
def answer_is_not_implemented(ctx: ScenarioContext, text: str) -> None:
    """Status 501, a text/plain body, and that text."""
    response = ctx.last_response()
    assert response.status_code == 501, f"expected 501, got {response.status_code}: {response.text[:300]}"
    content_type = response.headers.get("Content-Type", "")
    assert content_type.split(";")[0].strip().lower() == "text/plain", f"Content-Type is {content_type!r}"
    assert response.text.strip() == text, f"the body is {response.text[:200]!r}, expected {text!r}"


@when(phrase('the admin reads the "{document}" API description'))
def read_description(ctx: ScenarioContext, document: str) -> None:
    """``/swagger.v1.json`` (Swagger 2) or ``/openapi3.v1.json`` (OpenAPI 3)."""
    documents = {"Swagger 2": ctx.admin.misc.swagger, "OpenAPI 3": ctx.admin.misc.openapi3}
    assert document in documents, f"unknown API description {document!r}: {sorted(documents)}"
    ctx.response = documents[document]()


@then(phrase("the description lists no ActivityPub or nodeinfo path"))
def description_leaves_them_out(ctx: ScenarioContext) -> None:
    """The document lists paths, none of them under /activitypub or /nodeinfo."""
    response = ctx.last_response()
    assert response.status_code == 200, f"{response.url} answered {response.status_code}"
    paths = json_of(response).get("paths") or {}
    assert paths, f"{response.url} lists no paths at all"
    listed = [path for path in paths if path.startswith(("/activitypub", "/nodeinfo"))]
    assert not listed, f"{response.url} lists {listed}"

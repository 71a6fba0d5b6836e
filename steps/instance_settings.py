"""Steps of the instance's general settings (``/settings/api``, ``/ui``, ``/repository``, ``/attachment``).

They assert relations between the fields of one answer: the values themselves are the operator's."""

from __future__ import annotations

from typing import Any

from pytest_bdd import then

from conformance.client import json_of
from conformance.context import ScenarioContext
from steps.parsing import phrase


def _answer(ctx: ScenarioContext) -> dict[str, Any]:
    assert ctx.response is not None, "no request was made"
    body = json_of(ctx.response)
    assert isinstance(body, dict), f"expected a JSON object, got {body!r}"
    return body


@then(phrase('the response field "{smaller}" is at most the response field "{larger}"'))
def field_at_most(ctx: ScenarioContext, smaller: str, larger: str) -> None:
    body = _answer(ctx)
    assert body[smaller] <= body[larger], f"{smaller}={body[smaller]} exceeds {larger}={body[larger]}"


@then(phrase('the response field "{name}" names each item once'))
def field_names_each_once(ctx: ScenarioContext, name: str) -> None:
    items = _answer(ctx)[name]
    assert items, f"{name} is empty"
    repeated = sorted({item for item in items if items.count(item) > 1})
    assert not repeated, f"{name} names {repeated} more than once"


@then(phrase("the attachment settings allow at least one file of at least one MiB when enabled"))
def attachments_have_room(ctx: ScenarioContext) -> None:
    body = _answer(ctx)
    if body["enabled"]:
        assert body["max_files"] >= 1 and body["max_size"] >= 1, f"enabled attachments with no room: {body}"

"""Steps of artifact digests: the sha256 a forge keeps at finalize and gives back when listing.

The expected value is always computed here from the bytes the scenario itself uploaded (the notes of the
artifact world), never taken from another answer of the forge.
"""

from __future__ import annotations

import hashlib
from typing import Any

from pytest_bdd import given, then

from conformance.api.artifacts import wire_fields
from conformance.client import json_of
from conformance.context import ScenarioContext
from steps.artifacts import ArtifactWorld, finalize_raw, listed, reply_field
from steps.parsing import phrase

__all__: list[str] = []

DIGEST_FIELD = 7
"""``ListArtifactsResponse_MonolithArtifact.digest`` in GitHub's ``results/api/v1/artifact.proto``."""
NAME_FIELD = 4


def uploaded_digest(artifacts: ArtifactWorld, name: str) -> str:
    """``sha256:<lowercase hex>`` of the bytes the scenario uploaded as ``name``."""
    contents = artifacts.notes().contents
    assert name in contents, f'the scenario uploaded no artifact "{name}"'
    return "sha256:" + hashlib.sha256(contents[name]).hexdigest()


def _item_named(items: list[dict[str, Any]], name: str) -> dict[str, Any]:
    found = [item for item in items if item.get("name") == name]
    assert len(found) == 1, f'expected one artifact "{name}" in the answer, found {len(found)}: {items}'
    return found[0]


@given(phrase('the job has finalized "{name}" with size {size:d} and no hash'))
def given_finalized_without_hash(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str, size: int) -> None:
    """FinalizeArtifact without the optional hash (as older clients) succeeded."""
    finalize_raw(artifacts, name, size, None)
    assert ctx.last_response().status_code == 200, f"finalize answered {ctx.last_response().status_code}"


@then(phrase('the listed artifact "{name}" has the digest of what the job uploaded'))
def then_listed_digest(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> None:
    """``digest`` (a wrapped string: protojson writes it bare) is sha256:<hex> of the uploaded bytes."""
    item = _item_named(listed(ctx), name)
    assert "digest" in item, f'the listed artifact "{name}" has no digest: {item}'
    assert reply_field(item, "digest") == uploaded_digest(artifacts, name)


@then(phrase('the binary listed artifact "{name}" has the digest of what the job uploaded in field 7'))
def then_binary_listed_digest(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> None:
    """Field 7 is a StringValue message whose field 1 holds the digest, read by field number."""
    for entry in wire_fields(ctx.last_response().content):
        assert isinstance(entry.value, bytes), f"field {entry.number} is not a message"
        item = wire_fields(entry.value)
        names = [field.value for field in item if field.number == NAME_FIELD]
        if names != [name.encode("utf-8")]:
            continue
        wrapped = [field.value for field in item if field.number == DIGEST_FIELD]
        assert len(wrapped) == 1 and isinstance(wrapped[0], bytes), f"no digest in field {DIGEST_FIELD}: {item}"
        inner = [field.value for field in wire_fields(wrapped[0]) if field.number == 1]
        assert inner == [uploaded_digest(artifacts, name).encode("ascii")], f"the digest wrapper holds {inner}"
        return
    raise AssertionError(f'the binary reply lists no artifact "{name}"')


@then(phrase('the REST artifact\'s digest is the sha256 of what the job uploaded as "{name}"'))
def then_rest_digest(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> None:
    """GitHub's ``digest`` on the ActionArtifact object."""
    body = json_of(ctx.last_response())
    assert isinstance(body, dict) and body.get("name") == name, f'the answer is not the artifact "{name}"'
    assert body.get("digest") == uploaded_digest(artifacts, name), f"digest is {body.get('digest')!r}"


@then(phrase("every REST artifact listed has the digest of what the job uploaded under its name"))
def then_rest_list_digests(ctx: ScenarioContext, artifacts: ArtifactWorld) -> None:
    """Each listed ActionArtifact's ``digest`` against the bytes uploaded under its name."""
    body = json_of(ctx.last_response())
    items = body.get("artifacts") if isinstance(body, dict) else None
    assert isinstance(items, list) and items, f"expected a non-empty artifacts array: {str(body)[:300]}"
    for item in items:
        name = str(item.get("name"))
        assert item.get("digest") == uploaded_digest(artifacts, name), f"{name}: digest {item.get('digest')!r}"

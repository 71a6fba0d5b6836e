"""Steps that put artifacts in a known state and move bytes through the signed upload and download URLs."""

from __future__ import annotations

import pytest
from pytest_bdd import given, when

from conformance.api.artifacts import encode_block_id
from conformance.client import json_of
from conformance.context import ScenarioContext
from steps.artifacts import (
    ArtifactWorld,
    call_for_name,
    create_artifact,
    expand_controls,
    finalize_raw,
    finalize_with_hash,
    other_id,
    put_all,
    reply,
    reply_field,
    sha256_of,
    tamper,
    upload_artifact,
    upload_url,
)
from steps.ci import report_result
from steps.parsing import phrase

__all__: list[str] = []


# ---------------------------------------------------------------- Given: artifacts in a known state


@given(phrase('the job has created the artifact "{name}"'))
def given_created(artifacts: ArtifactWorld, name: str) -> None:
    """CreateArtifact only: a pending artifact with nothing uploaded."""
    create_artifact(artifacts, name)


@given(phrase('the job has created the artifact "{name}" and uploaded "{text}" to it'))
def given_created_uploaded(artifacts: ArtifactWorld, name: str, text: str) -> None:
    """Created and uploaded (one block and its block list), not finalized."""
    create_artifact(artifacts, name)
    put_all(artifacts, name, text.encode("utf-8"))


@given(phrase('the job has uploaded the artifact "{name}" containing "{text}"'))
def given_uploaded(artifacts: ArtifactWorld, name: str, text: str) -> None:
    """A finalized artifact, uploaded by the kit's artifact client."""
    upload_artifact(artifacts, name, text)


@given(phrase('the other job has uploaded the artifact "{name}" containing "{text}"'))
def given_other_uploaded(artifacts: ArtifactWorld, name: str, text: str) -> None:
    """A finalized artifact of the other job's run."""
    upload_artifact(artifacts, name, text, who="other job")


@given(phrase('the job has uploaded the artifact "{name}" with mime type "{mime_type}" containing "{text}"'))
def given_uploaded_typed(artifacts: ArtifactWorld, name: str, mime_type: str, text: str) -> None:
    """A finalized single-file artifact with a content type (protocol version 7)."""
    upload_artifact(artifacts, name, text, mime_type=mime_type)


@given(phrase('the job has uploaded the block "{label}" containing "{text}" to the artifact "{name}"'))
def given_block(ctx: ScenarioContext, artifacts: ArtifactWorld, label: str, text: str, name: str) -> None:
    """One block staged (its id is the base64 of the label)."""
    upload_block(ctx, artifacts, label, text, name)
    assert ctx.last_response().status_code == 201, f"the block upload answered {ctx.last_response().status_code}"


@given(phrase('the job has committed the block list "{labels}" for the artifact "{name}"'))
def given_block_list(ctx: ScenarioContext, artifacts: ArtifactWorld, labels: str, name: str) -> None:
    """The block order committed."""
    commit_block_list(ctx, artifacts, labels, name)
    assert ctx.last_response().status_code == 201, f"the block list answered {ctx.last_response().status_code}"


@given(phrase('the job has finalized "{name}" with size {size:d} and the sha256 hash of "{text}"'))
def given_finalized(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str, size: int, text: str) -> None:
    """FinalizeArtifact succeeded; its id is noted."""
    finalize_with_hash(artifacts, name, size, text)
    assert ctx.last_response().status_code == 200, f"finalize answered {ctx.last_response().status_code}"


@given(phrase('the job has deleted the artifact "{name}"'))
def given_deleted(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> None:
    """DeleteArtifact succeeded."""
    call_for_name(ctx, artifacts, "DeleteArtifact", name)
    assert ctx.last_response().status_code == 200, f"DeleteArtifact answered {ctx.last_response().status_code}"


@given(phrase('the job has finished with result "{result}"'))
def given_job_finished(artifacts: ArtifactWorld, result: str) -> None:
    """The mock runner reported the job's final result (its runtime token stops working)."""
    report_result(artifacts.job(), result)


@given(phrase('the job has obtained the signed URL of "{name}"'))
def given_signed_url(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> None:
    """GetSignedArtifactURL succeeded; the URL is kept for later."""
    call_for_name(ctx, artifacts, "GetSignedArtifactURL", name)
    assert ctx.last_response().status_code == 200, f"GetSignedArtifactURL answered {ctx.last_response().status_code}"
    artifacts.notes().signed_url = str(reply_field(reply(ctx), "signed_url"))


# ---------------------------------------------------------------- When: the signed upload URL


@when(phrase('the job uploads the block "{label}" containing "{text}" to the artifact "{name}"'))
def upload_block(ctx: ScenarioContext, artifacts: ArtifactWorld, label: str, text: str, name: str) -> None:
    """PUT comp=block with the base64 of the label as block id."""
    ctx.response = artifacts.protocol().put_block(
        upload_url(artifacts, name), encode_block_id(label), text.encode("utf-8")
    )


@when(phrase('the job commits the block list "{labels}" for the artifact "{name}"'))
def commit_block_list(ctx: ScenarioContext, artifacts: ArtifactWorld, labels: str, name: str) -> None:
    """PUT comp=blocklist naming the labels' block ids in order ("" for an empty list)."""
    ids = [encode_block_id(label.strip()) for label in labels.split(",") if label.strip()]
    ctx.response = artifacts.protocol().put_block_list(upload_url(artifacts, name), ids)


@when(phrase('the job uploads data under the raw block id "{block_id}" to the artifact "{name}"'))
def upload_raw_block(ctx: ScenarioContext, artifacts: ArtifactWorld, block_id: str, name: str) -> None:
    """PUT comp=block with a block id sent exactly as written."""
    ctx.response = artifacts.protocol().put_block(upload_url(artifacts, name), expand_controls(block_id), b"x")


TAMPERED_UPLOAD = (
    'the job uploads the block "{label}" containing "{text}" to the artifact "{name}"'
    " through its upload URL with {how:Tampering}"
)


@when(phrase(TAMPERED_UPLOAD))
def upload_tampered(
    ctx: ScenarioContext, artifacts: ArtifactWorld, *, label: str, text: str, name: str, how: str
) -> None:
    """PUT comp=block through a changed upload URL."""
    url = tamper(upload_url(artifacts, name), how, other_id(artifacts, how))
    ctx.response = artifacts.protocol().put_block(url, encode_block_id(label), text.encode("utf-8"))


@when(phrase('the job uploads "{text}" to the artifact "{name}" and finalizes it'))
def upload_andfinalize_raw(artifacts: ArtifactWorld, text: str, name: str) -> None:
    """One block, its block list and FinalizeArtifact with the right size and hash."""
    put_all(artifacts, name, text.encode("utf-8"))
    finalize_raw(artifacts, name, len(text.encode("utf-8")), sha256_of(text))


# ---------------------------------------------------------------- When: the signed download URL


def _fetch(ctx: ScenarioContext, artifacts: ArtifactWorld, url: str, headers: dict[str, str] | None = None) -> None:
    ctx.response = artifacts.protocol().fetch(url, headers=headers)


def _signed_url_of(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> str:
    call_for_name(ctx, artifacts, "GetSignedArtifactURL", name)
    assert ctx.last_response().status_code == 200, f"GetSignedArtifactURL answered {ctx.last_response().status_code}"
    return artifacts.notes().signed_url


@when(phrase("the signed URL is fetched without credentials"))
def fetch_last_signed_url(ctx: ScenarioContext, artifacts: ArtifactWorld) -> None:
    """GET the signed_url of the last GetSignedArtifactURL reply."""
    _fetch(ctx, artifacts, artifacts.notes().signed_url)


@when(phrase("the obtained signed URL is fetched without credentials"))
def fetch_obtained_signed_url(ctx: ScenarioContext, artifacts: ArtifactWorld) -> None:
    """GET the signed URL obtained earlier in the scenario."""
    _fetch(ctx, artifacts, artifacts.notes().signed_url)


@when(phrase('the signed URL of "{name}" is fetched without credentials'))
def fetch_signed_url(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> None:
    """GetSignedArtifactURL, then GET the URL with no credentials."""
    _fetch(ctx, artifacts, _signed_url_of(ctx, artifacts, name))


@when(phrase('the signed URL of "{name}" is fetched with the header "{header}"'))
def fetch_signed_url_with_header(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str, header: str) -> None:
    """The download with one extra header (``Name: value``)."""
    key, _, value = header.partition(":")
    _fetch(ctx, artifacts, _signed_url_of(ctx, artifacts, name), {key.strip(): value.strip()})


@when(phrase('the signed URL of "{name}" is fetched with {how:Tampering}'))
def fetch_tampered_signed_url(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str, how: str) -> None:
    """The download URL changed before the GET."""
    _fetch(ctx, artifacts, tamper(_signed_url_of(ctx, artifacts, name), how, other_id(artifacts, how)))


@when(phrase("the reference clock moves forward by {seconds:d} seconds"))
def move_clock(ctx: ScenarioContext, artifacts: ArtifactWorld, request: pytest.FixtureRequest, seconds: int) -> None:
    """Shift the reference server's clock through its test hook; put it back after the scenario."""
    hook = "-/reference/clock"
    current = ctx.admin.http.get(hook)
    assert current.status_code == 200, f"the clock hook answered {current.status_code}"
    offset = float(json_of(current).get("offset_seconds", 0.0))
    if artifacts.clock_offset is None:
        artifacts.clock_offset = offset
        request.addfinalizer(lambda: _reset_clock(ctx, offset))
    moved = ctx.admin.http.put(hook, json={"offset_seconds": offset + seconds})
    assert moved.status_code == 200, f"moving the clock answered {moved.status_code}: {moved.text[:200]}"


def _reset_clock(ctx: ScenarioContext, offset: float) -> None:
    ctx.admin.http.put("-/reference/clock", json={"offset_seconds": offset})

"""Then steps of the artifact protocol: list items, binary replies by field number, uploads and downloads."""

from __future__ import annotations

import time
from datetime import datetime
from email.message import Message
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from pytest_bdd import then

from conformance.api.artifacts import WireField, wire_fields
from conformance.client import json_of
from conformance.context import ScenarioContext
from conformance.schemas import validate
from steps.artifacts import RFC3339, ArtifactWorld, ids_of, listed, reply, reply_field
from steps.parsing import phrase

__all__: list[str] = []


def _fields(ctx: ScenarioContext) -> list[WireField]:
    return wire_fields(ctx.last_response().content)


def _field(fields: list[WireField], number: int) -> WireField:
    found = [item for item in fields if item.number == number]
    assert len(found) == 1, f"expected field {number} once, found {len(found)} in {fields}"
    return found[0]


def _text(item: WireField) -> str:
    assert item.wire_type == 2 and isinstance(item.value, bytes), f"field {item.number} is not a string: {item}"
    return item.value.decode("utf-8")


def _varint(item: WireField) -> int:
    assert item.wire_type == 0 and isinstance(item.value, int), f"field {item.number} is not a varint: {item}"
    return item.value


# ---------------------------------------------------------------- replies


@then(phrase("the RPC succeeds"))
def then_rpc_succeeds(ctx: ScenarioContext) -> None:
    """200 with a JSON body."""
    response = ctx.last_response()
    assert response.status_code == 200, f"the RPC answered {response.status_code}: {response.text[:300]}"
    assert "json" in response.headers.get("Content-Type", ""), f"Content-Type {response.headers.get('Content-Type')}"
    reply(ctx)


@then(phrase("the RPC succeeds in binary protobuf"))
def then_rpc_succeeds_binary(ctx: ScenarioContext) -> None:
    """200 with a protobuf content type and a body that parses as protobuf."""
    response = ctx.last_response()
    assert response.status_code == 200, f"the RPC answered {response.status_code}: {response.text[:300]}"
    content_type = response.headers.get("Content-Type", "")
    assert "protobuf" in content_type, f"Content-Type is {content_type!r}, expected a protobuf type"
    wire_fields(response.content)


@then(phrase('the RPC reply field "{name}" is true'))
def then_field_true(ctx: ScenarioContext, name: str) -> None:
    """A bool field is true."""
    assert reply_field(reply(ctx), name) is True, f"{name} is {reply_field(reply(ctx), name)!r}"


def assert_signed_url(url: str) -> None:
    """Absolute http(s) URL with a non-empty ``sig`` and ``expires``."""
    parts = urlsplit(url)
    assert parts.scheme in ("http", "https") and parts.netloc, f"{url!r} is not an absolute URL"
    query = dict(parse_qsl(parts.query))
    assert query.get("sig") and query.get("expires"), f"{url!r} carries no sig and expires"


@then(phrase('the RPC reply field "{name}" is an absolute URL with a signature'))
def then_field_signed_url(ctx: ScenarioContext, name: str) -> None:
    """A URL field is absolute and signed."""
    assert_signed_url(str(reply_field(reply(ctx), name)))


@then(phrase('the RPC reply field "{name}" is a positive int64'))
def then_field_positive(ctx: ScenarioContext, name: str) -> None:
    """An int64 (protojson string or number) above zero."""
    value = reply_field(reply(ctx), name)
    assert str(value).isdigit() and int(value) > 0, f"{name} is {value!r}"


@then(phrase('the RPC reply field "{name}" is the database id of "{artifact}"'))
def then_field_is_id(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str, artifact: str) -> None:
    """An id field equals the id finalize gave the artifact."""
    value = reply_field(reply(ctx), name)
    assert int(value) == artifacts.notes().ids[artifact], (
        f"{name} is {value!r}, {artifact} is {artifacts.notes().ids[artifact]}"
    )


@then(phrase('the RPC fails with status {status:d} and Twirp code "{code}"'))
def then_rpc_fails(ctx: ScenarioContext, status: int, code: str) -> None:
    """The status, then a Twirp JSON error body with that code."""
    response = ctx.last_response()
    assert response.status_code == status, f"expected {status}, got {response.status_code}: {response.text[:300]}"
    body = json_of(response)
    validate(body, "artifact_twirp_error")
    assert body["code"] == code, f"the Twirp code is {body['code']!r}, expected {code!r}: {body.get('msg')}"


@then(phrase("the RPC is refused with a 4xx status"))
def then_rpc_refused(ctx: ScenarioContext) -> None:
    """A client error (Gitea and the reference differ on which)."""
    status = ctx.last_response().status_code
    assert 400 <= status < 500, f"expected a 4xx status, got {status}: {ctx.last_response().text[:300]}"


@then(phrase("the job's run lists no artifacts"))
def then_no_artifacts(artifacts: ArtifactWorld) -> None:
    """ListArtifacts answers an empty list."""
    assert artifacts.current_names() == {}, f"the run lists {artifacts.current_names()}"


@then(phrase("the other job's run lists no artifacts"))
def then_other_no_artifacts(artifacts: ArtifactWorld) -> None:
    """The other run's ListArtifacts is empty."""
    assert artifacts.current_names("other job") == {}, f"the other run lists {artifacts.current_names('other job')}"


@then(phrase('the job\'s run lists the artifact "{name}" with size {size:d}'))
def then_lists_artifact(artifacts: ArtifactWorld, name: str, size: int) -> None:
    """ListArtifacts holds the artifact with that size."""
    names = artifacts.current_names()
    assert names.get(name) == size, f"the run lists {names}, expected {name!r} of {size} bytes"


@then(phrase('the RPC reply lists exactly the artifacts "{names}"'))
def then_reply_lists(ctx: ScenarioContext, names: str) -> None:
    """The names of the listed artifacts ("" for none)."""
    actual = sorted(str(item.get("name")) for item in listed(ctx))
    expected = sorted(name.strip() for name in names.split(",") if name.strip())
    assert actual == expected, f"listed {actual}, expected {expected}"


# ---------------------------------------------------------------- list items (JSON)


@then(phrase("every listed artifact carries the job's run and job backend ids"))
def then_items_carry_ids(ctx: ScenarioContext, artifacts: ArtifactWorld) -> None:
    """Each item's backend ids are the job's."""
    job = artifacts.job()
    for item in listed(ctx):
        ids = (str(reply_field(item, "workflow_run_backend_id")), str(reply_field(item, "workflow_job_run_backend_id")))
        assert ids == (str(job.run_id), str(job.job_id)), f"item {item.get('name')!r} carries {ids}"


@then(phrase('the listed artifact "{name}" has size {size:d} and the database id given at finalize'))
def then_item_fields(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str, size: int) -> None:
    """size and database_id of one item (int64 as string or number)."""
    item = next((item for item in listed(ctx) if item.get("name") == name), None)
    assert item is not None, f'"{name}" is not listed'
    assert int(reply_field(item, "size")) == size, f"size is {reply_field(item, 'size')!r}"
    assert int(reply_field(item, "database_id")) == artifacts.notes().ids[name], f"database_id is {item}"


@then(phrase("every listed artifact has a created_at timestamp in RFC 3339"))
def then_items_created(ctx: ScenarioContext) -> None:
    """created_at is an RFC 3339 Timestamp, not in the future."""
    for item in listed(ctx):
        value = str(reply_field(item, "created_at"))
        assert RFC3339.match(value), f"created_at {value!r} is not RFC 3339"
        moment = datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
        assert moment <= time.time() + 300, f"created_at {value!r} lies in the future"


# ---------------------------------------------------------------- binary replies


@then(phrase("the binary reply has field {number:d} set to true"))
def then_binary_true(ctx: ScenarioContext, number: int) -> None:
    """A bool field encoded as varint 1."""
    assert _varint(_field(_fields(ctx), number)) == 1


@then(phrase("the binary reply has field {number:d} holding an absolute URL with a signature"))
def then_binary_url(ctx: ScenarioContext, number: int) -> None:
    """A string field holding a signed URL."""
    assert_signed_url(_text(_field(_fields(ctx), number)))


@then(phrase("the binary reply has field {number:d} holding a positive integer"))
def then_binary_positive(ctx: ScenarioContext, number: int) -> None:
    """An int64 field above zero."""
    assert _varint(_field(_fields(ctx), number)) > 0


@then(phrase('the binary reply has field {number:d} holding the database id of "{name}"'))
def then_binary_id(ctx: ScenarioContext, artifacts: ArtifactWorld, number: int, name: str) -> None:
    """An int64 field equal to the artifact's id."""
    assert _varint(_field(_fields(ctx), number)) == artifacts.notes().ids[name]


@then(phrase("the binary reply has {count:d} artifacts in field {number:d}"))
def then_binary_count(ctx: ScenarioContext, count: int, number: int) -> None:
    """A repeated message field with this many entries (and no other field)."""
    fields = _fields(ctx)
    assert all(item.number == number and item.wire_type == 2 for item in fields), f"unexpected fields {fields}"
    assert len(fields) == count, f"expected {count} entries, got {len(fields)}"


@then(
    phrase(
        "every binary artifact has its run id in field 1, job id in field 2, database id in field 3, "
        "name in field 4, size in field 5 and created_at in field 6"
    )
)
def then_binary_items(ctx: ScenarioContext, artifacts: ArtifactWorld) -> None:
    """ListArtifactsResponse_MonolithArtifact by field number."""
    job = artifacts.job()
    for entry in _fields(ctx):
        assert isinstance(entry.value, bytes)
        item = wire_fields(entry.value)
        assert _text(_field(item, 1)) == str(job.run_id)
        assert _text(_field(item, 2)) == str(job.job_id)
        name = _text(_field(item, 4))
        assert _varint(_field(item, 3)) == artifacts.notes().ids[name], f"database id of {name!r}"
        assert _varint(_field(item, 5)) == len(artifacts.notes().contents[name]), f"size of {name!r}"
        created = _field(item, 6)
        assert isinstance(created.value, bytes), "created_at is not a message"
        seconds = _varint(_field(wire_fields(created.value), 1))
        assert abs(seconds - time.time()) < 3600 * 24, f"created_at {seconds} is not a recent Unix time"


# ---------------------------------------------------------------- uploads and downloads


@then(phrase("the upload answers {status:d}"))
def then_upload_status(ctx: ScenarioContext, status: int) -> None:
    """The signed upload URL's status (the Azure SDK needs exactly 201)."""
    response = ctx.last_response()
    assert response.status_code == status, f"the upload answered {response.status_code}: {response.text[:300]}"


@then(phrase("the download answers {status:d}"))
def then_download_status(ctx: ScenarioContext, status: int) -> None:
    """The signed download URL's status."""
    response = ctx.last_response()
    assert response.status_code == status, f"the download answered {response.status_code}: {response.text[:300]}"


@then(phrase('the downloaded body is "{text}"'))
def then_body(ctx: ScenarioContext, text: str) -> None:
    """The exact bytes."""
    body = ctx.last_response().content
    assert body == text.encode("utf-8"), f"the body is {body[:200]!r}, expected {text!r}"


@then(phrase('the download has the header "{name}" starting with "{prefix}"'))
def then_header_prefix(ctx: ScenarioContext, name: str, prefix: str) -> None:
    """A header value's start (a content type may carry parameters)."""
    value = ctx.last_response().headers.get(name, "")
    assert value.lower().startswith(prefix.lower()), f"{name} is {value!r}, expected it to start with {prefix!r}"


@then(phrase('the download has the header "{name}" equal to "{value}"'))
def then_header_equal(ctx: ScenarioContext, name: str, value: str) -> None:
    """A header value exactly."""
    actual = ctx.last_response().headers.get(name)
    assert actual == value, f"{name} is {actual!r}, expected {value!r}"


@then(phrase('the download has a Content-Disposition naming the file "{filename}"'))
def then_disposition(ctx: ScenarioContext, filename: str) -> None:
    """Content-Disposition's filename (or filename*) parameter."""
    header = ctx.last_response().headers.get("Content-Disposition", "")
    message = Message()
    message["Content-Disposition"] = header
    actual = message.get_filename()
    assert actual == filename, f"Content-Disposition {header!r} names {actual!r}, expected {filename!r}"


@then(phrase('the artifact "{name}" downloads as "{text}"'))
def then_artifact_downloads(artifacts: ArtifactWorld, name: str, text: str) -> None:
    """GetSignedArtifactURL and a GET give exactly these bytes."""
    signing = artifacts.protocol().call_json("GetSignedArtifactURL", {**ids_of(artifacts.job()), "name": name})
    assert signing.status_code == 200, f"GetSignedArtifactURL answered {signing.status_code}: {signing.text[:200]}"
    response = artifacts.protocol().fetch(str(reply_field(json_of(signing), "signed_url")))
    assert response.status_code == 200, f"the download answered {response.status_code}"
    assert response.content == text.encode("utf-8"), f"downloaded {response.content[:200]!r}, expected {text!r}"


def _query(url: str) -> dict[str, Any]:
    return dict(parse_qsl(urlsplit(url).query))


@then(phrase("the new upload URL names the same artifact id as the first"))
def then_same_artifact(artifacts: ArtifactWorld) -> None:
    """Two CreateArtifact calls for a pending name give URLs for one artifact id."""
    name = next(name for name, urls in artifacts.notes().upload_urls.items() if len(urls) >= 2)
    first, second = artifacts.notes().upload_urls[name][0], artifacts.notes().upload_urls[name][-1]
    assert _query(first).get("artifactID") == _query(second).get("artifactID"), f"{first} vs {second}"


@then(phrase("the signed URL carries a 43-character unpadded base64url signature"))
def then_signature_shape(artifacts: ArtifactWorld) -> None:
    """HMAC-SHA256 (32 bytes) as unpadded base64url is 43 characters of [A-Za-z0-9_-]."""
    sig = str(_query(artifacts.notes().signed_url).get("sig", ""))
    allowed = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert len(sig) == 43 and set(sig) <= allowed, f"sig {sig!r} is not 43 characters of unpadded base64url"


@then(phrase("the signed URL expires one hour from now"))
def then_expires_in_an_hour(artifacts: ArtifactWorld) -> None:
    """expires is a Unix time about 3600 s ahead (the target's clock may differ by a minute)."""
    expires = str(_query(artifacts.notes().signed_url).get("expires", ""))
    assert expires.isdigit(), f"expires {expires!r} is not Unix seconds"
    ahead = int(expires) - time.time()
    assert 3600 - 120 <= ahead <= 3600 + 120, f"the URL expires in {ahead:.0f} s, expected about 3600"

"""Steps of the artifact protocol: Twirp calls of a running job, the signed upload and download URLs.

Given steps upload through ``mock_runner.artifacts.ArtifactClient`` (the kit's real client); When
steps send exactly the request a scenario describes through :class:`ArtifactProtocol`, so a failure's
transcript shows it. Every response lands in ``ctx.response``; Then steps only read it (a listing
Then step may ask the server what it holds now, without changing anything).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from forge_proto import artifact_pb2
from pytest_bdd import when

from conformance.api.artifacts import ArtifactProtocol, RecordingSession, encode_block_id, origin_of
from conformance.client import HttpClient, json_of
from conformance.context import ScenarioContext
from mock_runner.artifacts import ArtifactClient
from steps.ci import TakenJob, world
from steps.parsing import phrase

__all__ = ["Notes", "expand_controls", "job_of", "notes", "tamper"]

CONTROLS = {"{NUL}": "\x00", "{TAB}": "\t", "{LF}": "\n", "{CR}": "\r", "{EMPTY}": ""}
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")


@dataclass
class Notes:
    """What the scenario did with a job's artifacts: upload URLs, ids, contents."""

    upload_urls: dict[str, list[str]] = field(default_factory=dict)
    ids: dict[str, int] = field(default_factory=dict)
    contents: dict[str, bytes] = field(default_factory=dict)
    signed_url: str = ""


def notes(ctx: ScenarioContext, who: str = "job") -> Notes:
    """The notes of "job" or "other job"."""
    key = f"artifacts:{who}"
    found = world(ctx).values.get(key)
    if not isinstance(found, Notes):
        found = Notes()
        world(ctx).values[key] = found
    return found


def job_of(ctx: ScenarioContext, who: str = "job") -> TakenJob:
    """The running job the scenario calls "the job" (or "the other job")."""
    job = world(ctx).jobs.get(who)
    assert job is not None, f"no {who}: add `Given a mock runner has taken a job of a new repository`"
    return job


def expand_controls(text: str) -> str:
    """``{NUL}``, ``{TAB}``, ``{LF}``, ``{CR}`` and ``{EMPTY}`` as the characters they name."""
    for token, char in CONTROLS.items():
        text = text.replace(token, char)
    return text


def protocol(ctx: ScenarioContext, who: str = "job") -> ArtifactProtocol:
    """Raw artifact-protocol calls of a job, recorded in the scenario's transcript."""
    job = job_of(ctx, who)
    recorder = ctx.admin.http.recorder
    recorder.add_secret(job.runtime_token)
    return ArtifactProtocol(HttpClient(origin_of(ctx.admin.site_url), None, recorder=recorder), job.runtime_token)


def client(ctx: ScenarioContext, who: str = "job") -> ArtifactClient:
    """The kit's artifact client for a job (JSON, blocks, retries)."""
    session = RecordingSession(ctx.admin.http.recorder)
    return ArtifactClient(ctx.admin.site_url, job_of(ctx, who).runtime_token, progress=False, session=session)


def ids_of(job: TakenJob) -> dict[str, Any]:
    """The pair of backend ids every request carries, as protojson strings."""
    return {"workflow_run_backend_id": str(job.run_id), "workflow_job_run_backend_id": str(job.job_id)}


def reply(ctx: ScenarioContext) -> dict[str, Any]:
    """The last RPC's JSON reply."""
    body = json_of(ctx.last_response())
    assert isinstance(body, dict), f"the reply is not a JSON object: {body!r}"
    return body


def reply_field(body: dict[str, Any], name: str) -> Any:
    """A protojson field by its proto name or its lowerCamelCase JSON name."""
    camel = re.sub(r"_([a-z])", lambda match: match.group(1).upper(), name)
    for key in (name, camel):
        if key in body:
            return body[key]
    raise AssertionError(f'the reply has no field "{name}" (nor "{camel}"): {json.dumps(body)[:300]}')


def listed(ctx: ScenarioContext) -> list[dict[str, Any]]:
    """The artifacts of a ListArtifacts reply (protojson omits an empty list)."""
    items = reply(ctx).get("artifacts", [])
    assert isinstance(items, list), f"artifacts is not a list: {items!r}"
    return items


def current_names(ctx: ScenarioContext, who: str = "job") -> dict[str, int]:
    """What ListArtifacts answers now: name to size."""
    response = protocol(ctx, who).call_json("ListArtifacts", ids_of(job_of(ctx, who)))
    assert response.status_code == 200, f"ListArtifacts answered {response.status_code}: {response.text[:300]}"
    items = json_of(response).get("artifacts", [])
    return {str(item.get("name")): int(item.get("size", 0)) for item in items}


def tamper(url: str, how: str, other_id: int | None = None) -> str:
    """The signed URL changed as ``how`` says (query ``sig``/``expires``/``artifactID`` or the path's id)."""
    parts = urlsplit(url)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    query = dict(pairs)
    path = parts.path
    sig = query.get("sig", "")
    if how == "a tampered signature":
        query["sig"] = sig[:-1] + ("A" if not sig.endswith("A") else "B")
    elif how == "a truncated signature":
        query["sig"] = sig[: len(sig) // 2]
    elif how == "a padded signature":
        query["sig"] = sig + "="
    elif how == "no signature":
        query.pop("sig", None)
    elif how == "a changed expiry":
        digits = [index for index, char in enumerate(query["expires"]) if char.isdigit()]
        assert digits, f"the expiry {query['expires']!r} has no digit to change"
        last = digits[-1]
        value = query["expires"]
        query["expires"] = value[:last] + str((int(value[last]) + 1) % 10) + value[last + 1 :]
    else:
        match = re.search(r"/artifacts/(\d+)/", path)
        current = int(query.get("artifactID") or (match.group(1) if match else 0))
        new_id = other_id if other_id is not None else current + 1
        if "artifactID" in query:
            query["artifactID"] = str(new_id)
        if match:
            path = path.replace(f"/artifacts/{current}/", f"/artifacts/{new_id}/")
    return urlunsplit(parts._replace(path=path, query=urlencode(query)))


def other_id(ctx: ScenarioContext, how: str) -> int | None:
    match = re.fullmatch(r'the artifact id of "([^"]+)"', how)
    return notes(ctx).ids[match.group(1)] if match else None


# ---------------------------------------------------------------- helpers shared by the artifact steps


def create_artifact(ctx: ScenarioContext, name: str, who: str = "job") -> str:
    response = protocol(ctx, who).call_json("CreateArtifact", {**ids_of(job_of(ctx, who)), "name": name, "version": 4})
    assert response.status_code == 200, f"CreateArtifact answered {response.status_code}: {response.text[:300]}"
    url = str(reply_field(json_of(response), "signed_upload_url"))
    notes(ctx, who).upload_urls.setdefault(name, []).append(url)
    return url


def upload_url(ctx: ScenarioContext, name: str) -> str:
    urls = notes(ctx).upload_urls.get(name)
    assert urls, f'the artifact "{name}" was not created in this scenario'
    return urls[-1]


def put_all(ctx: ScenarioContext, name: str, data: bytes) -> None:
    url = upload_url(ctx, name)
    block = encode_block_id("block-0")
    for response in (protocol(ctx).put_block(url, block, data), protocol(ctx).put_block_list(url, [block])):
        assert response.status_code == 201, f"the upload answered {response.status_code}: {response.text[:200]}"
    notes(ctx).contents[name] = data


def upload_artifact(ctx: ScenarioContext, name: str, text: str, who: str = "job", mime_type: str | None = None) -> None:
    data = text.encode("utf-8")
    result = client(ctx, who).upload(name, io.BytesIO(data), mime_type=mime_type)
    notes(ctx, who).ids[name] = result.artifact_id
    notes(ctx, who).contents[name] = data


# ---------------------------------------------------------------- When: RPCs


def _fields_for(ctx: ScenarioContext, method: str, name: str) -> dict[str, Any]:
    fields: dict[str, Any] = {**ids_of(job_of(ctx)), "name": name}
    if method == "CreateArtifact":
        fields["version"] = 4
    return fields


@when(phrase('the job calls {method:Rpc} for "{name}"'))
def call_for_name(ctx: ScenarioContext, method: str, name: str) -> None:
    """A JSON call naming an artifact, with the job's ids (CreateArtifact as version 4)."""
    ctx.response = protocol(ctx).call_json(method, _fields_for(ctx, method, name))
    _note_reply(ctx, method, name)


def _note_reply(ctx: ScenarioContext, method: str, name: str) -> None:
    response = ctx.last_response()
    if response.status_code != 200 or "json" not in response.headers.get("Content-Type", ""):
        return
    body = json_of(response)
    if method == "CreateArtifact":
        notes(ctx).upload_urls.setdefault(name, []).append(str(reply_field(body, "signed_upload_url")))
    elif method == "FinalizeArtifact":
        notes(ctx).ids[name] = int(reply_field(body, "artifact_id"))
    elif method == "GetSignedArtifactURL":
        notes(ctx).signed_url = str(reply_field(body, "signed_url"))


_MESSAGES: dict[str, type[Any]] = {
    "CreateArtifact": artifact_pb2.CreateArtifactRequest,
    "GetSignedArtifactURL": artifact_pb2.GetSignedArtifactURLRequest,
    "DeleteArtifact": artifact_pb2.DeleteArtifactRequest,
    "ListArtifacts": artifact_pb2.ListArtifactsRequest,
    "FinalizeArtifact": artifact_pb2.FinalizeArtifactRequest,
}


def _binary(ctx: ScenarioContext, method: str, **fields: Any) -> None:
    job = job_of(ctx)
    message = _MESSAGES[method](
        workflow_run_backend_id=str(job.run_id), workflow_job_run_backend_id=str(job.job_id), **fields
    )
    ctx.response = protocol(ctx).call_binary(method, message.SerializeToString())


@when(phrase('the job calls {method:Rpc} for "{name}" in binary protobuf'))
def call_binary_for_name(ctx: ScenarioContext, method: str, name: str) -> None:
    """The same call as binary protobuf (Content-Type application/protobuf)."""
    extra = {"version": 4} if method == "CreateArtifact" else {}
    _binary(ctx, method, name=name, **extra)


@when(phrase("the job calls ListArtifacts in binary protobuf"))
def list_binary(ctx: ScenarioContext) -> None:
    """ListArtifacts as binary protobuf."""
    _binary(ctx, "ListArtifacts")


@when(phrase('the job calls CreateArtifact for "{name}" with version {version:d}'))
def create_with_version(ctx: ScenarioContext, name: str, version: int) -> None:
    """CreateArtifact with an explicit version."""
    ctx.response = protocol(ctx).call_json("CreateArtifact", {**ids_of(job_of(ctx)), "name": name, "version": version})


@when(phrase("the job calls {method:Rpc} with"))
def call_with_table(ctx: ScenarioContext, method: str, datatable: list[list[str]]) -> None:
    """A JSON call with the job's ids and the fields of the table (numbers sent as JSON numbers)."""
    fields: dict[str, Any] = dict(ids_of(job_of(ctx)))
    for key, value in datatable:
        fields[key.strip()] = int(value) if value.strip().isdigit() and key.strip() == "version" else value.strip()
    ctx.response = protocol(ctx).call_json(method, fields)


@when(phrase('the job calls CreateArtifact with lowerCamelCase field names for "{name}"'))
def create_camel(ctx: ScenarioContext, name: str) -> None:
    """CreateArtifact with ``workflowRunBackendId`` and ``workflowJobRunBackendId``."""
    job = job_of(ctx)
    fields = {"workflowRunBackendId": str(job.run_id), "workflowJobRunBackendId": str(job.job_id), "name": name}
    ctx.response = protocol(ctx).call_json("CreateArtifact", {**fields, "version": 4})


@when(phrase("the job calls ListArtifacts"))
def list_json(ctx: ScenarioContext) -> None:
    """ListArtifacts in JSON without filters."""
    ctx.response = protocol(ctx).call_json("ListArtifacts", ids_of(job_of(ctx)))


@when(phrase('the job calls ListArtifacts with the id filter of "{name}"'))
def list_by_id(ctx: ScenarioContext, name: str) -> None:
    """id_filter as a protojson int64 string."""
    fields = {**ids_of(job_of(ctx)), "id_filter": str(notes(ctx).ids[name])}
    ctx.response = protocol(ctx).call_json("ListArtifacts", fields)


@when(phrase('the job calls ListArtifacts with the id filter of "{name}" as a JSON number'))
def list_by_id_number(ctx: ScenarioContext, name: str) -> None:
    """id_filter as a JSON number."""
    fields = {**ids_of(job_of(ctx)), "id_filter": notes(ctx).ids[name]}
    ctx.response = protocol(ctx).call_json("ListArtifacts", fields)


@when(phrase("the job posts the body '{body}' to {method:Rpc} as \"{content_type}\""))
def post_raw_text(ctx: ScenarioContext, body: str, method: str, content_type: str) -> None:
    """A body sent as is."""
    ctx.response = protocol(ctx).post(method, body.encode("utf-8"), content_type)


@when(phrase('the job posts the bytes "{hex_bytes}" in hex to {method:Rpc} as "{content_type}"'))
def post_raw_bytes(ctx: ScenarioContext, hex_bytes: str, method: str, content_type: str) -> None:
    """Bytes sent as is."""
    ctx.response = protocol(ctx).post(method, bytes.fromhex(hex_bytes), content_type)


@when(phrase('the job calls the unknown RPC "{method}"'))
def call_unknown(ctx: ScenarioContext, method: str) -> None:
    """A method the service does not have."""
    ctx.response = protocol(ctx).call_json(method, {**ids_of(job_of(ctx)), "name": "x"})


@when(phrase('the job calls CreateArtifact for "{name}" without an authorization header'))
def create_without_auth(ctx: ScenarioContext, name: str) -> None:
    """No Authorization header at all."""
    ctx.response = protocol(ctx).call_json("CreateArtifact", _fields_for(ctx, "CreateArtifact", name), authorization="")


def _forged(job: TakenJob, defect: str) -> str:
    token = job.runtime_token
    header, payload, signature = token.split(".")
    if defect == "not a JWT":
        return "Bearer not-a-jwt"
    if defect == "empty":
        return "Bearer "
    if defect == "sent without the Bearer scheme":
        return f"token {token}"
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    if defect == "signed with another key":
        forged_sig = base64.urlsafe_b64encode(hashlib.sha256(b"another key" + payload.encode()).digest())
        return f"Bearer {header}.{payload}.{forged_sig.rstrip(b'=').decode()}"
    if defect == "the job's token with a changed run":
        claims["RunID"] = int(claims.get("RunID", job.run_id)) + 1000
        claims["scp"] = f"Actions.Results:{job.run_id + 1000}:{job.job_id}"
        changed = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
        return f"Bearer {header}.{changed}.{signature}"
    raise AssertionError(f"unknown token defect {defect!r}")


@when(phrase('the job calls CreateArtifact for "{name}" with a runtime token that is {defect}'))
def create_with_bad_token(ctx: ScenarioContext, name: str, defect: str) -> None:
    """A malformed or forged runtime token."""
    authorization = _forged(job_of(ctx), defect)
    ctx.response = protocol(ctx).call_json(
        "CreateArtifact", _fields_for(ctx, "CreateArtifact", name), authorization=authorization
    )


@when(phrase('the job calls {method:Rpc} for "{name}" naming the other job\'s run'))
def call_naming_other_run(ctx: ScenarioContext, method: str, name: str) -> None:
    """The job's token, the other job's run and job ids."""
    fields = {**_fields_for(ctx, method, name), **ids_of(job_of(ctx, "other job"))}
    ctx.response = protocol(ctx).call_json(method, fields)


@when(phrase("the job calls ListArtifacts naming the other job's run"))
def list_naming_other_run(ctx: ScenarioContext) -> None:
    """ListArtifacts for the other job's run with this job's token."""
    ctx.response = protocol(ctx).call_json("ListArtifacts", ids_of(job_of(ctx, "other job")))


@when(phrase('the job calls CreateArtifact for the name "{name}"'))
def create_with_name(ctx: ScenarioContext, name: str) -> None:
    """CreateArtifact with a name written with control-character placeholders."""
    ctx.response = protocol(ctx).call_json("CreateArtifact", _fields_for(ctx, "CreateArtifact", expand_controls(name)))


@when(phrase('the job calls CreateArtifact for "{name}" naming another job id'))
def create_other_job_id(ctx: ScenarioContext, name: str) -> None:
    """The token's run, but a job id that is not the token's."""
    fields = _fields_for(ctx, "CreateArtifact", name)
    fields["workflow_job_run_backend_id"] = str(job_of(ctx).job_id + 1000)
    ctx.response = protocol(ctx).call_json("CreateArtifact", fields)


def finalize_raw(ctx: ScenarioContext, name: str, size: int, hash_value: str | None) -> None:
    fields: dict[str, Any] = {**ids_of(job_of(ctx)), "name": name, "size": str(size)}
    if hash_value is not None:
        fields["hash"] = hash_value
    ctx.response = protocol(ctx).call_json("FinalizeArtifact", fields)
    _note_reply(ctx, "FinalizeArtifact", name)


def sha256_of(text: str) -> str:
    """``sha256:<hex>`` of a text's UTF-8 bytes."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


@when(phrase('the job finalizes "{name}" with size {size:d} and the sha256 hash of "{text}"'))
def finalize_with_hash(ctx: ScenarioContext, name: str, size: int, text: str) -> None:
    """FinalizeArtifact with a size and ``sha256:<hex>`` of a text."""
    finalize_raw(ctx, name, size, sha256_of(text))


@when(phrase('the job finalizes "{name}" with size {size:d} and the upper-case sha256 hash of "{text}"'))
def finalize_upper(ctx: ScenarioContext, name: str, size: int, text: str) -> None:
    """The hex digits in upper case."""
    finalize_raw(ctx, name, size, "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest().upper())


@when(phrase('the job finalizes "{name}" with size {size:d} and no hash'))
def finalize_no_hash(ctx: ScenarioContext, name: str, size: int) -> None:
    """FinalizeArtifact without the optional hash."""
    finalize_raw(ctx, name, size, None)


@when(phrase('the job finalizes "{name}" with size {size:d} and the hash "{hash_value}"'))
def finalize_given_hash(ctx: ScenarioContext, name: str, size: int, hash_value: str) -> None:
    """FinalizeArtifact with a hash written out."""
    finalize_raw(ctx, name, size, hash_value)


@when(phrase('the job finalizes "{name}" with size {size:d} and the sha256 hash of "{text}" in binary protobuf'))
def finalize_binary(ctx: ScenarioContext, name: str, size: int, text: str) -> None:
    """FinalizeArtifact as binary protobuf."""
    job = job_of(ctx)
    message = artifact_pb2.FinalizeArtifactRequest(
        workflow_run_backend_id=str(job.run_id), workflow_job_run_backend_id=str(job.job_id), name=name, size=size
    )
    message.hash.value = sha256_of(text)
    ctx.response = protocol(ctx).call_binary("FinalizeArtifact", message.SerializeToString())

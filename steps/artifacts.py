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

import pytest
from forge_proto import artifact_pb2
from pytest_bdd import when

from conformance.api.artifacts import ArtifactProtocol, RecordingSession, encode_block_id, origin_of
from conformance.client import HttpClient, json_of
from conformance.context import ScenarioContext
from mock_runner.artifacts import ArtifactClient
from mock_runner.daemon import TaskOutcome
from steps.ci import CiWorld, TakenJob
from steps.common import expect_status
from steps.parsing import phrase

__all__ = ["ArtifactWorld", "Notes", "expand_controls", "other_id", "tamper"]

CONTROLS = {"{NUL}": "\x00", "{TAB}": "\t", "{LF}": "\n", "{CR}": "\r", "{EMPTY}": ""}
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")


@dataclass
class Notes:
    """What the scenario did with a job's artifacts: upload URLs, ids, contents."""

    upload_urls: dict[str, list[str]] = field(default_factory=dict)
    ids: dict[str, int] = field(default_factory=dict)
    contents: dict[str, bytes] = field(default_factory=dict)
    signed_url: str = ""


@dataclass
class ArtifactWorld:
    """The artifact steps' state: the CI world's running jobs, what each did with its artifacts, and what
    the REST and CI-path steps obtained (a raw zip URL, downloaded zips, the daemon's outcome)."""

    ctx: ScenarioContext
    ci: CiWorld
    by_job: dict[str, Notes] = field(default_factory=dict)
    raw_zip_url: str = ""
    zips: dict[str, bytes] = field(default_factory=dict)
    daemon_outcome: TaskOutcome | None = None
    clock_offset: float | None = None

    def notes(self, who: str = "job") -> Notes:
        """The notes of "job" or "other job"."""
        return self.by_job.setdefault(who, Notes())

    def job(self, who: str = "job") -> TakenJob:
        """The running job the scenario calls "the job" (or "the other job")."""
        return self.ci.job(who)

    def protocol(self, who: str = "job") -> ArtifactProtocol:
        """Raw artifact-protocol calls of a job, recorded in the scenario's transcript."""
        job = self.job(who)
        recorder = self.ctx.admin.http.recorder
        recorder.add_secret(job.runtime_token)
        origin = HttpClient(origin_of(self.ctx.admin.site_url), None, recorder=recorder)
        return ArtifactProtocol(origin, job.runtime_token)

    def client(self, who: str = "job") -> ArtifactClient:
        """The kit's artifact client for a job (JSON, blocks, retries)."""
        session = RecordingSession(self.ctx.admin.http.recorder)
        return ArtifactClient(self.ctx.admin.site_url, self.job(who).runtime_token, progress=False, session=session)

    def current_names(self, who: str = "job") -> dict[str, int]:
        """What ListArtifacts answers now: name to size."""
        response = self.protocol(who).call_json("ListArtifacts", ids_of(self.job(who)))
        items = expect_status(response, 200, "ListArtifacts").get("artifacts", [])
        return {str(item.get("name")): int(item.get("size", 0)) for item in items}


@pytest.fixture
def artifacts(ctx: ScenarioContext, ci_world: CiWorld) -> ArtifactWorld:
    """The scenario's artifact state, over its CI world."""
    return ArtifactWorld(ctx, ci_world)


def expand_controls(text: str) -> str:
    """``{NUL}``, ``{TAB}``, ``{LF}``, ``{CR}`` and ``{EMPTY}`` as the characters they name."""
    for token, char in CONTROLS.items():
        text = text.replace(token, char)
    return text


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


def tamper(url: str, how: str, other_id: int | None = None) -> str:
    """The signed URL changed as ``how`` says (query ``sig``/``expires``/``artifactID`` or the path's id)."""
    parts = urlsplit(url)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    query = dict(pairs)
    path = parts.path
    sig = query.get("sig", "")
    if how == "a tampered signature":
        # the first character: all six of its bits count (the last one's low bits are padding, which Go's
        # lenient base64 ignores, so changing it may decode to the same MAC on Gitea)
        query["sig"] = ("B" if sig.startswith("A") else "A") + sig[1:]
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


def other_id(artifacts: ArtifactWorld, how: str) -> int | None:
    """The id of the artifact ``how`` names (``the artifact id of "x"``), else None."""
    match = re.fullmatch(r'the artifact id of "([^"]+)"', how)
    return artifacts.notes().ids[match.group(1)] if match else None


# ---------------------------------------------------------------- helpers shared by the artifact steps


def create_artifact(artifacts: ArtifactWorld, name: str, who: str = "job") -> str:
    response = artifacts.protocol(who).call_json(
        "CreateArtifact", {**ids_of(artifacts.job(who)), "name": name, "version": 4}
    )
    assert response.status_code == 200, f"CreateArtifact answered {response.status_code}: {response.text[:300]}"
    url = str(reply_field(json_of(response), "signed_upload_url"))
    artifacts.notes(who).upload_urls.setdefault(name, []).append(url)
    return url


def upload_url(artifacts: ArtifactWorld, name: str) -> str:
    urls = artifacts.notes().upload_urls.get(name)
    assert urls, f'the artifact "{name}" was not created in this scenario'
    return urls[-1]


def put_all(artifacts: ArtifactWorld, name: str, data: bytes) -> None:
    url = upload_url(artifacts, name)
    block = encode_block_id("block-0")
    for response in (
        artifacts.protocol().put_block(url, block, data),
        artifacts.protocol().put_block_list(url, [block]),
    ):
        assert response.status_code == 201, f"the upload answered {response.status_code}: {response.text[:200]}"
    artifacts.notes().contents[name] = data


def upload_artifact(
    artifacts: ArtifactWorld, name: str, text: str, who: str = "job", mime_type: str | None = None
) -> None:
    data = text.encode("utf-8")
    result = artifacts.client(who).upload(name, io.BytesIO(data), mime_type=mime_type)
    artifacts.notes(who).ids[name] = result.artifact_id
    artifacts.notes(who).contents[name] = data


# ---------------------------------------------------------------- When: RPCs


def _fields_for(artifacts: ArtifactWorld, method: str, name: str) -> dict[str, Any]:
    fields: dict[str, Any] = {**ids_of(artifacts.job()), "name": name}
    if method == "CreateArtifact":
        fields["version"] = 4
    return fields


@when(phrase('the job calls {method:Rpc} for "{name}"'))
def call_for_name(ctx: ScenarioContext, artifacts: ArtifactWorld, method: str, name: str) -> None:
    """A JSON call naming an artifact, with the job's ids (CreateArtifact as version 4)."""
    ctx.response = artifacts.protocol().call_json(method, _fields_for(artifacts, method, name))
    _note_reply(artifacts, method, name)


def _note_reply(artifacts: ArtifactWorld, method: str, name: str) -> None:
    response = artifacts.ctx.last_response()
    if response.status_code != 200 or "json" not in response.headers.get("Content-Type", ""):
        return
    body = json_of(response)
    if method == "CreateArtifact":
        artifacts.notes().upload_urls.setdefault(name, []).append(str(reply_field(body, "signed_upload_url")))
    elif method == "FinalizeArtifact":
        artifacts.notes().ids[name] = int(reply_field(body, "artifact_id"))
    elif method == "GetSignedArtifactURL":
        artifacts.notes().signed_url = str(reply_field(body, "signed_url"))


_MESSAGES: dict[str, type[Any]] = {
    "CreateArtifact": artifact_pb2.CreateArtifactRequest,
    "GetSignedArtifactURL": artifact_pb2.GetSignedArtifactURLRequest,
    "DeleteArtifact": artifact_pb2.DeleteArtifactRequest,
    "ListArtifacts": artifact_pb2.ListArtifactsRequest,
    "FinalizeArtifact": artifact_pb2.FinalizeArtifactRequest,
}


def _binary(artifacts: ArtifactWorld, method: str, **fields: Any) -> None:
    job = artifacts.job()
    message = _MESSAGES[method](
        workflow_run_backend_id=str(job.run_id), workflow_job_run_backend_id=str(job.job_id), **fields
    )
    artifacts.ctx.response = artifacts.protocol().call_binary(method, message.SerializeToString())


@when(phrase('the job calls {method:Rpc} for "{name}" in binary protobuf'))
def call_binary_for_name(artifacts: ArtifactWorld, method: str, name: str) -> None:
    """The same call as binary protobuf (Content-Type application/protobuf)."""
    extra = {"version": 4} if method == "CreateArtifact" else {}
    _binary(artifacts, method, name=name, **extra)


@when(phrase("the job calls ListArtifacts in binary protobuf"))
def list_binary(artifacts: ArtifactWorld) -> None:
    """ListArtifacts as binary protobuf."""
    _binary(artifacts, "ListArtifacts")


@when(phrase('the job calls CreateArtifact for "{name}" with version {version:d}'))
def create_with_version(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str, version: int) -> None:
    """CreateArtifact with an explicit version."""
    ctx.response = artifacts.protocol().call_json(
        "CreateArtifact", {**ids_of(artifacts.job()), "name": name, "version": version}
    )


@when(phrase("the job calls {method:Rpc} with"))
def call_with_table(ctx: ScenarioContext, artifacts: ArtifactWorld, method: str, datatable: list[list[str]]) -> None:
    """A JSON call with the job's ids and the fields of the table (numbers sent as JSON numbers)."""
    fields: dict[str, Any] = dict(ids_of(artifacts.job()))
    for key, value in datatable:
        fields[key.strip()] = int(value) if value.strip().isdigit() and key.strip() == "version" else value.strip()
    ctx.response = artifacts.protocol().call_json(method, fields)


@when(phrase('the job calls CreateArtifact with lowerCamelCase field names for "{name}"'))
def create_camel(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> None:
    """CreateArtifact with ``workflowRunBackendId`` and ``workflowJobRunBackendId``."""
    job = artifacts.job()
    fields = {"workflowRunBackendId": str(job.run_id), "workflowJobRunBackendId": str(job.job_id), "name": name}
    ctx.response = artifacts.protocol().call_json("CreateArtifact", {**fields, "version": 4})


@when(phrase("the job calls ListArtifacts"))
def list_json(ctx: ScenarioContext, artifacts: ArtifactWorld) -> None:
    """ListArtifacts in JSON without filters."""
    ctx.response = artifacts.protocol().call_json("ListArtifacts", ids_of(artifacts.job()))


@when(phrase('the job calls ListArtifacts with the id filter of "{name}"'))
def list_by_id(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> None:
    """id_filter as a protojson int64 string."""
    fields = {**ids_of(artifacts.job()), "id_filter": str(artifacts.notes().ids[name])}
    ctx.response = artifacts.protocol().call_json("ListArtifacts", fields)


@when(phrase('the job calls ListArtifacts with the id filter of "{name}" as a JSON number'))
def list_by_id_number(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> None:
    """id_filter as a JSON number."""
    fields = {**ids_of(artifacts.job()), "id_filter": artifacts.notes().ids[name]}
    ctx.response = artifacts.protocol().call_json("ListArtifacts", fields)


@when(phrase("the job posts the body '{body}' to {method:Rpc} as \"{content_type}\""))
def post_raw_text(ctx: ScenarioContext, artifacts: ArtifactWorld, body: str, method: str, content_type: str) -> None:
    """A body sent as is."""
    ctx.response = artifacts.protocol().post(method, body.encode("utf-8"), content_type)


@when(phrase('the job posts the bytes "{hex_bytes}" in hex to {method:Rpc} as "{content_type}"'))
def post_raw_bytes(
    ctx: ScenarioContext, artifacts: ArtifactWorld, hex_bytes: str, method: str, content_type: str
) -> None:
    """Bytes sent as is."""
    ctx.response = artifacts.protocol().post(method, bytes.fromhex(hex_bytes), content_type)


@when(phrase('the job calls the unknown RPC "{method}"'))
def call_unknown(ctx: ScenarioContext, artifacts: ArtifactWorld, method: str) -> None:
    """A method the service does not have."""
    ctx.response = artifacts.protocol().call_json(method, {**ids_of(artifacts.job()), "name": "x"})


@when(phrase('the job calls CreateArtifact for "{name}" without an authorization header'))
def create_without_auth(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> None:
    """No Authorization header at all."""
    ctx.response = artifacts.protocol().call_json(
        "CreateArtifact", _fields_for(artifacts, "CreateArtifact", name), authorization=""
    )


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
def create_with_bad_token(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str, defect: str) -> None:
    """A malformed or forged runtime token."""
    authorization = _forged(artifacts.job(), defect)
    ctx.response = artifacts.protocol().call_json(
        "CreateArtifact", _fields_for(artifacts, "CreateArtifact", name), authorization=authorization
    )


@when(phrase('the job calls {method:Rpc} for "{name}" naming the other job\'s run'))
def call_naming_other_run(ctx: ScenarioContext, artifacts: ArtifactWorld, method: str, name: str) -> None:
    """The job's token, the other job's run and job ids."""
    fields = {**_fields_for(artifacts, method, name), **ids_of(artifacts.job("other job"))}
    ctx.response = artifacts.protocol().call_json(method, fields)


@when(phrase("the job calls ListArtifacts naming the other job's run"))
def list_naming_other_run(ctx: ScenarioContext, artifacts: ArtifactWorld) -> None:
    """ListArtifacts for the other job's run with this job's token."""
    ctx.response = artifacts.protocol().call_json("ListArtifacts", ids_of(artifacts.job("other job")))


@when(phrase('the job calls CreateArtifact for the name "{name}"'))
def create_with_name(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> None:
    """CreateArtifact with a name written with control-character placeholders."""
    ctx.response = artifacts.protocol().call_json(
        "CreateArtifact", _fields_for(artifacts, "CreateArtifact", expand_controls(name))
    )


@when(phrase('the job calls CreateArtifact for "{name}" naming another job id'))
def create_other_job_id(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str) -> None:
    """The token's run, but a job id that is not the token's."""
    fields = _fields_for(artifacts, "CreateArtifact", name)
    fields["workflow_job_run_backend_id"] = str(artifacts.job().job_id + 1000)
    ctx.response = artifacts.protocol().call_json("CreateArtifact", fields)


def finalize_raw(artifacts: ArtifactWorld, name: str, size: int, hash_value: str | None) -> None:
    fields: dict[str, Any] = {**ids_of(artifacts.job()), "name": name, "size": str(size)}
    if hash_value is not None:
        fields["hash"] = hash_value
    artifacts.ctx.response = artifacts.protocol().call_json("FinalizeArtifact", fields)
    _note_reply(artifacts, "FinalizeArtifact", name)


def sha256_of(text: str) -> str:
    """``sha256:<hex>`` of a text's UTF-8 bytes."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


@when(phrase('the job finalizes "{name}" with size {size:d} and the sha256 hash of "{text}"'))
def finalize_with_hash(artifacts: ArtifactWorld, name: str, size: int, text: str) -> None:
    """FinalizeArtifact with a size and ``sha256:<hex>`` of a text."""
    finalize_raw(artifacts, name, size, sha256_of(text))


@when(phrase('the job finalizes "{name}" with size {size:d} and the upper-case sha256 hash of "{text}"'))
def finalize_upper(artifacts: ArtifactWorld, name: str, size: int, text: str) -> None:
    """The hex digits in upper case."""
    finalize_raw(artifacts, name, size, "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest().upper())


@when(phrase('the job finalizes "{name}" with size {size:d} and no hash'))
def finalize_no_hash(artifacts: ArtifactWorld, name: str, size: int) -> None:
    """FinalizeArtifact without the optional hash."""
    finalize_raw(artifacts, name, size, None)


@when(phrase('the job finalizes "{name}" with size {size:d} and the hash "{hash_value}"'))
def finalize_given_hash(artifacts: ArtifactWorld, name: str, size: int, hash_value: str) -> None:
    """FinalizeArtifact with a hash written out."""
    finalize_raw(artifacts, name, size, hash_value)


@when(phrase('the job finalizes "{name}" with size {size:d} and the sha256 hash of "{text}" in binary protobuf'))
def finalize_binary(ctx: ScenarioContext, artifacts: ArtifactWorld, name: str, size: int, text: str) -> None:
    """FinalizeArtifact as binary protobuf."""
    job = artifacts.job()
    message = artifact_pb2.FinalizeArtifactRequest(
        workflow_run_backend_id=str(job.run_id), workflow_job_run_backend_id=str(job.job_id), name=name, size=size
    )
    message.hash.value = sha256_of(text)
    ctx.response = artifacts.protocol().call_binary("FinalizeArtifact", message.SerializeToString())

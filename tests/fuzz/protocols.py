"""Hypothesis over the bodies of the artifact protocol (Twirp) and the runner protocol (Connect).

Each method is called by a caller that passes authentication (a running task's runtime token, a
registered runner's uuid and token) so the body really reaches the decoder. Bodies: random bytes,
truncated valid protobuf, protobuf whose fields carry the wrong wire types, random, truncated and
deeply nested JSON, random content types, and for Connect invalid gzip and a gzip bomb. The rule: an
answer is 2xx only for a body that decodes as the method's request message; anything else is a 4xx
carrying the protocol's error body (Twirp ``{"code","msg"}``, Connect ``{"code","message"}``) with a
client-error code; never a 5xx.
"""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from forge_proto.github.actions.results.api.v1 import artifact_pb2
from forge_proto.ping.v1 import ping_pb2
from forge_proto.runner.v1 import runner_pb2
from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from reference_server.errors import CONNECT_STATUS, TWIRP_STATUS

from .world import ADMIN, ADMIN_TOKEN, REPO, World

__all__ = ["ProtocolFinding", "ProtocolFuzzReport", "Target", "fuzz_protocols"]

TWIRP = "/twirp/github.actions.results.api.v1.ArtifactService/"
RUNNER = "/api/actions/runner.v1.RunnerService/"
PING = "/api/actions/ping.v1.PingService/Ping"
SERVER_CODES = frozenset({"internal", "unknown", "data_loss", "unavailable"})
CONTENT_TYPES = (
    "application/json",
    "application/protobuf",
    "application/proto",
    "application/x-protobuf",
    "text/plain",
    "application/grpc",
    "multipart/form-data; boundary=x",
    "application/json; charset=latin-1",
    "",
)


@dataclass(frozen=True)
class Target:
    """One method: its path, the protocol, the request message type and a valid example of it."""

    name: str
    path: str
    protocol: str  # "twirp" or "connect"
    message: type[Message]
    example: Message
    headers: dict[str, str]


@dataclass(frozen=True)
class Body:
    """One generated request: bytes, content type, optional Content-Encoding, and how it was made."""

    kind: str
    data: bytes
    content_type: str
    encoding: str = ""


@dataclass(frozen=True)
class ProtocolFinding:
    target: str
    kind: str
    status: int
    problem: str
    body: bytes

    def describe(self) -> str:
        return f"{self.target} [{self.kind}] -> {self.status}: {self.problem}; body {self.body[:120]!r}"


@dataclass
class ProtocolFuzzReport:
    targets: int = 0
    examples: int = 0
    seconds: float = 0.0
    kinds: dict[str, int] = field(default_factory=dict)
    findings: list[ProtocolFinding] = field(default_factory=list)

    def summary(self) -> str:
        kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(self.kinds.items()))
        return (
            f"{self.targets} methods, {self.examples} bodies ({kinds}), {len(self.findings)} findings, "
            f"{self.seconds:.1f} s"
        )


# --- strategies -------------------------------------------------------------------------------------

_JSON_LEAVES = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
_JSON = st.recursive(
    _JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


@st.composite
def _wrong_wire_types(draw: st.DrawFn, target: Target) -> bytes:
    """Fields of the message under a wire type other than their declared one (or an unknown number)."""
    numbers = [f.number for f in target.message.DESCRIPTOR.fields] or [1]
    out = bytearray()
    for _ in range(draw(st.integers(1, 4))):
        number = draw(st.sampled_from([*numbers, draw(st.integers(1, 2**29 - 1))]))
        wire = draw(st.sampled_from([0, 1, 2, 3, 4, 5, 6, 7]))
        out += _varint(number << 3 | wire)
        if wire == 0:
            out += _varint(draw(st.integers(0, 2**64 - 1)))
        elif wire == 1:
            out += draw(st.binary(min_size=8, max_size=8))
        elif wire == 2:
            payload = draw(st.binary(max_size=40))
            out += _varint(draw(st.sampled_from([len(payload), len(payload) + 7, 2**40]))) + payload
        elif wire == 5:
            out += draw(st.binary(min_size=4, max_size=4))
    return bytes(out)


def _json_fields(target: Target) -> st.SearchStrategy[dict[str, Any]]:
    """Objects using the message's own field names (both spellings) with values of any JSON type."""
    names = [name for f in target.message.DESCRIPTOR.fields for name in (f.name, f.json_name)]
    return st.dictionaries(st.sampled_from(names), _JSON, max_size=5)


def _bodies(target: Target) -> st.SearchStrategy[Body]:
    proto_type = "application/protobuf" if target.protocol == "twirp" else "application/proto"
    valid_proto = target.example.SerializeToString()
    valid_json = json_format.MessageToJson(target.example, indent=None).encode()
    kinds: list[st.SearchStrategy[Body]] = [
        st.builds(
            Body, st.just("random bytes"), st.binary(max_size=512), st.sampled_from([proto_type, "application/json"])
        ),
        st.integers(0, max(len(valid_proto) - 1, 0)).map(
            lambda cut: Body("truncated protobuf", valid_proto[:cut], proto_type)
        ),
        _wrong_wire_types(target).map(lambda data: Body("wrong wire types", data, proto_type)),
        _JSON.map(lambda value: Body("random JSON", json.dumps(value).encode(), "application/json")),
        _json_fields(target).map(
            lambda value: Body("wrong JSON types", json.dumps(value).encode(), "application/json")
        ),
        st.integers(1, max(len(valid_json) - 1, 1)).map(
            lambda cut: Body("truncated JSON", valid_json[:cut], "application/json")
        ),
        st.tuples(st.integers(50, 200_000), st.sampled_from(["[", '{"a":', '{"workflowRunBackendId":'])).map(
            lambda depth: Body("deep JSON", (depth[1] * depth[0]).encode(), "application/json")
        ),
        st.tuples(st.sampled_from(CONTENT_TYPES), st.sampled_from([valid_proto, valid_json, b"", b"\xff\xfe"])).map(
            lambda pair: Body("content types", pair[1], pair[0])
        ),
    ]
    if target.protocol == "connect":
        kinds += [
            st.binary(max_size=64).map(lambda data: Body("invalid gzip", data, proto_type, "gzip")),
            st.integers(1, 30).map(
                lambda cut: Body("truncated gzip", gzip.compress(valid_proto)[:cut], proto_type, "gzip")
            ),
            st.just(Body("gzip bomb", _gzip_bomb(), proto_type, "gzip")),
            st.sampled_from(["br", "deflate", "zstd", "gzip, gzip"]).map(
                lambda encoding: Body("content encodings", valid_proto, proto_type, encoding)
            ),
        ]
    return st.one_of(kinds)


_BOMB: list[bytes] = []


def _gzip_bomb() -> bytes:
    """64 MiB of zeros in about 64 KiB of gzip: more than the server's body limit once inflated."""
    if not _BOMB:
        _BOMB.append(gzip.compress(bytes(64 * 1024 * 1024), compresslevel=9))
    return _BOMB[0]


# --- the judge ---------------------------------------------------------------------------------------


def _decodes(target: Target, body: Body) -> bool:
    """Whether the body is a well-formed request message in the codec its content type names."""
    media = body.content_type.split(";", 1)[0].strip().lower()
    data = body.data
    if body.encoding == "gzip":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError):
            return False
    elif body.encoding:
        return False
    try:
        if media in ("application/protobuf", "application/proto", "application/x-protobuf"):
            target.message().ParseFromString(data)
            return True
        if media in ("application/json", "") and data.strip():
            json_format.Parse(data.decode("utf-8"), target.message(), ignore_unknown_fields=True)
            return True
    except (DecodeError, json_format.ParseError, UnicodeDecodeError, RecursionError, ValueError):
        return False
    return False


def _connect_unimplemented(response: TestResponse) -> str | None:
    """Connect's rule for an unsupported Content-Encoding: code ``unimplemented`` (HTTP 501), as connect-go."""
    error = json.loads(response.get_data(as_text=True) or "null")
    if isinstance(error, dict) and error.get("code") == "unimplemented" and error.get("message"):
        return None
    return f"an unsupported encoding must be Connect's unimplemented error, got {error!r:.200}"


def judge(target: Target, body: Body, response: TestResponse) -> str | None:
    """What is wrong with the answer, or None."""
    status = response.status_code
    if status == 501 and target.protocol == "connect" and body.encoding not in ("", "gzip"):
        return _connect_unimplemented(response)
    if status >= 500:
        return f"server error {status}: {response.get_data(as_text=True)[:200]}"
    if 200 <= status < 300:
        return None if _decodes(target, body) else "accepted a body that is not a valid request message"
    if not 400 <= status < 500:
        return f"unexpected status {status}"
    try:
        error = json.loads(response.get_data(as_text=True))
    except ValueError:
        return "the error body is not JSON"
    message_key, codes = ("msg", TWIRP_STATUS) if target.protocol == "twirp" else ("message", CONNECT_STATUS)
    if not isinstance(error, dict) or set(error) != {"code", message_key}:
        return f"the error body is not the protocol's: {error!r:.200}"
    if error["code"] not in codes or error["code"] in SERVER_CODES:
        return f"the error code {error['code']!r} is not a client error"
    if not isinstance(error[message_key], str) or not error[message_key]:
        return "the error message is empty"
    return None


# --- set-up: callers that pass authentication ---------------------------------------------------------


def _targets(world: World) -> list[Target]:
    client = world.client
    admin = {"Authorization": f"token {ADMIN_TOKEN}"}
    token = client.post(f"/api/v1/repos/{ADMIN}/{REPO}/actions/runners/registration-token", headers=admin)
    register = runner_pb2.RegisterRequest(name="fuzz", token=token.get_json()["token"], labels=["ubuntu-latest"])
    proto = {"Content-Type": "application/proto", "Connect-Protocol-Version": "1"}
    registered = runner_pb2.RegisterResponse.FromString(
        client.post(RUNNER + "Register", data=register.SerializeToString(), headers=proto).get_data()
    )
    runner = {"x-runner-uuid": registered.runner.uuid, "x-runner-token": registered.runner.token}
    fetched = runner_pb2.FetchTaskResponse.FromString(
        client.post(RUNNER + "FetchTask", data=b"", headers={**proto, **runner}).get_data()
    )
    task = fetched.task
    runtime = task.context.fields["gitea_runtime_token"].string_value
    run_id = task.context.fields["run_id"].string_value or "1"
    bearer = {"Authorization": f"Bearer {runtime}"}
    pb = artifact_pb2
    run, job = run_id, "1"  # the running job's own ids, so a valid example passes the id check
    twirp: list[tuple[str, type[Message], Message]] = [
        (
            "CreateArtifact",
            pb.CreateArtifactRequest,
            pb.CreateArtifactRequest(workflow_run_backend_id=run, workflow_job_run_backend_id=job, name="a", version=4),
        ),
        (
            "FinalizeArtifact",
            pb.FinalizeArtifactRequest,
            pb.FinalizeArtifactRequest(workflow_run_backend_id=run, workflow_job_run_backend_id=job, name="a", size=3),
        ),
        (
            "ListArtifacts",
            pb.ListArtifactsRequest,
            pb.ListArtifactsRequest(workflow_run_backend_id=run, workflow_job_run_backend_id=job),
        ),
        (
            "GetSignedArtifactURL",
            pb.GetSignedArtifactURLRequest,
            pb.GetSignedArtifactURLRequest(workflow_run_backend_id=run, workflow_job_run_backend_id=job, name="a"),
        ),
        (
            "DeleteArtifact",
            pb.DeleteArtifactRequest,
            pb.DeleteArtifactRequest(workflow_run_backend_id=run, workflow_job_run_backend_id=job, name="a"),
        ),
    ]
    state = runner_pb2.TaskState(id=task.id)
    connect = [
        ("Register", runner_pb2.RegisterRequest, runner_pb2.RegisterRequest(name="x", token="bad", labels=["l"]), {}),
        ("Declare", runner_pb2.DeclareRequest, runner_pb2.DeclareRequest(version="v1", labels=["l"]), runner),
        ("FetchTask", runner_pb2.FetchTaskRequest, runner_pb2.FetchTaskRequest(tasks_version=1), runner),
        ("UpdateTask", runner_pb2.UpdateTaskRequest, runner_pb2.UpdateTaskRequest(state=state), runner),
        ("UpdateLog", runner_pb2.UpdateLogRequest, runner_pb2.UpdateLogRequest(task_id=task.id, index=0), runner),
    ]
    targets = [Target(name, TWIRP + name, "twirp", kind, example, bearer) for name, kind, example in twirp]
    targets += [
        Target(name, RUNNER + name, "connect", kind, example, {"Connect-Protocol-Version": "1", **headers})
        for name, kind, example, headers in connect
    ]
    targets.append(Target("Ping", PING, "connect", ping_pb2.PingRequest, ping_pb2.PingRequest(data="x"), {}))
    return targets


def fuzz_protocols(*, examples: int, run_seed: int, select: Callable[[str], bool] | None = None) -> ProtocolFuzzReport:
    """``examples`` bodies for each method of both protocols; findings collected, not raised."""
    started = time.monotonic()
    report = ProtocolFuzzReport()
    world = World.build()
    try:
        for target in _targets(world):
            if select is not None and not select(target.name):
                continue
            report.targets += 1
            _fuzz_target(world, target, examples, run_seed, report)
    finally:
        world.close()
    report.seconds = time.monotonic() - started
    return report


def _fuzz_target(world: World, target: Target, examples: int, run_seed: int, report: ProtocolFuzzReport) -> None:
    client = world.client

    @seed(run_seed)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(body=_bodies(target))
    def run(body: Body) -> None:
        headers = dict(target.headers)
        if body.content_type:
            headers["Content-Type"] = body.content_type
        if body.encoding:
            headers["Content-Encoding"] = body.encoding
        response = client.post(target.path, data=body.data, headers=headers)
        report.examples += 1
        report.kinds[body.kind] = report.kinds.get(body.kind, 0) + 1
        problem = judge(target, body, response)
        if problem is not None:
            report.findings.append(ProtocolFinding(target.name, body.kind, response.status_code, problem, body.data))

    run()

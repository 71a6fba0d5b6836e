"""Unit tests of the CI steps' helpers: URL tampering, the protobuf wire reader, block ids, forged tokens."""

from __future__ import annotations

import base64
import json
from urllib.parse import parse_qsl, urlsplit

import jwt
import pytest
from forge_proto import artifact_pb2

from conformance.api.artifacts import block_list_body, encode_block_id, origin_of, wire_fields
from mock_runner.protocol import RunnerClient
from steps.artifacts import _forged, expand_controls, tamper
from steps.ci import TakenJob, simple_workflow, workflow_of

SIGNED = (
    "http://forge.test/twirp/github.actions.results.api.v1.ArtifactService/DownloadArtifact"
    "?sig=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG&expires=1800000000&artifactName=report&taskID=7&artifactID=12"
)
RAW = "http://forge.test/sub/api/v1/repos/o/r/actions/artifacts/12/zip/raw?sig=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG&expires=1800000000"


def query(url: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))


@pytest.mark.parametrize(
    ("how", "key"),
    [
        ("a tampered signature", "sig"),
        ("a truncated signature", "sig"),
        ("a padded signature", "sig"),
        ("a changed expiry", "expires"),
        ("a changed artifact id", "artifactID"),
    ],
)
def test_tamper_changes_exactly_one_parameter(how: str, key: str) -> None:
    before, after = query(SIGNED), query(tamper(SIGNED, how))
    assert after[key] != before[key]
    assert {k: v for k, v in after.items() if k != key} == {k: v for k, v in before.items() if k != key}


def test_tamper_padding_and_truncation_have_the_expected_shape() -> None:
    sig = query(SIGNED)["sig"]
    assert query(tamper(SIGNED, "a padded signature"))["sig"] == sig + "="
    assert sig.startswith(query(tamper(SIGNED, "a truncated signature"))["sig"])


@pytest.mark.parametrize("last", ["A", "B", "C", "D", "w", "_"])
def test_a_tampered_signature_decodes_to_other_bytes_even_where_padding_bits_are_ignored(last: str) -> None:
    """Go's lenient base64 ignores the last character's two padding bits: changing it may change nothing."""
    sig = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEF" + last
    url = SIGNED.replace("sig=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG", f"sig={sig}")
    tampered = query(tamper(url, "a tampered signature"))["sig"]

    def lenient(text: str) -> bytes:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

    assert len(tampered) == len(sig) and lenient(tampered) != lenient(sig)


def test_tamper_removes_the_signature() -> None:
    assert "sig" not in query(tamper(SIGNED, "no signature"))


def test_tamper_moves_the_artifact_id_in_the_path_of_a_raw_url() -> None:
    changed = tamper(RAW, 'the artifact id of "x"', other_id=99)
    assert urlsplit(changed).path == "/sub/api/v1/repos/o/r/actions/artifacts/99/zip/raw"
    assert query(changed) == query(RAW)


def test_tamper_changes_a_digit_of_a_non_numeric_expiry() -> None:
    url = SIGNED.replace("expires=1800000000", "expires=2026-11-22+03%3A00%3A00+%2B0000+UTC")
    assert query(tamper(url, "a changed expiry"))["expires"] == "2026-11-22 03:00:00 +0001 UTC"


def test_wire_fields_reads_a_create_artifact_response_by_number() -> None:
    message = artifact_pb2.CreateArtifactResponse(ok=True, signed_upload_url="http://x/y?sig=1")
    fields = wire_fields(message.SerializeToString())
    assert [(field.number, field.wire_type) for field in fields] == [(1, 0), (2, 2)]
    assert fields[0].value == 1
    assert fields[1].value == b"http://x/y?sig=1"


def test_wire_fields_reads_nested_list_items() -> None:
    item = artifact_pb2.ListArtifactsResponse_MonolithArtifact(
        workflow_run_backend_id="3", workflow_job_run_backend_id="4", database_id=5, name="n", size=6
    )
    item.created_at.FromSeconds(1_800_000_000)
    reply = artifact_pb2.ListArtifactsResponse(artifacts=[item, item])
    entries = wire_fields(reply.SerializeToString())
    assert [entry.number for entry in entries] == [1, 1]
    assert isinstance(entries[0].value, bytes)
    inner = {field.number: field.value for field in wire_fields(entries[0].value)}
    assert inner[1] == b"3" and inner[2] == b"4" and inner[3] == 5 and inner[4] == b"n" and inner[5] == 6
    assert isinstance(inner[6], bytes)
    assert wire_fields(inner[6])[0].value == 1_800_000_000


@pytest.mark.parametrize("data", [b"\xff\xff\xff\xff", b"\x0a\x05ab", b"\x07", b"\x00\x01"])
def test_wire_fields_refuses_what_is_not_a_message(data: bytes) -> None:
    with pytest.raises(ValueError, match=r"\w"):
        wire_fields(data)


def test_block_ids_and_block_lists_are_what_the_azure_sdk_sends() -> None:
    block = encode_block_id("first")
    assert base64.b64decode(block) == b"first"
    assert block_list_body([]).endswith(b"<BlockList/>")
    assert block_list_body([block, "Yg=="]).endswith(
        f"<BlockList><Latest>{block}</Latest><Latest>Yg==</Latest></BlockList>".encode()
    )


def test_origin_drops_the_sub_path() -> None:
    assert origin_of("https://forge.test:8443/sub/path/") == "https://forge.test:8443/"


def test_control_placeholders_expand() -> None:
    assert expand_controls("a{NUL}b{TAB}c{LF}d{CR}") == "a\x00b\tc\nd\r"
    assert expand_controls("{EMPTY}") == ""


def _job(token: str) -> TakenJob:
    return TakenJob("main", 1, 10, 20, token, None, RunnerClient("http://forge.test"))  # type: ignore[arg-type]


def test_forged_tokens_keep_their_claims_but_lose_their_signature() -> None:
    token = jwt.encode(
        {"scp": "Actions.Results:10:20", "RunID": 10, "TaskID": 1, "JobID": 20},
        "secret-key-of-32-bytes-or-longer!!",
        algorithm="HS256",
    )
    job = _job(token)
    other_key = _forged(job, "signed with another key").removeprefix("Bearer ")
    assert other_key.rsplit(".", 1)[0] == token.rsplit(".", 1)[0]
    assert other_key != token
    changed = _forged(job, "the job's token with a changed run").removeprefix("Bearer ")
    payload = changed.split(".")[1]
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    assert claims["RunID"] == 1010 and claims["scp"] == "Actions.Results:1010:20"
    assert changed.split(".")[2] == token.split(".")[2]
    assert _forged(job, "sent without the Bearer scheme") == f"token {token}"
    with pytest.raises(AssertionError, match="unknown token defect"):
        _forged(job, "made of cheese")


def test_simple_workflow_and_run_paths() -> None:
    assert simple_workflow(None, "lbl").startswith("on: [push]\n")
    assert "name: CI\n" in simple_workflow("CI", "lbl")
    assert workflow_of({"path": "ci.yml@refs/heads/main"}) == "ci.yml"
    assert workflow_of({"path": ".gitea/workflows/ci.yml@refs/heads/main"}) == "ci.yml"


def test_recording_session_writes_protocol_traffic_into_the_transcript_masked() -> None:
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from conformance.api.artifacts import RecordingSession
    from conformance.client import Recorder

    class Answer(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"data": "Hello, x!"}')

        def log_message(self, format: str, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        recorder = Recorder()
        client = RunnerClient(
            f"http://127.0.0.1:{server.server_port}",
            "uuid",
            "secret-runner-token",
            codec="json",
            session=RecordingSession(recorder),
        )
        assert client.ping("x") == "Hello, x!"
    finally:
        server.shutdown()
    (exchange,) = recorder.page()
    assert exchange.url.endswith("/api/actions/ping.v1.PingService/Ping")
    assert exchange.status == 200
    assert exchange.request_headers["x-runner-token"] == "***"
    assert exchange.response_body.startswith('{"data"')

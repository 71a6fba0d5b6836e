"""The checked-in generated protobuf code matches its sources (connect-python's ``checkgenerate``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_regenerating_changes_nothing() -> None:
    pytest.importorskip("grpc_tools", reason="grpcio-tools is a dev dependency: pip install -e '.[dev]'")
    result = subprocess.run(
        [sys.executable, str(ROOT / "proto" / "generate.py"), "--check"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


def test_artifact_messages_keep_the_specified_field_numbers() -> None:
    from forge_proto import artifact_pb2

    expected = {
        "CreateArtifactRequest": {
            "workflow_run_backend_id": 1,
            "workflow_job_run_backend_id": 2,
            "name": 3,
            "expires_at": 4,
            "version": 5,
            "mime_type": 6,
        },
        "FinalizeArtifactRequest": {"name": 3, "size": 4, "hash": 5},
        "ListArtifactsRequest": {"name_filter": 3, "id_filter": 4},
        "ListArtifactsResponse_MonolithArtifact": {"database_id": 3, "name": 4, "size": 5, "created_at": 6},
        "GetSignedArtifactURLResponse": {"signed_url": 1},
        "DeleteArtifactResponse": {"ok": 1, "artifact_id": 2},
    }
    for message, fields in expected.items():
        descriptor = artifact_pb2.DESCRIPTOR.message_types_by_name[message]
        assert {name: descriptor.fields_by_name[name].number for name in fields} == fields
    wrappers = artifact_pb2.DESCRIPTOR.message_types_by_name["ListArtifactsRequest"].fields_by_name
    wrapper_types = {
        name: getattr(wrappers[name].message_type, "full_name", None) for name in ("name_filter", "id_filter")
    }
    assert wrapper_types == {"name_filter": "google.protobuf.StringValue", "id_filter": "google.protobuf.Int64Value"}
    service = artifact_pb2.DESCRIPTOR.services_by_name["ArtifactService"]
    assert [m.name for m in service.methods] == [
        "CreateArtifact",
        "FinalizeArtifact",
        "ListArtifacts",
        "GetSignedArtifactURL",
        "DeleteArtifact",
    ]
    assert artifact_pb2.DESCRIPTOR.package == "github.actions.results.api.v1"

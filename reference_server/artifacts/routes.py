"""Wire handlers of the artifact protocol: the five Twirp RPCs and the signed upload/download URLs.

Everything sits at ``/twirp/github.actions.results.api.v1.ArtifactService/<Method>`` at the origin
root (the sub-path middleware leaves ``/twirp/`` alone). The REST artifact endpoints are in
:mod:`.rest_api`; :func:`register` installs both.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, Response, request
from forge_proto import artifact_pb2 as pb
from google.protobuf.message import Message

from ..access import JOB_OR_SIGNED, SIGNED, token
from ..context import Forge
from ..endpoints import ANY_METHOD, API, EMPTY, FILE, WIRE, Endpoint
from ..errors import TwirpError
from ..events import RepoDeletedEvent
from . import legacy_routes, models, rest_api
from .blob_upload import handle_upload, signed_query
from .serve import serve_stored
from .twirp import Caller, Codec, authenticate, check_ids, codec_of_request, decode, encode

__all__ = ["ENDPOINTS", "SERVICE_PATH", "register"]

SERVICE_PATH = models.TWIRP_SERVICE_PATH
ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]


def create_artifact(caller: Caller, codec: Codec) -> Message:
    req = decode(codec, pb.CreateArtifactRequest())
    check_ids(caller, req.workflow_run_backend_id, req.workflow_job_run_backend_id)
    row = models.create_artifact(
        models.CreateRequest(
            repo_id=caller.repo_id,
            run_id=caller.run_id,
            job_id=caller.job_id,
            task_id=caller.task_id,
            name=req.name,
            version=req.version,
            mime_type=req.mime_type.value if req.HasField("mime_type") else None,
            expires_at=req.expires_at.seconds if req.HasField("expires_at") else None,
        )
    )
    url = models.signed_twirp_url("UploadArtifact", row, caller.task_id)
    return pb.CreateArtifactResponse(ok=True, signed_upload_url=url)


def finalize_artifact(caller: Caller, codec: Codec) -> Message:
    req = decode(codec, pb.FinalizeArtifactRequest())
    check_ids(caller, req.workflow_run_backend_id, req.workflow_job_run_backend_id)
    hash_value = req.hash.value if req.HasField("hash") else None
    row = models.finalize_artifact(caller.run_id, req.name, req.size, hash_value)
    return pb.FinalizeArtifactResponse(ok=True, artifact_id=row.id)


def list_artifacts(caller: Caller, codec: Codec) -> Message:
    req = decode(codec, pb.ListArtifactsRequest())
    check_ids(caller, req.workflow_run_backend_id, req.workflow_job_run_backend_id)
    rows = models.list_run_artifacts(
        caller.run_id,
        name=req.name_filter.value if req.HasField("name_filter") else None,
        artifact_id=req.id_filter.value if req.HasField("id_filter") else None,
    )
    answer = pb.ListArtifactsResponse()
    for row in rows:
        item = answer.artifacts.add(
            workflow_run_backend_id=req.workflow_run_backend_id,
            workflow_job_run_backend_id=req.workflow_job_run_backend_id,
            database_id=row.id,
            name=row.name,
            size=row.size,
        )
        item.created_at.FromSeconds(row.created)
        if row.sha256:
            item.digest.value = models.digest_of(row)
    return answer


def get_signed_artifact_url(caller: Caller, codec: Codec) -> Message:
    req = decode(codec, pb.GetSignedArtifactURLRequest())
    check_ids(caller, req.workflow_run_backend_id, req.workflow_job_run_backend_id)
    row = models.downloadable_in_run(caller.run_id, req.name)
    return pb.GetSignedArtifactURLResponse(signed_url=models.signed_twirp_url("DownloadArtifact", row, caller.task_id))


def delete_artifact(caller: Caller, codec: Codec) -> Message:
    req = decode(codec, pb.DeleteArtifactRequest())
    check_ids(caller, req.workflow_run_backend_id, req.workflow_job_run_backend_id)
    artifact_id = models.delete_artifact(caller.run_id, req.name)
    return pb.DeleteArtifactResponse(ok=True, artifact_id=artifact_id)


RPCS: dict[str, Callable[[Caller, Codec], Message]] = {
    "CreateArtifact": create_artifact,
    "FinalizeArtifact": finalize_artifact,
    "ListArtifacts": list_artifacts,
    "GetSignedArtifactURL": get_signed_artifact_url,
    "DeleteArtifact": delete_artifact,
}


def download_artifact() -> Response:
    """``GET DownloadArtifact?...``: the signature is the authorization (checked first), then the artifact."""
    name, artifact_id = signed_query("DownloadArtifact")
    return serve_stored(models.downloadable_by_id(artifact_id, name))


def twirp_endpoint(method: str) -> Response:
    """Route one call of the service: the signed blob URLs, else a POSTed RPC."""
    if method == "UploadArtifact" and request.method == "PUT":
        return handle_upload()
    if method == "DownloadArtifact" and request.method in ("GET", "HEAD"):
        return download_artifact()
    handler = RPCS.get(method)
    if handler is None:
        raise TwirpError("bad_route", f"no such method: {request.method} {request.path}")
    if request.method != "POST":
        raise TwirpError("bad_route", f"unsupported method {request.method} (only POST is allowed)")
    codec = codec_of_request()
    caller = authenticate()
    return encode(codec, handler(caller, codec))


def register(app: Flask) -> None:
    """Install the repository-deletion listener and sweep crash leftovers."""
    fg: Forge = app.extensions["forge"]

    def on_repo_deleted(event: RepoDeletedEvent) -> None:
        with app.app_context():
            models.delete_artifacts_of_repo(event.repo_id)

    fg.events.subscribe(RepoDeletedEvent, on_repo_deleted)
    legacy_routes.register(app)
    with app.app_context():
        models.recover_storage()


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/actions/artifacts",
        "artifacts_list",
        rest_api.list_repo_artifacts,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="artifact_list",
        errors=(400, 404),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/actions/runs/<int:run_id>/artifacts",
        "artifacts_of_run",
        rest_api.list_run_artifacts,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="artifact_list",
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/actions/artifacts/<int:artifact_id>",
        "artifacts_get",
        rest_api.get_artifact,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="artifact",
        errors=(400, 404),
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/actions/artifacts/<int:artifact_id>",
        "artifacts_delete",
        rest_api.delete_artifact,
        "repository",
        token("repository", repo="write"),
        status=204,
        returns=EMPTY,
        errors=(400, 404),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/actions/artifacts/<int:artifact_id>/zip",
        "artifacts_zip",
        rest_api.artifact_zip,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        status=302,
        returns=EMPTY,
        errors=(400, 404),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/actions/artifacts/<int:artifact_id>/zip/raw",
        "artifacts_zip_raw",
        rest_api.artifact_zip_raw,
        "repository",
        SIGNED,
        returns=FILE,
    ),
    Endpoint(
        ANY_METHOD,
        "/twirp/github.actions.results.api.v1.ArtifactService/<method>",
        "artifacts_twirp",
        twirp_endpoint,
        "artifacts",
        JOB_OR_SIGNED,
        returns=WIRE,
    ),
    *legacy_routes.ENDPOINTS,
)

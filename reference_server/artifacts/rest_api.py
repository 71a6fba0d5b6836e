"""REST artifact endpoints under ``/api/v1/repos/{owner}/{repo}/actions/`` (Gitea's shapes and codes).

Reads need read access to the repository (public repositories anonymously) and a ``repository``
scope; delete needs write access. ``.../zip`` answers 302 to ``.../zip/raw?sig=&expires=``, whose
signature (over the artifact id and the repository id, 1 hour) is its only authorization: an account
token never stands in for it.
"""

from __future__ import annotations

from urllib.parse import quote, urlencode

from flask import Response, redirect, request
from werkzeug.wrappers import Response as BaseResponse

from ..actions import models as actions
from ..context import forge
from ..errors import NotFound, Unauthorized
from ..permissions import current_repo
from ..repos.models import get_repo
from ..rest import empty, json_response, page_params, paged_response
from ..signing import UrlCheck, stray_parameter
from . import models, store
from .errors import ArtifactExpired, RestArtifactNotFound, RunNotFound
from .presenters import artifact_to_api
from .serve import serve_raw

__all__ = [
    "artifact_zip",
    "artifact_zip_raw",
    "delete_artifact",
    "get_artifact",
    "list_repo_artifacts",
    "list_run_artifacts",
]

ZIP_PURPOSE = "ArtifactZip"
PREFIX = "/api/v1/repos/<owner>/<repo>/actions"


def _repo() -> tuple[int, str, str]:
    """(id, owner name, repo name) of the route's repository, checked before the view."""
    found = current_repo()
    return found.id, found.owner_name, found.name


class _HeadShas:
    """The head commit of each run an answer mentions, looked up once per run."""

    def __init__(self) -> None:
        self._known: dict[int, str] = {}

    def __call__(self, run_id: int) -> str:
        if run_id not in self._known:
            run = actions.get_run(run_id)
            self._known[run_id] = run.head_sha if run is not None else ""
        return self._known[run_id]


def _listing(owner: str, repo: str, run_id: int | None) -> Response:
    repo_id, owner_name, repo_name = _repo()
    if run_id is not None:
        run = actions.get_run(run_id) if run_id <= store.MAX_ID else None
        if run is None or run.repo_id != repo_id:
            raise RunNotFound
    page = page_params()
    rows, total = models.repo_artifacts(
        repo_id, name=request.args.get("name") or None, run_id=run_id, limit=page.limit, offset=page.offset
    )
    head_sha = _HeadShas()
    payload = {
        "artifacts": [artifact_to_api(row, owner_name, repo_name, head_sha(row.run_id)) for row in rows],
        "total_count": total,
    }
    return paged_response(payload, page, total)


def list_repo_artifacts(owner: str, repo: str) -> Response:
    return _listing(owner, repo, None)


def list_run_artifacts(owner: str, repo: str, run_id: int) -> Response:
    return _listing(owner, repo, run_id)


def get_artifact(owner: str, repo: str, artifact_id: int) -> Response:
    repo_id, owner_name, repo_name = _repo()
    row = models.repo_artifact(repo_id, artifact_id)
    return json_response(artifact_to_api(row, owner_name, repo_name, _HeadShas()(row.run_id)))


def delete_artifact(owner: str, repo: str, artifact_id: int) -> Response:
    repo_id, _, _ = _repo()
    models.delete_by_id(models.repo_artifact(repo_id, artifact_id))
    return empty(204)


def artifact_zip(owner: str, repo: str, artifact_id: int) -> BaseResponse:
    """302 to the signed raw URL (the official client asserts the redirect)."""
    repo_id, owner_name, repo_name = _repo()
    row = models.repo_artifact(repo_id, artifact_id)
    fg = forge()
    if models.is_expired(row, fg.now()):
        raise ArtifactExpired
    signed = fg.signer.sign(
        ZIP_PURPOSE,
        {"artifactID": str(row.id), "repoID": str(repo_id)},
        now=fg.now(),
        lifetime=fg.config.limits.signed_url_lifetime_seconds,
    )
    path = f"repos/{quote(owner_name, safe='')}/{quote(repo_name, safe='')}/actions/artifacts/{row.id}/zip/raw"
    query = urlencode({"sig": signed["sig"], "expires": signed["expires"]})
    return redirect(fg.api_url(path) + "?" + query, code=302)


def artifact_zip_raw(owner: str, repo: str, artifact_id: int) -> Response:
    """The bytes behind a signed raw URL (a ZIP, or a single file as stored): the signature first (401),
    then the artifact (404)."""
    fg = forge()
    try:
        repo_id: int | None = get_repo(owner, repo).id
    except NotFound:
        repo_id = None
    query = {
        "sig": request.args.get("sig", ""),
        "expires": request.args.get("expires", ""),
        "artifactID": str(artifact_id),
        "repoID": str(repo_id or 0),
    }
    outcome = fg.signer.check(ZIP_PURPOSE, query, now=fg.now())
    if stray_parameter(request.args.items(multi=True), ("sig", "expires")) is not None:
        outcome = UrlCheck.BAD_SIGNATURE  # the signature binds the whole query: nothing may be added or repeated
    if outcome is UrlCheck.MALFORMED:
        raise Unauthorized("a valid signature (sig and expires) is required; account tokens are not accepted here")
    if outcome is UrlCheck.BAD_SIGNATURE:
        raise Unauthorized("the signature of this URL does not match")
    if outcome is UrlCheck.EXPIRED:
        raise Unauthorized("this signed URL has expired")
    if repo_id is None:
        raise RestArtifactNotFound
    row = models.repo_artifact(repo_id, artifact_id)
    if models.is_expired(row, fg.now()):
        raise ArtifactExpired
    return serve_raw(row)

"""REST routes of forks, fork sync, migrations and mirrors (thin: scope check, parse, call the model, render)."""

from __future__ import annotations

from flask import Response

from ..access import token
from ..auth import current_principal, optional_principal
from ..endpoints import EMPTY, Endpoint
from ..permissions import current_repo
from ..repos.presenters import repo_to_api
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import models, sync

__all__ = ["ENDPOINTS"]

API = "/api/v1"


def create_fork(owner: str, repo: str) -> Response:
    """Fork a repository (202 with the new ``Repository``, as Gitea)."""
    principal = current_principal()
    parent = current_repo()
    fork = models.create_fork(parent, principal, json_body())
    return json_response(repo_to_api(fork), status=202)


def list_forks(owner: str, repo: str) -> Response:
    """List a repository's forks the caller can see."""
    parent = current_repo()
    page = page_params()
    forks, total = models.list_forks(parent, optional_principal(), page.offset, page.limit)
    return paged_response([repo_to_api(fork) for fork in forks], page, total)


def repo_merge_upstream(owner: str, repo: str) -> Response:
    """Bring a fork's branch up to date with its base (``{"merge_type"}``)."""
    principal = current_principal()
    fork = current_repo()
    return json_response({"merge_type": sync.merge_upstream(fork, principal, json_body())})


def repo_sync_fork_info(owner: str, repo: str, branch: str = "") -> Response:
    """Forgejo's ``SyncForkInfo`` of a fork branch (the default branch when none is named)."""
    fork = current_repo()
    return json_response(sync.sync_info(fork, branch).to_api())


def repo_sync_fork(owner: str, repo: str, branch: str = "") -> Response:
    """Forgejo's sync: fast-forward a fork branch to its base branch (204)."""
    principal = current_principal()
    sync.sync_fork(current_repo(), principal, branch)
    return empty()


def repo_migrate() -> Response:
    """Migrate (or mirror) a Git repository from an http(s) URL (201 ``Repository``)."""
    principal = current_principal()
    return json_response(repo_to_api(models.migrate(principal, json_body())), status=201)


def repo_mirror_sync(owner: str, repo: str) -> Response:
    """Fetch a pull mirror's remote now (200, no body)."""
    principal = current_principal()
    models.sync_mirror(current_repo(), principal)
    return empty(200)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/forks",
        "createFork",
        create_fork,
        "repository",
        token("repository", repo="read"),
        body="CreateForkOption",
        status=202,
        returns="repository",
        errors=(403, 404, 409, 422),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/forks",
        "listForks",
        list_forks,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="[repository]",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/merge-upstream",
        "repoMergeUpstream",
        repo_merge_upstream,
        "repository",
        token("repository", repo="write"),
        body="MergeUpstreamRequest",
        returns="merge_upstream_response",
        errors=(400, 404),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/sync_fork",
        "repoSyncForkDefaultInfo",
        repo_sync_fork_info,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="sync_fork_info",
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/sync_fork/<path:branch>",
        "repoSyncForkBranchInfo",
        repo_sync_fork_info,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="sync_fork_info",
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/sync_fork",
        "repoSyncForkDefault",
        repo_sync_fork,
        "repository",
        token("repository", repo="write"),
        status=204,
        returns=EMPTY,
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/sync_fork/<path:branch>",
        "repoSyncForkBranch",
        repo_sync_fork,
        "repository",
        token("repository", repo="write"),
        status=204,
        returns=EMPTY,
    ),
    Endpoint(
        "POST",
        API + "/repos/migrate",
        "repoMigrate",
        repo_migrate,
        "repository",
        token("repository"),
        body="MigrateRepoOptions",
        status=201,
        returns="repository",
        errors=(403, 409, 422),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/mirror-sync",
        "repoMirrorSync",
        repo_mirror_sync,
        "repository",
        token("repository", repo="write"),
        returns=EMPTY,
        errors=(403, 404),
    ),
)

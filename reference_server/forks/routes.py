"""REST routes of forks, fork sync, migrations and mirrors (thin: scope check, parse, call the model, render)."""

from __future__ import annotations

from flask import Flask, Response

from ..auth import check_scope, current_principal, optional_principal
from ..repos import models as repos
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import models, sync

__all__ = ["register"]

API = "/api/v1"


def create_fork(owner: str, repo: str) -> Response:
    """Fork a repository (202 with the new ``Repository``, as Gitea)."""
    check_scope("repository")
    principal = current_principal()
    parent = repos.require_repo(owner, repo, "read")
    fork = models.create_fork(parent, principal, json_body())
    return json_response(repos.repo_to_api(fork), status=202)


def list_forks(owner: str, repo: str) -> Response:
    """List a repository's forks the caller can see."""
    check_scope("repository", anonymous_ok=True)
    parent = repos.require_repo(owner, repo, "read")
    page = page_params()
    forks, total = models.list_forks(parent, optional_principal(), page.offset, page.limit)
    return paged_response([repos.repo_to_api(fork) for fork in forks], page, total)


def repo_merge_upstream(owner: str, repo: str) -> Response:
    """Bring a fork's branch up to date with its base (``{"merge_type"}``)."""
    check_scope("repository")
    principal = current_principal()
    fork = repos.require_repo(owner, repo, "write")
    return json_response({"merge_type": sync.merge_upstream(fork, principal, json_body())})


def repo_sync_fork_info(owner: str, repo: str, branch: str = "") -> Response:
    """Forgejo's ``SyncForkInfo`` of a fork branch (the default branch when none is named)."""
    check_scope("repository", anonymous_ok=True)
    fork = repos.require_repo(owner, repo, "read")
    return json_response(sync.sync_info(fork, branch).to_api())


def repo_sync_fork(owner: str, repo: str, branch: str = "") -> Response:
    """Forgejo's sync: fast-forward a fork branch to its base branch (204)."""
    check_scope("repository")
    principal = current_principal()
    sync.sync_fork(repos.require_repo(owner, repo, "write"), principal, branch)
    return empty()


def repo_migrate() -> Response:
    """Migrate (or mirror) a Git repository from an http(s) URL (201 ``Repository``)."""
    check_scope("repository")
    principal = current_principal()
    return json_response(repos.repo_to_api(models.migrate(principal, json_body())), status=201)


def repo_mirror_sync(owner: str, repo: str) -> Response:
    """Fetch a pull mirror's remote now (200, no body)."""
    check_scope("repository")
    principal = current_principal()
    models.sync_mirror(repos.require_repo(owner, repo, "write"), principal)
    return empty(200)


def register(app: Flask) -> None:
    """Attach the fork, sync, migration and mirror routes; endpoint names are Gitea's operation ids."""
    base = f"{API}/repos/<owner>/<repo>"
    app.add_url_rule(f"{base}/forks", "createFork", create_fork, methods=["POST"])
    app.add_url_rule(f"{base}/forks", "listForks", list_forks, methods=["GET"])
    app.add_url_rule(f"{base}/merge-upstream", "repoMergeUpstream", repo_merge_upstream, methods=["POST"])
    app.add_url_rule(f"{base}/sync_fork", "repoSyncForkDefaultInfo", repo_sync_fork_info, methods=["GET"])
    app.add_url_rule(f"{base}/sync_fork/<path:branch>", "repoSyncForkBranchInfo", repo_sync_fork_info, methods=["GET"])
    app.add_url_rule(f"{base}/sync_fork", "repoSyncForkDefault", repo_sync_fork, methods=["POST"])
    app.add_url_rule(f"{base}/sync_fork/<path:branch>", "repoSyncForkBranch", repo_sync_fork, methods=["POST"])
    app.add_url_rule(f"{API}/repos/migrate", "repoMigrate", repo_migrate, methods=["POST"])
    app.add_url_rule(f"{base}/mirror-sync", "repoMirrorSync", repo_mirror_sync, methods=["POST"])

"""REST routes of repositories and contents, and Git smart HTTP (thin: scope check, parse, call the model, render)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, Response, request

from ..auth import check_scope, current_principal, optional_principal
from ..errors import Forbidden
from ..rest import empty, json_body, json_response, page_params, paged_response
from ..users import models as users
from . import contents, contents_ext, diffpatch, edit, file_changes, githttp, models
from .commit_gate import require_unarchived

__all__ = ["register"]

API = "/api/v1"


def create_current_user_repo() -> Response:
    """Create a repository of the authenticated user."""
    check_scope("user")
    check_scope("repository")
    principal = current_principal()
    repo = models.create_repo(users.get_user(principal.user_id), json_body(required=("name",)), principal)
    return json_response(models.repo_to_api(repo), status=201)


def create_org_repo(org: str) -> Response:
    """Create a repository in an organization (organization owner)."""
    from ..orgs import models as orgs

    check_scope("organization")
    check_scope("repository")
    principal = current_principal()
    owner = orgs.get_org(org, principal)
    if not principal.is_admin and not orgs.is_org_owner(principal.user_id, owner.id):
        raise Forbidden("Given user is not allowed to create repository in organization.")
    repo = models.create_repo(owner, json_body(required=("name",)), principal)
    return json_response(models.repo_to_api(repo), status=201)


def user_current_list_repos() -> Response:
    """List the repositories the authenticated user owns."""
    check_scope("user")
    check_scope("repository")
    principal = current_principal()
    page = page_params()
    public_only = "public-only" in principal.scopes
    repos, total = models.list_repos_of_owner(principal.user_id, page.limit, page.offset, public_only=public_only)
    return paged_response([models.repo_to_api(repo) for repo in repos], page, total)


def org_list_repos(org: str) -> Response:
    """List an organization's repositories the caller can see."""
    from ..orgs import models as orgs

    check_scope("organization", anonymous_ok=True)
    check_scope("repository", anonymous_ok=True)
    principal = optional_principal()
    owner = orgs.get_org(org, principal)
    page = page_params()
    visible = [repo for repo in models.repos_of_owner(owner.id) if models.permission(principal, repo).can_read]
    visible.sort(key=lambda repo: repo.name.lower())
    chunk = visible[page.offset : page.offset + page.limit]
    return paged_response([models.repo_to_api(repo) for repo in chunk], page, len(visible))


def repo_get(owner: str, repo: str) -> Response:
    """A repository."""
    check_scope("repository", anonymous_ok=True)
    return json_response(models.repo_to_api(models.require_repo(owner, repo, "read")))


def repo_edit(owner: str, repo: str) -> Response:
    """Edit a repository's name, description, website, visibility, default branch, units or archived state."""
    check_scope("repository")
    current_principal()
    found = models.require_repo(owner, repo, "admin")
    return json_response(models.repo_to_api(edit.edit_repo(found, json_body())))


def repo_delete(owner: str, repo: str) -> Response:
    """Delete a repository (owner, organization owner or site admin)."""
    check_scope("repository")
    current_principal()
    models.delete_repo(models.require_repo(owner, repo, "admin"))
    return empty()


def repo_get_contents_list(owner: str, repo: str) -> Response:
    """The entries of the root directory at a ref."""
    return repo_get_contents(owner, repo, "")


def repo_get_contents(owner: str, repo: str, filepath: str) -> Response:
    """A file (with its content) or a directory listing at a ref."""
    check_scope("repository", anonymous_ok=True)
    found = models.require_repo(owner, repo, "read")
    return json_response(contents.get_contents(found, filepath, request.args.get("ref") or None))


def repo_get_contents_ext_root(owner: str, repo: str) -> Response:
    """The extended contents of the root directory."""
    return repo_get_contents_ext(owner, repo, "")


def repo_get_contents_ext(owner: str, repo: str, filepath: str) -> Response:
    """A file or directory with the metadata ``includes`` asks for (file_content, lfs_metadata, commit_*)."""
    check_scope("repository", anonymous_ok=True)
    includes = contents_ext.parse_includes(request.args.get("includes"))
    found = models.require_repo(owner, repo, "read")
    ref = request.args.get("ref") or None
    return json_response(contents_ext.get_contents_ext(found, filepath, ref, includes))


def repo_get_file_contents(owner: str, repo: str) -> Response:
    """Several files in one call, the paths in ``?body={"files": [...]}``."""
    check_scope("repository", anonymous_ok=True)
    found = models.require_repo(owner, repo, "read")
    paths = contents_ext.files_from_query(request.args.get("body"))
    return json_response(contents_ext.get_files(found, paths, request.args.get("ref") or None))


def repo_get_file_contents_post(owner: str, repo: str) -> Response:
    """Several files in one call (a token with write:repository, as Gitea asks for a POST)."""
    check_scope("repository")
    found = models.require_repo(owner, repo, "read")
    paths = contents_ext.files_from_body(json_body())
    return json_response(contents_ext.get_files(found, paths, request.args.get("ref") or None))


def _writable(owner: str, repo: str) -> models.Repo:
    """The repository for a contents write: scope, caller, write permission, not archived."""
    check_scope("repository")
    current_principal()
    found = models.require_repo(owner, repo, "write")
    require_unarchived(found)
    return found


def repo_change_files(owner: str, repo: str) -> Response:
    """Create, update, upload, rename and delete several files in one commit."""
    found = _writable(owner, repo)
    return json_response(file_changes.change_files(found, json_body(required=("files",)), current_principal()), 201)


def repo_apply_diff_patch(owner: str, repo: str) -> Response:
    """Apply a unified diff to a branch in one commit."""
    found = _writable(owner, repo)
    return json_response(diffpatch.apply_diff_patch(found, json_body(required=("content",)), current_principal()), 201)


def _write(owner: str, repo: str, filepath: str, operation: contents.Operation, required: tuple[str, ...]) -> Response:
    found = _writable(owner, repo)
    principal = current_principal()
    options = json_body(required=required)
    change = contents.change_file(found, filepath, operation, options, principal)
    return json_response(change.body, status=change.status)


def repo_create_file(owner: str, repo: str, filepath: str) -> Response:
    """Create a file in one commit."""
    return _write(owner, repo, filepath, "create", ("content",))


def repo_update_file(owner: str, repo: str, filepath: str) -> Response:
    """Update a file (sha given) or create it (no sha) in one commit."""
    return _write(owner, repo, filepath, "update", ("content",))


def repo_delete_file(owner: str, repo: str, filepath: str) -> Response:
    """Delete a file in one commit."""
    return _write(owner, repo, filepath, "delete", ("sha",))


def register(app: Flask) -> None:
    """Attach the repository and contents routes; endpoint names are Gitea's operation ids."""
    repo_path = "/repos/<owner>/<repo>"
    rules: list[tuple[str, str, Callable[..., Response], list[str]]] = [
        ("/user/repos", "createCurrentUserRepo", create_current_user_repo, ["POST"]),
        ("/user/repos", "userCurrentListRepos", user_current_list_repos, ["GET"]),
        ("/orgs/<org>/repos", "createOrgRepo", create_org_repo, ["POST"]),
        ("/orgs/<org>/repos", "orgListRepos", org_list_repos, ["GET"]),
        (repo_path, "repoGet", repo_get, ["GET"]),
        (repo_path, "repoEdit", repo_edit, ["PATCH"]),
        (repo_path, "repoDelete", repo_delete, ["DELETE"]),
        (f"{repo_path}/contents", "repoChangeFiles", repo_change_files, ["POST"]),
        (f"{repo_path}/contents-ext", "repoGetContentsExtRoot", repo_get_contents_ext_root, ["GET"]),
        (f"{repo_path}/contents-ext/", "repoGetContentsExtRootSlash", repo_get_contents_ext_root, ["GET"]),
        (f"{repo_path}/contents-ext/<path:filepath>", "repoGetContentsExt", repo_get_contents_ext, ["GET"]),
        (f"{repo_path}/file-contents", "repoGetFileContents", repo_get_file_contents, ["GET"]),
        (f"{repo_path}/file-contents", "repoGetFileContentsPost", repo_get_file_contents_post, ["POST"]),
        (f"{repo_path}/diffpatch", "repoApplyDiffPatch", repo_apply_diff_patch, ["POST"]),
        (f"{repo_path}/contents", "repoGetContentsList", repo_get_contents_list, ["GET"]),
        (f"{repo_path}/contents/<path:filepath>", "repoGetContents", repo_get_contents, ["GET"]),
        (f"{repo_path}/contents/<path:filepath>", "repoCreateFile", repo_create_file, ["POST"]),
        (f"{repo_path}/contents/<path:filepath>", "repoUpdateFile", repo_update_file, ["PUT"]),
        (f"{repo_path}/contents/<path:filepath>", "repoDeleteFile", repo_delete_file, ["DELETE"]),
    ]
    for path, endpoint, view, methods in rules:
        app.add_url_rule(API + path, endpoint=endpoint, view_func=view, methods=methods)
    git = "/<owner>/<repo>.git"
    app.add_url_rule(f"{git}/info/refs", endpoint="gitInfoRefs", view_func=githttp.info_refs, methods=["GET"])
    services = '<any("git-upload-pack", "git-receive-pack"):service>'
    app.add_url_rule(f"{git}/{services}", endpoint="gitServiceRpc", view_func=githttp.service_rpc, methods=["POST"])

"""REST routes of repositories and contents, and Git smart HTTP (thin: scope check, parse, call the model, render)."""

from __future__ import annotations

from flask import Response, request

from ..access import ADMIN, GIT, token
from ..auth import current_principal, optional_principal
from ..endpoints import EMPTY, WIRE, Endpoint
from ..errors import Forbidden
from ..permissions import can_create_org_repo, current_org, current_repo, current_user, permission
from ..rest import empty, json_body, json_response, page_params, paged_response
from ..users import models as users
from . import contents, contents_ext, diffpatch, edit, file_changes, models, unadopted
from .commit_gate import require_unarchived
from .creation import create_repo
from .errors import RepoNotFound
from .githttp import info_refs, service_rpc
from .presenters import repo_to_api

__all__ = ["ENDPOINTS"]

API = "/api/v1"


def create_current_user_repo() -> Response:
    """Create a repository of the authenticated user."""
    principal = current_principal()
    repo = create_repo(users.get_user(principal.user_id), json_body(), principal)
    return json_response(repo_to_api(repo), status=201)


def admin_create_repo(username: str) -> Response:
    """Create a repository owned by a user or an organization (site admin)."""
    repo = create_repo(users.get_user_by_name(username), json_body(), current_principal())
    return json_response(repo_to_api(repo), status=201)


def create_org_repo(org: str) -> Response:
    """Create a repository in an organization (``POST /orgs/{org}/repos`` and the older ``/org/{org}/repos``):
    its owners, the members of a team allowed to create repositories, site administrators."""
    principal = current_principal()
    owner = current_org()
    if not principal.is_admin and not can_create_org_repo(principal.user_id, owner.id):
        raise Forbidden("Given user is not allowed to create repository in organization.")
    repo = create_repo(owner, json_body(), principal)
    return json_response(repo_to_api(repo), status=201)


def org_delete_repos(org: str) -> Response:
    """Delete every repository of the organization (its owners): 202 when there were some, 204 when none, as
    Gitea answers (Gitea deletes them in the background; here they are gone when the answer comes)."""
    found = models.repos_of_owner(current_org().id)
    for repo in found:
        models.delete_repo(repo)
    return empty(202 if found else 204)


def user_current_list_repos() -> Response:
    """List the repositories the authenticated user owns."""
    principal = current_principal()
    page = page_params()
    public_only = "public-only" in principal.scopes
    repos, total = models.list_repos_of_owner(principal.user_id, page.limit, page.offset, public_only=public_only)
    return paged_response([repo_to_api(repo) for repo in repos], page, total)


def org_list_repos(org: str) -> Response:
    """List an organization's repositories the caller can see."""
    principal = optional_principal()
    owner = current_org()
    page = page_params()
    visible = [repo for repo in models.repos_of_owner(owner.id) if permission(principal, repo).can_read]
    visible.sort(key=lambda repo: repo.name.lower())
    chunk = visible[page.offset : page.offset + page.limit]
    return paged_response([repo_to_api(repo) for repo in chunk], page, len(visible))


def user_list_repos(username: str) -> Response:
    """The repositories a user owns that the caller may read, oldest first (Gitea orders by id); the total
    counts only those (Gitea's also counts the private ones it leaves out)."""
    principal = optional_principal()
    owner = current_user()
    page = page_params()
    visible = [repo for repo in models.repos_of_owner(owner.id) if permission(principal, repo).can_read]
    visible.sort(key=lambda repo: repo.id)
    chunk = visible[page.offset : page.offset + page.limit]
    return paged_response([repo_to_api(repo) for repo in chunk], page, len(visible))


def repo_get(owner: str, repo: str) -> Response:
    """A repository."""
    return json_response(repo_to_api(current_repo()))


def repo_get_by_id(id: int) -> Response:
    """A repository by its id; 404 when there is none or the caller may not read it, without naming it."""
    found = models.get_repo_by_id(id)
    if not permission(optional_principal(), found).can_read:
        raise RepoNotFound(f"repository does not exist [id: {id}]")
    return json_response(repo_to_api(found))


def repo_edit(owner: str, repo: str) -> Response:
    """Edit a repository's name, description, website, visibility, default branch, units or archived state."""
    current_principal()
    found = current_repo()
    return json_response(repo_to_api(edit.edit_repo(found, json_body())))


def repo_delete(owner: str, repo: str) -> Response:
    """Delete a repository (owner, organization owner or site admin)."""
    current_principal()
    models.delete_repo(current_repo())
    return empty()


def repo_get_contents_list(owner: str, repo: str) -> Response:
    """The entries of the root directory at a ref."""
    return repo_get_contents(owner, repo, "")


def repo_get_contents(owner: str, repo: str, filepath: str) -> Response:
    """A file (with its content) or a directory listing at a ref."""
    found = current_repo()
    return json_response(contents.get_contents(found, filepath, request.args.get("ref") or None))


def repo_get_contents_ext_root(owner: str, repo: str) -> Response:
    """The extended contents of the root directory."""
    return repo_get_contents_ext(owner, repo, "")


def repo_get_contents_ext(owner: str, repo: str, filepath: str) -> Response:
    """A file or directory with the metadata ``includes`` asks for (file_content, lfs_metadata, commit_*)."""
    includes = contents_ext.parse_includes(request.args.get("includes"))
    found = current_repo()
    ref = request.args.get("ref") or None
    return json_response(contents_ext.get_contents_ext(found, filepath, ref, includes))


def repo_get_file_contents(owner: str, repo: str) -> Response:
    """Several files in one call, the paths in ``?body={"files": [...]}``."""
    found = current_repo()
    paths = contents_ext.files_from_query(request.args.get("body"))
    return json_response(contents_ext.get_files(found, paths, request.args.get("ref") or None))


def repo_get_file_contents_post(owner: str, repo: str) -> Response:
    """Several files in one call (a token with write:repository, as Gitea asks for a POST)."""
    found = current_repo()
    paths = contents_ext.files_from_body(json_body())
    return json_response(contents_ext.get_files(found, paths, request.args.get("ref") or None))


def _writable() -> models.Repo:
    """The repository for a contents write: scope, caller, write permission, not archived."""
    current_principal()
    found = current_repo()
    require_unarchived(found)
    return found


def repo_change_files(owner: str, repo: str) -> Response:
    """Create, update, upload, rename and delete several files in one commit."""
    found = _writable()
    return json_response(file_changes.change_files(found, json_body(), current_principal()), 201)


def repo_apply_diff_patch(owner: str, repo: str) -> Response:
    """Apply a unified diff to a branch in one commit."""
    found = _writable()
    return json_response(diffpatch.apply_diff_patch(found, json_body(), current_principal()), 201)


def _write(filepath: str, operation: file_changes.Operation) -> Response:
    found = _writable()
    principal = current_principal()
    options = json_body()
    change = file_changes.change_file(found, filepath, operation, options, principal)
    return json_response(change.body, status=change.status)


def repo_create_file(owner: str, repo: str, filepath: str) -> Response:
    """Create a file in one commit."""
    return _write(filepath, "create")


def repo_update_file(owner: str, repo: str, filepath: str) -> Response:
    """Update a file (sha given) or create it (no sha) in one commit."""
    return _write(filepath, "update")


def repo_delete_file(owner: str, repo: str, filepath: str) -> Response:
    """Delete a file in one commit."""
    return _write(filepath, "delete")


ENDPOINTS: tuple[Endpoint, ...] = (
    *unadopted.ENDPOINTS,
    Endpoint("GET", "/<owner>/<repo>.git/info/refs", "gitInfoRefs", info_refs, "git", GIT, returns=WIRE),
    Endpoint(
        "POST",
        '/<owner>/<repo>.git/<any("git-upload-pack", "git-receive-pack"):service>',
        "gitServiceRpc",
        service_rpc,
        "git",
        GIT,
        returns=WIRE,
    ),
    Endpoint(
        "POST",
        API + "/admin/users/<username>/repos",
        "adminCreateRepo",
        admin_create_repo,
        "admin",
        ADMIN,
        body="CreateRepoOption",
        status=201,
        returns="repository",
        errors=(400, 403, 404, 409, 422),
    ),
    Endpoint(
        "POST",
        API + "/user/repos",
        "createCurrentUserRepo",
        create_current_user_repo,
        "user",
        token("repository", "user"),
        body="CreateRepoOption",
        status=201,
        returns="repository",
        errors=(400, 409, 422),
    ),
    Endpoint(
        "GET",
        API + "/user/repos",
        "userCurrentListRepos",
        user_current_list_repos,
        "user",
        token("repository", "user"),
        returns="[repository]",
    ),
    Endpoint(
        "GET",
        API + "/users/<username>/repos",
        "userListRepos",
        user_list_repos,
        "user",
        token("user", "repository", anonymous_read=True, user="visible"),
        returns="[repository]",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/orgs/<org>/repos",
        "createOrgRepo",
        create_org_repo,
        "organization",
        token("organization", "repository", org="visible"),
        body="CreateRepoOption",
        status=201,
        returns="repository",
        errors=(400, 403, 404),
    ),
    Endpoint(
        "POST",
        API + "/org/<org>/repos",
        "createOrgRepoDeprecated",
        create_org_repo,
        "organization",
        token("organization", "repository", org="visible"),
        body="CreateRepoOption",
        status=201,
        returns="repository",
        errors=(403, 404, 422),
    ),
    Endpoint(
        "DELETE",
        API + "/orgs/<org>/repos",
        "orgDeleteRepos",
        org_delete_repos,
        "organization",
        token("organization", "repository", org="owner"),
        status=202,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "GET",
        API + "/orgs/<org>/repos",
        "orgListRepos",
        org_list_repos,
        "organization",
        token("organization", "repository", anonymous_read=True, org="visible"),
        returns="[repository]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>",
        "repoGet",
        repo_get,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="repository",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/repositories/<int:id>",
        "repoGetByID",
        repo_get_by_id,
        "repository",
        token("repository", anonymous_read=True),
        returns="repository",
        errors=(404,),
    ),
    Endpoint(
        "PATCH",
        API + "/repos/<owner>/<repo>",
        "repoEdit",
        repo_edit,
        "repository",
        token("repository", repo="admin"),
        body="EditRepoOption",
        returns="repository",
        errors=(403, 404, 422),
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>",
        "repoDelete",
        repo_delete,
        "repository",
        token("repository", repo="admin"),
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/contents",
        "repoChangeFiles",
        repo_change_files,
        "repository",
        token("repository", repo="write"),
        body="ChangeFilesOptions",
        status=201,
        returns="files_response",
        errors=(403, 404, 422, 423),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/contents-ext",
        "repoGetContentsExtRoot",
        repo_get_contents_ext_root,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="contents_ext",
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/contents-ext/",
        "repoGetContentsExtRootSlash",
        repo_get_contents_ext_root,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="contents_ext",
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/contents-ext/<path:filepath>",
        "repoGetContentsExt",
        repo_get_contents_ext,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="contents_ext",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/file-contents",
        "repoGetFileContents",
        repo_get_file_contents,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="file_contents_list",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/file-contents",
        "repoGetFileContentsPost",
        repo_get_file_contents_post,
        "repository",
        token("repository", repo="read"),
        body="GetFilesOptions",
        returns="file_contents_list",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/diffpatch",
        "repoApplyDiffPatch",
        repo_apply_diff_patch,
        "repository",
        token("repository", repo="write"),
        body="ApplyDiffPatchFileOptions",
        status=201,
        returns="file_patch_response",
        errors=(404, 423),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/contents",
        "repoGetContentsList",
        repo_get_contents_list,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="contents_list",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/contents/<path:filepath>",
        "repoGetContents",
        repo_get_contents,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="contents|contents_list",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/contents/<path:filepath>",
        "repoCreateFile",
        repo_create_file,
        "repository",
        token("repository", repo="write"),
        body="CreateFileOptions",
        status=201,
        returns="file_response",
        errors=(403, 404, 422, 423),
    ),
    Endpoint(
        "PUT",
        API + "/repos/<owner>/<repo>/contents/<path:filepath>",
        "repoUpdateFile",
        repo_update_file,
        "repository",
        token("repository", repo="write"),
        body="UpdateFileOptions",
        returns="file_response",
        errors=(403, 404, 422, 423),
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/contents/<path:filepath>",
        "repoDeleteFile",
        repo_delete_file,
        "repository",
        token("repository", repo="write"),
        body="DeleteFileOptions",
        returns="file_delete_response",
        errors=(400, 403, 404, 422, 423),
    ),
)

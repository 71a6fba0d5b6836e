"""REST routes of the Git data API (thin: parse, call the model, render): trees, blobs, refs, a commit's
diff or patch, raw files and archives."""

from __future__ import annotations

from flask import Response, request

from ..access import PUBLIC, token
from ..commits.models import CommitOptions
from ..commits.presenters import commit_to_api
from ..endpoints import API, EMPTY, FILE, TEXT, Endpoint
from ..filenames import content_disposition
from ..permissions import current_repo
from ..rest import json_response
from . import archives, editorconfig, languages, models, notes, rawserve
from .errors import GitDataNotFound, GitHooksDisabled, NoSigningKey
from .presenters import blob_to_api, ref_to_api, repo_api_url, tree_to_api

__all__ = ["ENDPOINTS"]

REPO = API + "/repos/<owner>/<repo>"


def get_tree(owner: str, repo: str, sha: str) -> Response:
    """One page of a tree (``recursive`` lists every entry below it, trees included)."""
    found = current_repo()
    tree = models.read_tree(found.git, sha, recursive=models.form_bool(request.args.get("recursive")))
    page, start, end, truncated = models.tree_page(
        len(tree.entries), request.args.get("page"), request.args.get("per_page")
    )
    body = tree_to_api(
        found, tree.sha, tree.entries[start:end], page=page, total=len(tree.entries), truncated=truncated
    )
    return json_response(body)


def get_blob(owner: str, repo: str, sha: str) -> Response:
    """A blob by SHA, its content in base64."""
    found = current_repo()
    return json_response(blob_to_api(found, models.read_blob(found.git, sha)))


def _refs(ref_filter: str) -> Response:
    found = current_repo()
    refs = models.list_refs(found.git, ref_filter)
    if not refs:
        raise GitDataNotFound()
    # Gitea compares its one-ref shortcut with the filter before "refs/" is prefixed, so it never applies:
    # the answer is always a list.
    return json_response([ref_to_api(found, ref) for ref in refs])


def repo_list_all_git_refs(owner: str, repo: str) -> Response:
    """Every ref of the repository (404 when it has none)."""
    return _refs("")


def repo_list_git_refs(owner: str, repo: str, ref: str) -> Response:
    """The refs whose name starts with ``refs/<ref>`` (``heads`` lists every branch), always as a list."""
    return _refs(ref)


def repo_download_commit_diff_or_patch(owner: str, repo: str, sha: str, diff_type: str) -> Response:
    """A commit as a unified diff or as a ``format-patch`` mail, plain text."""
    found = current_repo()
    chunks = models.commit_diff(found.git, sha, diff_type)
    return Response(chunks, status=200, content_type="text/plain; charset=utf-8", direct_passthrough=True)


def repo_get_raw_file(owner: str, repo: str, filepath: str) -> Response:
    """A file's bytes at ``ref`` or at the ref the path starts with (default branch otherwise)."""
    found = current_repo()
    raw = models.resolve_raw(found, filepath, request.args.get("ref", "").strip() or None)
    return rawserve.serve_raw(found, raw)


def repo_get_archive(owner: str, repo: str, archive: str) -> Response:
    """A zip, tar.gz or bundle of a branch, tag or commit, streamed as git writes it."""
    found = current_repo()
    wanted = archives.archive_request(found, archive, request.args.getlist("path"))
    chunks = archives.archive_stream(found, wanted)
    response = Response(chunks, status=200, content_type="application/octet-stream", direct_passthrough=True)
    name = f"{found.name}-{wanted.archive_name}"
    response.headers["Content-Disposition"] = content_disposition("attachment", name, fallback="archive")
    response.headers["Access-Control-Expose-Headers"] = "Content-Disposition"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Link"] = (
        f'<{repo_api_url(found)}/archive/{wanted.commit}.{wanted.type}?rev={wanted.commit}>; rel="immutable"'
    )
    return response


def repo_get_note(owner: str, repo: str, sha: str) -> Response:
    """The git note of a commit, with the notes commit that last changed it (stats always, files and
    verification unless turned off)."""
    found = current_repo()
    note = notes.read_note(found.git, sha)
    options = CommitOptions(
        stat=True,
        files=models.form_bool(request.args.get("files"), default=True),
        verification=models.form_bool(request.args.get("verification"), default=True),
    )
    return json_response({"message": note.message, "commit": commit_to_api(found, note.commit, options)})


def signing_key(**_path: str) -> Response:
    """The public key commits are signed with: the reference signs none, so there is none (404, Gitea's
    answer when no signing key is configured), for the instance and for every repository alike."""
    if _path:
        current_repo()
    raise NoSigningKey()


def git_hooks(**_path: str) -> Response:
    """Server-side Git hooks: Gitea disables editing them by default (``DISABLE_GIT_HOOKS``), so even a
    repository administrator is refused, before the hook is looked up; the reference runs none."""
    current_repo()
    raise GitHooksDisabled()


def repo_get_editor_config(owner: str, repo: str, filename: str) -> Response:
    """The EditorConfig definition the root ``.editorconfig`` at ``ref`` (default branch) gives a file name;
    404 when the repository has no ``.editorconfig`` there."""
    found = current_repo()
    text = models.editorconfig_text(found, request.args.get("ref", "").strip() or None)
    sections = editorconfig.parse_editorconfig(text)
    return json_response(editorconfig.definition_for(sections, filename))


def repo_get_languages(owner: str, repo: str) -> Response:
    """Bytes of code per language on the default branch (``{}`` for an empty repository)."""
    found = current_repo()
    head = found.git.rev_parse(f"refs/heads/{found.default_branch}")
    return json_response(languages.language_stats(found.git, head))


_READ = token("repository", anonymous_read=True, repo="read")
_ADMIN = token("repository", repo="admin")

ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        REPO + "/git/trees/<sha>",
        "GetTree",
        get_tree,
        "repository",
        _READ,
        returns="git_tree_response",
        errors=(400, 404),
    ),
    Endpoint(
        "GET",
        REPO + "/git/blobs/<sha>",
        "GetBlob",
        get_blob,
        "repository",
        _READ,
        returns="git_blob_response",
        errors=(400, 404),
    ),
    Endpoint(
        "GET",
        REPO + "/git/refs",
        "repoListAllGitRefs",
        repo_list_all_git_refs,
        "repository",
        _READ,
        returns="[reference]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        REPO + "/git/refs/<path:ref>",
        "repoListGitRefs",
        repo_list_git_refs,
        "repository",
        _READ,
        returns="[reference]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        REPO + '/git/commits/<sha>.<any("diff", "patch"):diff_type>',
        "repoDownloadCommitDiffOrPatch",
        repo_download_commit_diff_or_patch,
        "repository",
        _READ,
        returns=TEXT,
        errors=(404,),
    ),
    Endpoint(
        "GET",
        REPO + "/raw/<path:filepath>",
        "repoGetRawFile",
        repo_get_raw_file,
        "repository",
        _READ,
        returns=FILE,
        errors=(404,),
    ),
    Endpoint(
        "GET",
        REPO + "/archive/<path:archive>",
        "repoGetArchive",
        repo_get_archive,
        "repository",
        _READ,
        returns=FILE,
        errors=(400, 404),
    ),
    Endpoint(
        "GET",
        REPO + "/git/notes/<sha>",
        "repoGetNote",
        repo_get_note,
        "repository",
        _READ,
        returns="note",
        errors=(404, 422),
    ),
    Endpoint(
        "GET",
        API + "/signing-key.gpg",
        "getSigningKey",
        signing_key,
        "miscellaneous",
        PUBLIC,
        returns=TEXT,
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/signing-key.pub",
        "getSigningKeySSH",
        signing_key,
        "miscellaneous",
        PUBLIC,
        returns=TEXT,
        errors=(404,),
    ),
    Endpoint(
        "GET",
        REPO + "/signing-key.gpg",
        "repoSigningKey",
        signing_key,
        "repository",
        _READ,
        returns=TEXT,
        errors=(404,),
    ),
    Endpoint(
        "GET",
        REPO + "/signing-key.pub",
        "repoSigningKeySSH",
        signing_key,
        "repository",
        _READ,
        returns=TEXT,
        errors=(404,),
    ),
    Endpoint(
        "GET",
        REPO + "/hooks/git",
        "repoListGitHooks",
        git_hooks,
        "repository",
        _ADMIN,
        returns="[git_hook]",
        errors=(403, 404),
    ),
    Endpoint(
        "GET",
        REPO + "/hooks/git/<id>",
        "repoGetGitHook",
        git_hooks,
        "repository",
        _ADMIN,
        returns="git_hook",
        errors=(403, 404),
    ),
    Endpoint(
        "PATCH",
        REPO + "/hooks/git/<id>",
        "repoEditGitHook",
        git_hooks,
        "repository",
        _ADMIN,
        body="EditGitHookOption",
        returns="git_hook",
        errors=(403, 404),
    ),
    Endpoint(
        "DELETE",
        REPO + "/hooks/git/<id>",
        "repoDeleteGitHook",
        git_hooks,
        "repository",
        _ADMIN,
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "GET",
        REPO + "/editorconfig/<filename>",
        "repoGetEditorConfig",
        repo_get_editor_config,
        "repository",
        _READ,
        returns="editor_config",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        REPO + "/languages",
        "repoGetLanguages",
        repo_get_languages,
        "repository",
        _READ,
        returns="language_statistics",
        errors=(404,),
    ),
)

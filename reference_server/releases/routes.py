"""Routes of releases, release assets and tags (thin: parse, call the model, render)."""

from __future__ import annotations

from typing import BinaryIO

from flask import Flask, Response, request
from werkzeug.wsgi import wrap_file

from ..access import token
from ..attachments import models as issue_attachments
from ..auth import current_principal, optional_principal
from ..context import forge
from ..endpoints import EMPTY, FILE, Endpoint
from ..errors import BadRequest
from ..events import RepoDeletedEvent
from ..filenames import content_disposition
from ..permissions import current_repo, permission, require_repo
from ..repos import models as repos
from ..rest import empty, json_body, json_response, page_params, paged_response, query_bool
from . import hooks, models, tags
from .errors import AttachmentNotFound
from .presenters import annotated_tag_to_api, attachment_to_api, release_to_api, tag_to_api

__all__ = ["ENDPOINTS", "register"]

API = "/api/v1"
REPO = API + "/repos/<owner>/<repo>"
RELEASE = REPO + "/releases/<int:release_id>"
ASSET = RELEASE + "/assets/<int:attachment_id>"
READ = token("repository", anonymous_read=True, repo="read")
WRITE = token("repository", repo="write")


def _render(release: models.Release, repo: repos.Repo) -> Response:
    return json_response(release_to_api(release, repo, models.attachments_of([release])[release.id]))


def _optional_bool(name: str) -> bool | None:
    """A filter as Gitea's ``FormOptionalBool`` reads it: a value Go cannot parse as a boolean is no filter."""
    try:
        return query_bool(name)
    except BadRequest:
        return None


def _delete(repo: repos.Repo, release: models.Release) -> None:
    """Announce the release as it was, then delete it (the delivery leaves once the request succeeds)."""
    hooks.announce_deleted(repo, release, current_principal().user_id)
    models.delete_release(repo, release)


def repo_list_releases(owner: str, repo: str) -> Response:
    """Releases newest first; drafts only for writers; ``draft`` and ``pre-release`` filter."""
    found = current_repo()
    page = page_params()
    releases, total = models.list_releases(
        found,
        include_drafts=permission(optional_principal(), found).can_write,
        draft=_optional_bool("draft"),
        prerelease=_optional_bool("pre-release"),
        limit=page.limit,
        offset=page.offset,
    )
    assets = models.attachments_of(releases)
    return paged_response([release_to_api(item, found, assets[item.id]) for item in releases], page, total)


def repo_create_release(owner: str, repo: str) -> Response:
    """Create a release (writers); its missing tag is created unless it is a draft."""
    found = current_repo()
    release = models.create_release(found, current_principal(), json_body())
    hooks.announce_created(found, release)
    response = _render(release, found)
    response.status_code = 201
    return response


def repo_get_latest_release(owner: str, repo: str) -> Response:
    found = current_repo()
    return _render(models.latest_release(found), found)


def repo_get_release(owner: str, repo: str, release_id: int) -> Response:
    found = current_repo()
    return _render(models.get_release(found, release_id), found)


def repo_edit_release(owner: str, repo: str, release_id: int) -> Response:
    found = current_repo()
    before = models.get_release(found, release_id)
    after = models.edit_release(found, current_principal(), release_id, json_body())
    hooks.announce_edited(found, before, after, current_principal().user_id)
    return _render(after, found)


def repo_delete_release(owner: str, repo: str, release_id: int) -> Response:
    found = current_repo()
    _delete(found, models.get_release(found, release_id))
    return empty()


def repo_get_release_by_tag(owner: str, repo: str, tag: str) -> Response:
    found = current_repo()
    return _render(models.release_by_tag(found, tag), found)


def repo_delete_release_by_tag(owner: str, repo: str, tag: str) -> Response:
    """Delete the release of ``tag``; the Git tag stays."""
    found = current_repo()
    _delete(found, models.release_by_tag(found, tag))
    return empty()


def repo_list_release_attachments(owner: str, repo: str, release_id: int) -> Response:
    release = models.get_release(current_repo(), release_id)
    return json_response([attachment_to_api(item) for item in models.attachments_of([release])[release.id]])


def repo_create_release_attachment(owner: str, repo: str, release_id: int) -> Response:
    """Upload an asset: the file in the ``attachment`` form field (or the raw body), ``name`` overriding."""
    found = current_repo()
    release = models.get_release(found, release_id)
    name = request.args.get("name", "")
    if request.mimetype == "multipart/form-data":
        upload = request.files.get("attachment")
        if upload is None:
            return _missing_file()
        name = name or (upload.filename or "")
        stream = upload.stream
    else:
        stream = request.stream
    attachment = models.add_attachment(found, current_principal(), release, name, stream)
    return json_response(attachment_to_api(attachment), status=201)


def _missing_file() -> Response:
    """Gitea fails reading a multipart form without the file; here it is a clear 400."""
    return json_response({"message": "the attachment field is missing", "url": forge().url("api/swagger")}, 400)


def repo_get_release_attachment(owner: str, repo: str, release_id: int, attachment_id: int) -> Response:
    release = models.get_release(current_repo(), release_id)
    return json_response(attachment_to_api(models.get_attachment(release, attachment_id)))


def repo_edit_release_attachment(owner: str, repo: str, release_id: int, attachment_id: int) -> Response:
    """Rename an asset; Gitea answers 201 here."""
    release = models.get_release(current_repo(), release_id)
    return json_response(attachment_to_api(models.edit_attachment(release, attachment_id, json_body())), status=201)


def repo_delete_release_attachment(owner: str, repo: str, release_id: int, attachment_id: int) -> Response:
    models.delete_attachment(models.get_release(current_repo(), release_id), attachment_id)
    return empty()


def download_attachment(uuid: str) -> Response:
    """``browser_download_url``: the bytes of a release asset or of an issue or comment attachment (one UUID
    space, as Gitea's one attachment table) for whoever may read its repository (404 otherwise)."""
    attachment = models.attachment_for_download(uuid) or issue_attachments.attachment_for_download(uuid)
    if attachment is None:
        raise AttachmentNotFound()
    repo = repos.get_repo_by_id(attachment.repo_id)
    if not permission(optional_principal(), repo).can_read:
        raise AttachmentNotFound()
    if isinstance(attachment, issue_attachments.IssueAttachment):
        return _send(issue_attachments.open_attachment(attachment), attachment.size, attachment.name)
    return _serve(attachment)


def download_by_tag(owner: str, repo: str, tag: str, name: str) -> Response:
    """Gitea's ``/{owner}/{repo}/releases/download/{tag}/{name}``: the asset of a release by names (a web route:
    the repository is checked here, as the declaration test keeps ``repo=`` needs to API paths)."""
    found = require_repo(owner, repo, "read")
    can_write = permission(optional_principal(), found).can_write
    attachment = models.attachment_by_tag_and_name(found, tag, name, can_write=can_write)
    if attachment is None:
        raise AttachmentNotFound()
    return _serve(attachment)


def _serve(attachment: models.Attachment) -> Response:
    return _send(models.open_attachment(attachment), attachment.size, attachment.name)


def _send(stream: BinaryIO, size: int, name: str) -> Response:
    response = Response(
        wrap_file(request.environ, stream), content_type="application/octet-stream", direct_passthrough=True
    )
    response.content_length = size
    response.headers["Content-Disposition"] = content_disposition("attachment", name)
    return response


def repo_list_tags(owner: str, repo: str) -> Response:
    """Tags newest first, paged; Gitea sends ``X-Total-Count`` without a ``Link``."""
    found = current_repo()
    page = page_params()
    items, total = tags.list_tags(found, page.limit, page.offset)
    response = json_response([tag_to_api(tag, found) for tag in items])
    response.headers["X-Total-Count"] = str(total)
    return response


def repo_get_tag(owner: str, repo: str, tag: str) -> Response:
    found = current_repo()
    return json_response(tag_to_api(tags.get_tag(found, tag), found))


def repo_create_tag(owner: str, repo: str) -> Response:
    """Create a tag (code writers): annotated with a message, lightweight without; Gitea answers 201."""
    found = current_repo()
    return json_response(tag_to_api(tags.create_tag(found, current_principal(), json_body()), found), status=201)


def repo_delete_tag(owner: str, repo: str, tag: str) -> Response:
    tags.delete_tag(current_repo(), current_principal(), tag)
    return empty()


def get_annotated_tag(owner: str, repo: str, sha: str) -> Response:
    found = current_repo()
    return json_response(annotated_tag_to_api(tags.annotated_tag(found, sha), found))


def register(app: Flask) -> None:
    """Drop a deleted repository's releases and stored assets."""
    forge().events.subscribe(RepoDeletedEvent, models.on_repo_deleted)


def _e(method: str, path: str, operation: str, view: object, **extra: object) -> Endpoint:
    """An endpoint of the ``repository`` tag: reads for readers (anonymous on public repositories)."""
    rule = extra.pop("access", READ)
    return Endpoint(method, path, operation, view, "repository", rule, **extra)  # type: ignore[arg-type]


ENDPOINTS: tuple[Endpoint, ...] = (
    _e("GET", REPO + "/releases", "repoListReleases", repo_list_releases, returns="[release]", errors=(404,)),
    _e(
        "POST",
        REPO + "/releases",
        "repoCreateRelease",
        repo_create_release,
        access=WRITE,
        body="CreateReleaseOption",
        status=201,
        returns="release",
        errors=(404, 409, 422),
    ),
    _e(
        "GET",
        REPO + "/releases/latest",
        "repoGetLatestRelease",
        repo_get_latest_release,
        returns="release",
        errors=(404,),
    ),
    _e(
        "GET",
        REPO + "/releases/tags/<tag>",
        "repoGetReleaseByTag",
        repo_get_release_by_tag,
        returns="release",
        errors=(404,),
    ),
    _e(
        "DELETE",
        REPO + "/releases/tags/<tag>",
        "repoDeleteReleaseByTag",
        repo_delete_release_by_tag,
        access=WRITE,
        status=204,
        returns=EMPTY,
        errors=(404, 422),
    ),
    _e("GET", RELEASE, "repoGetRelease", repo_get_release, returns="release", errors=(404,)),
    _e(
        "PATCH",
        RELEASE,
        "repoEditRelease",
        repo_edit_release,
        access=WRITE,
        body="EditReleaseOption",
        returns="release",
        errors=(404, 409, 422),
    ),
    _e(
        "DELETE",
        RELEASE,
        "repoDeleteRelease",
        repo_delete_release,
        access=WRITE,
        status=204,
        returns=EMPTY,
        errors=(404, 422),
    ),
    _e(
        "GET",
        RELEASE + "/assets",
        "repoListReleaseAttachments",
        repo_list_release_attachments,
        returns="[attachment]",
        errors=(404,),
    ),
    _e(
        "POST",
        RELEASE + "/assets",
        "repoCreateReleaseAttachment",
        repo_create_release_attachment,
        access=WRITE,
        status=201,
        returns="attachment",
        errors=(400, 404, 413),
    ),
    _e("GET", ASSET, "repoGetReleaseAttachment", repo_get_release_attachment, returns="attachment", errors=(404,)),
    _e(
        "PATCH",
        ASSET,
        "repoEditReleaseAttachment",
        repo_edit_release_attachment,
        access=WRITE,
        body="EditAttachmentOptions",
        status=201,
        returns="attachment",
        errors=(404, 422),
    ),
    _e(
        "DELETE",
        ASSET,
        "repoDeleteReleaseAttachment",
        repo_delete_release_attachment,
        access=WRITE,
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint(
        "GET",
        "/attachments/<uuid>",
        "attachmentDownload",
        download_attachment,
        "attachments",
        token("repository", anonymous_read=True),
        returns=FILE,
    ),
    Endpoint(
        "GET",
        "/<owner>/<repo>/releases/download/<tag>/<name>",
        "releaseDownload",
        download_by_tag,
        "attachments",
        token("repository", anonymous_read=True),
        returns=FILE,
    ),
    _e("GET", REPO + "/tags", "repoListTags", repo_list_tags, returns="[tag]", errors=(404,)),
    _e(
        "POST",
        REPO + "/tags",
        "repoCreateTag",
        repo_create_tag,
        access=WRITE,
        body="CreateTagOption",
        status=201,
        returns="tag",
        errors=(404, 405, 409, 422, 423),
    ),
    _e("GET", REPO + "/tags/<path:tag>", "repoGetTag", repo_get_tag, returns="tag", errors=(404,)),
    _e(
        "DELETE",
        REPO + "/tags/<path:tag>",
        "repoDeleteTag",
        repo_delete_tag,
        access=WRITE,
        status=204,
        returns=EMPTY,
        errors=(404, 405, 409, 422, 423),
    ),
    _e(
        "GET",
        REPO + "/git/tags/<sha>",
        "GetAnnotatedTag",
        get_annotated_tag,
        returns="annotated_tag",
        errors=(400, 404),
    ),
)

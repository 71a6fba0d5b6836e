"""Routes of avatars: upload and delete for the caller, a repository and an organization; serve the pictures."""

from __future__ import annotations

from flask import Flask, Response

from ..access import PUBLIC, token
from ..auth import current_principal
from ..bodies import optional_text
from ..context import forge
from ..endpoints import EMPTY, FILE, Endpoint
from ..events import AccountDeletedEvent, RepoDeletedEvent
from ..permissions import current_org, current_repo
from ..rest import empty, json_body
from . import models
from .errors import AvatarNotFound
from .images import MAX_AVATAR_BYTES

__all__ = ["ENDPOINTS", "register"]

API = "/api/v1"
MAX_IMAGE_TEXT = MAX_AVATAR_BYTES * 2
CACHE_CONTROL = "public, max-age=86400"


def _image_option() -> str:
    """The ``image`` field of ``UpdateUserAvatarOption``/``UpdateRepoAvatarOption``: 422 when missing."""
    return optional_text(json_body(required=("image",)), "image", MAX_IMAGE_TEXT)


def user_update_avatar() -> Response:
    """Upload the caller's avatar."""
    principal = current_principal()
    models.set_avatar(models.ACCOUNT, principal.user_id, _image_option())
    return empty()


def user_delete_avatar() -> Response:
    """Delete the caller's avatar."""
    models.delete_avatar(models.ACCOUNT, current_principal().user_id)
    return empty()


def repo_update_avatar(owner: str, repo: str) -> Response:
    """Upload a repository's avatar (repository admins)."""
    current_principal()
    found = current_repo()
    models.set_avatar(models.REPO, found.id, _image_option())
    return empty()


def repo_delete_avatar(owner: str, repo: str) -> Response:
    """Delete a repository's avatar (repository admins)."""
    current_principal()
    models.delete_avatar(models.REPO, current_repo().id)
    return empty()


def org_update_avatar(org: str) -> Response:
    """Upload an organization's avatar (owners)."""
    found = current_org()
    models.set_avatar(models.ACCOUNT, found.id, _image_option())
    return empty()


def org_delete_avatar(org: str) -> Response:
    """Delete an organization's avatar (owners)."""
    models.delete_avatar(models.ACCOUNT, current_org().id)
    return empty()


def _png(data: bytes | None) -> Response:
    if data is None:
        raise AvatarNotFound()
    return Response(data, content_type="image/png", headers={"Cache-Control": CACHE_CONTROL})


def serve_account_avatar(digest: str) -> Response:
    """The picture of a user's or organization's ``avatar_url``."""
    return _png(models.account_avatar_png(digest))


def serve_repo_avatar(name: str) -> Response:
    """The picture of a repository's ``avatar_url``."""
    return _png(models.repo_avatar_png(name))


def register(app: Flask) -> None:
    """Drop the pictures of deleted repositories and accounts."""
    events = forge().events
    events.subscribe(RepoDeletedEvent, models.on_repo_deleted)
    events.subscribe(AccountDeletedEvent, models.on_account_deleted)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "POST",
        API + "/user/avatar",
        "userUpdateAvatar",
        user_update_avatar,
        "user",
        token("user"),
        status=204,
        returns=EMPTY,
        body="UpdateUserAvatarOption",
    ),
    Endpoint(
        "DELETE",
        API + "/user/avatar",
        "userDeleteAvatar",
        user_delete_avatar,
        "user",
        token("user"),
        status=204,
        returns=EMPTY,
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/avatar",
        "repoUpdateAvatar",
        repo_update_avatar,
        "repository",
        token("repository", repo="admin"),
        status=204,
        returns=EMPTY,
        body="UpdateRepoAvatarOption",
        errors=(404,),
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/avatar",
        "repoDeleteAvatar",
        repo_delete_avatar,
        "repository",
        token("repository", repo="admin"),
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/orgs/<org>/avatar",
        "orgUpdateAvatar",
        org_update_avatar,
        "organization",
        token("organization", org="owner"),
        status=204,
        returns=EMPTY,
        body="UpdateUserAvatarOption",
        errors=(404,),
    ),
    Endpoint(
        "DELETE",
        API + "/orgs/<org>/avatar",
        "orgDeleteAvatar",
        org_delete_avatar,
        "organization",
        token("organization", org="owner"),
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint("GET", "/avatars/<digest>", "avatarPicture", serve_account_avatar, "avatars", PUBLIC, returns=FILE),
    Endpoint("GET", "/repo-avatars/<name>", "repoAvatarPicture", serve_repo_avatar, "avatars", PUBLIC, returns=FILE),
)

"""Routes of avatars: upload and delete for the caller, a repository and an organization; serve the pictures."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, Response

from ..auth import check_scope, current_principal
from ..context import forge
from ..events import AccountDeletedEvent, RepoDeletedEvent
from ..repos.models import require_repo
from ..rest import empty, json_body
from ..users import models as users
from . import models
from .errors import AvatarNotFound
from .images import MAX_AVATAR_BYTES

__all__ = ["register"]

API = "/api/v1"
MAX_IMAGE_TEXT = MAX_AVATAR_BYTES * 2
CACHE_CONTROL = "public, max-age=86400"


def _image_option() -> str:
    """The ``image`` field of ``UpdateUserAvatarOption``/``UpdateRepoAvatarOption``: 422 when missing."""
    return users.optional_text(json_body(required=("image",)), "image", MAX_IMAGE_TEXT)


def user_update_avatar() -> Response:
    """Upload the caller's avatar."""
    check_scope("user")
    principal = current_principal()
    models.set_avatar(models.ACCOUNT, principal.user_id, _image_option())
    return empty()


def user_delete_avatar() -> Response:
    """Delete the caller's avatar."""
    check_scope("user")
    models.delete_avatar(models.ACCOUNT, current_principal().user_id)
    return empty()


def repo_update_avatar(owner: str, repo: str) -> Response:
    """Upload a repository's avatar (repository admins)."""
    check_scope("repository")
    current_principal()
    found = require_repo(owner, repo, "admin")
    models.set_avatar(models.REPO, found.id, _image_option())
    return empty()


def repo_delete_avatar(owner: str, repo: str) -> Response:
    """Delete a repository's avatar (repository admins)."""
    check_scope("repository")
    current_principal()
    models.delete_avatar(models.REPO, require_repo(owner, repo, "admin").id)
    return empty()


def _owned_org(name: str) -> users.User:
    from ..orgs import models as orgs

    principal = current_principal()
    org = orgs.get_org(name, principal)
    orgs.require_owner(org, principal)
    return org


def org_update_avatar(org: str) -> Response:
    """Upload an organization's avatar (owners)."""
    check_scope("organization")
    found = _owned_org(org)
    models.set_avatar(models.ACCOUNT, found.id, _image_option())
    return empty()


def org_delete_avatar(org: str) -> Response:
    """Delete an organization's avatar (owners)."""
    check_scope("organization")
    models.delete_avatar(models.ACCOUNT, _owned_org(org).id)
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
    """Attach the avatar routes (Gitea's operation ids), the picture routes and the deletion listeners."""
    rules: list[tuple[str, str, Callable[..., Response], str]] = [
        ("/user/avatar", "userUpdateAvatar", user_update_avatar, "POST"),
        ("/user/avatar", "userDeleteAvatar", user_delete_avatar, "DELETE"),
        ("/repos/<owner>/<repo>/avatar", "repoUpdateAvatar", repo_update_avatar, "POST"),
        ("/repos/<owner>/<repo>/avatar", "repoDeleteAvatar", repo_delete_avatar, "DELETE"),
        ("/orgs/<org>/avatar", "orgUpdateAvatar", org_update_avatar, "POST"),
        ("/orgs/<org>/avatar", "orgDeleteAvatar", org_delete_avatar, "DELETE"),
    ]
    for path, endpoint, view, method in rules:
        app.add_url_rule(API + path, endpoint=endpoint, view_func=view, methods=[method])
    app.add_url_rule("/avatars/<digest>", endpoint="avatarPicture", view_func=serve_account_avatar, methods=["GET"])
    app.add_url_rule("/repo-avatars/<name>", endpoint="repoAvatarPicture", view_func=serve_repo_avatar, methods=["GET"])
    events = forge().events
    events.subscribe(RepoDeletedEvent, models.on_repo_deleted)
    events.subscribe(AccountDeletedEvent, models.on_account_deleted)

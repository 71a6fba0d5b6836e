"""Routes of the package registry: the generic registry under ``/api/packages/<owner>/generic`` (errors in
plain text, as Gitea's package routes answer them) and the nine operations of Gitea's package API."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import ParamSpec

from flask import Flask, Response, request, send_file

from ..access import PACKAGE, token
from ..auth import current_principal, optional_principal
from ..context import forge
from ..endpoints import API, EMPTY, FILE, Endpoint
from ..errors import ApiError
from ..events import AccountDeletedEvent, RepoDeletedEvent
from ..filenames import content_disposition
from ..permissions import current_user
from ..rest import empty, json_response, page_params, paged_response
from ..users.errors import UserNotFound
from ..users.models import User, find_account
from . import models
from .presenters import package_file_to_api, package_to_api

__all__ = ["ENDPOINTS", "register"]

GENERIC = "/api/packages/<username>/generic/<name>/<version>"
PACKAGES = API + "/packages/<username>"
PACKAGE_PATH = PACKAGES + "/<package_type>/<name>"
CHALLENGE = 'Basic realm="Gitea Package API"'
SANDBOX = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
P = ParamSpec("P")


def register(app: Flask) -> None:
    """A deleted repository's packages stay, unlinked; a deleted account's go with it."""
    forge().events.subscribe(RepoDeletedEvent, models.on_repo_deleted)
    forge().events.subscribe(AccountDeletedEvent, models.on_account_deleted)


# -- the generic registry ------------------------------------------------------------------------


def _plain_errors(view: Callable[P, Response]) -> Callable[P, Response]:
    """Render any error of the registry as plain text; a 401 carries the challenge package clients expect."""

    @wraps(view)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> Response:
        try:
            return view(*args, **kwargs)
        except ApiError as error:
            response = Response(error.message, status=error.status, content_type="text/plain; charset=utf-8")
            if error.status == 401:
                response.headers["WWW-Authenticate"] = CHALLENGE
            return response

    return wrapper


def _surface_owner(username: str, *, write: bool) -> User:
    """The owner the path names (404 when there is none), once the caller passed ``reqPackageAccess``."""
    owner = find_account(username)
    if owner is None:
        raise UserNotFound(f"user does not exist [name: {username}]")
    models.require_surface_access(owner, optional_principal(), write=write)
    return owner


@_plain_errors
def generic_upload(username: str, name: str, version: str, filename: str) -> Response:
    """Store the request body as one file of the version (201, empty)."""
    owner = _surface_owner(username, write=True)
    models.upload_generic(owner, current_principal(), request.stream, name=name, version=version, filename=filename)
    return Response(b"", status=201)


@_plain_errors
def generic_download(username: str, name: str, version: str, filename: str) -> Response:
    """The file's bytes, streamed from its blob, as an attachment (ranges honoured)."""
    owner = _surface_owner(username, write=False)
    path, stored = models.generic_file(owner, name, version, filename)
    response = send_file(
        path, mimetype="application/octet-stream", conditional=True, max_age=0, last_modified=stored.created
    )
    response.headers["Content-Disposition"] = content_disposition("attachment", stored.name)
    response.headers["Content-Security-Policy"] = SANDBOX
    return response


@_plain_errors
def generic_delete_file(username: str, name: str, version: str, filename: str) -> Response:
    """Remove one file (the version too when it was its last)."""
    owner = _surface_owner(username, write=True)
    models.delete_generic_file(owner, name, version, filename)
    return Response(b"", status=204)


@_plain_errors
def generic_delete_version(username: str, name: str, version: str) -> Response:
    """Remove a version with all its files."""
    owner = _surface_owner(username, write=True)
    models.delete_generic_version(owner, name, version)
    return Response(b"", status=204)


# -- the REST API --------------------------------------------------------------------------------


def _owner(*, write: bool = False) -> User:
    """The owner the path names (found by the declared rule), once the caller passed ``reqPackageAccess``."""
    owner = current_user()
    models.require_api_access(owner, optional_principal(), write=write)
    return owner


def _versions(found: list[models.PackageVersion], total: int, owner: User) -> Response:
    viewer = optional_principal()
    return paged_response([package_to_api(one, owner, viewer) for one in found], page_params(), total)


def list_packages(username: str) -> Response:
    """Every version of every package of the owner, newest first, by ``type`` and a ``q`` name filter."""
    owner = _owner()
    page = page_params()
    kind = request.args.get("type", "").strip()
    query = request.args.get("q", "").strip()
    found, total = models.versions_page(owner, package_type=kind, query=query, limit=page.limit, offset=page.offset)
    return _versions(found, total, owner)


def list_package_versions(username: str, package_type: str, name: str) -> Response:
    """One package's versions, newest first."""
    owner = _owner()
    page = page_params()
    found, total = models.package_versions(owner, package_type, name, page.limit, page.offset)
    return _versions(found, total, owner)


def get_latest_package_version(username: str, package_type: str, name: str) -> Response:
    """The package's most recently created version."""
    owner = _owner()
    found = models.latest_version(owner, package_type, name)
    return json_response(package_to_api(found, owner, optional_principal()))


def get_package(username: str, package_type: str, name: str, version: str) -> Response:
    owner = _owner()
    found = models.get_version(owner, package_type, name, version)
    return json_response(package_to_api(found, owner, optional_principal()))


def list_package_files(username: str, package_type: str, name: str, version: str) -> Response:
    """The version's files with their size and hashes (not paged, as Gitea)."""
    owner = _owner()
    found = models.get_version(owner, package_type, name, version)
    return json_response([package_file_to_api(stored) for stored in models.files_of(found)])


def delete_package_version(username: str, package_type: str, name: str, version: str) -> Response:
    owner = _owner(write=True)
    models.delete_version(models.get_version(owner, package_type, name, version))
    return empty()


def delete_package(username: str, package_type: str, name: str) -> Response:
    """Remove the package with all its versions."""
    owner = _owner(write=True)
    models.delete_package(owner, package_type, name)
    return empty()


def link_package(username: str, package_type: str, name: str, repo_name: str) -> Response:
    """Link the package to one of its owner's repositories (201)."""
    owner = _owner(write=True)
    models.link(owner, package_type, name, repo_name, current_principal())
    return empty(201)


def unlink_package(username: str, package_type: str, name: str) -> Response:
    """Unlink the package from its repository (Gitea documents 201 and answers 204)."""
    owner = _owner(write=True)
    models.unlink(owner, package_type, name, current_principal())
    return empty()


_API = token("package", user="exists")
"""Every API route: a token with the ``package`` category, an owner that exists; the views check the access."""

ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "PUT",
        GENERIC + "/<filename>",
        "genericUploadFile",
        generic_upload,
        "packages",
        PACKAGE,
        status=201,
        returns=EMPTY,
    ),
    Endpoint(
        "GET", GENERIC + "/<filename>", "genericDownloadFile", generic_download, "packages", PACKAGE, returns=FILE
    ),
    Endpoint(
        "DELETE",
        GENERIC + "/<filename>",
        "genericDeleteFile",
        generic_delete_file,
        "packages",
        PACKAGE,
        status=204,
        returns=EMPTY,
    ),
    Endpoint(
        "DELETE",
        GENERIC,
        "genericDeleteVersion",
        generic_delete_version,
        "packages",
        PACKAGE,
        status=204,
        returns=EMPTY,
    ),
    Endpoint("GET", PACKAGES, "listPackages", list_packages, "package", _API, returns="[package]", errors=(404,)),
    Endpoint(
        "GET",
        PACKAGE_PATH,
        "listPackageVersions",
        list_package_versions,
        "package",
        _API,
        returns="[package]",
        errors=(404,),
    ),
    Endpoint(
        "DELETE",
        PACKAGE_PATH,
        "deletePackage",
        delete_package,
        "package",
        _API,
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint(
        "GET",
        PACKAGE_PATH + "/-/latest",
        "getLatestPackageVersion",
        get_latest_package_version,
        "package",
        _API,
        returns="package",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        PACKAGE_PATH + "/-/link/<repo_name>",
        "linkPackage",
        link_package,
        "package",
        _API,
        status=201,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint(
        "POST",
        PACKAGE_PATH + "/-/unlink",
        "unlinkPackage",
        unlink_package,
        "package",
        _API,
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint(
        "GET",
        PACKAGE_PATH + "/<version>",
        "getPackage",
        get_package,
        "package",
        _API,
        returns="package",
        errors=(404,),
    ),
    Endpoint(
        "DELETE",
        PACKAGE_PATH + "/<version>",
        "deletePackageVersion",
        delete_package_version,
        "package",
        _API,
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint(
        "GET",
        PACKAGE_PATH + "/<version>/files",
        "listPackageFiles",
        list_package_files,
        "package",
        _API,
        returns="[package_file]",
        errors=(404,),
    ),
)

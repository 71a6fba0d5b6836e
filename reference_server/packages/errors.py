"""Named errors of the package registry, with Gitea's messages."""

from __future__ import annotations

from ..errors import BadRequest, Conflict, Forbidden, NotFound, Unauthorized

__all__ = [
    "InvalidPackageArgument",
    "PackageAccessDenied",
    "PackageFileExists",
    "PackageFileNotFound",
    "PackageNotFound",
    "PackagePermissionDenied",
    "PackageQuotaExceeded",
    "PackageUnauthorized",
    "PackageValidationError",
]

ACCESS_REFUSAL = "user should have specific permission or be a site admin"


class PackageNotFound(NotFound):
    """No package (or version) of that type, name and version for the owner (``ErrPackageNotExist``)."""

    default_message = "package does not exist"


class PackageFileNotFound(NotFound):
    """The version has no file of that name (``ErrPackageFileNotExist``)."""

    default_message = "package file does not exist"


class PackageFileExists(Conflict):
    """A version already holds a file of that name (``ErrDuplicatePackageFile``): 409, nothing replaced."""

    default_message = "package file already exists"


class PackageValidationError(BadRequest):
    """A package name, file name or version the generic registry refuses (400)."""


class PackageQuotaExceeded(Forbidden):
    """An upload over the configured size of its type (``ErrQuotaTypeSize``): Gitea answers 403, not 413."""

    default_message = "maximum allowed package type size exceeded"


class PackageUnauthorized(Unauthorized):
    """The package surface's refusal (``reqPackageAccess`` under ``/api/packages``): 401 with a challenge,
    for a token without the ``package`` scope as for a caller without the access."""

    default_message = ACCESS_REFUSAL


class PackageAccessDenied(Forbidden):
    """The REST API's refusal of a caller without write access on the owner's packages."""

    default_message = ACCESS_REFUSAL


class InvalidPackageArgument(BadRequest):
    """Linking a package already linked, or unlinking one that is not (``util.ErrInvalidArgument``)."""

    default_message = "invalid argument"


class PackagePermissionDenied(Forbidden):
    """Linking or unlinking without write access on the repository (``util.ErrPermissionDenied``)."""

    default_message = "permission denied"

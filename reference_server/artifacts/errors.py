"""Named failures of the artifacts family, each carrying its wire code (Twirp) or status (REST)."""

from __future__ import annotations

from ..errors import NotFound, TwirpError

__all__ = [
    "ArtifactExistsError",
    "ArtifactExpired",
    "ArtifactGoneError",
    "ArtifactNotFoundError",
    "InvalidArgumentError",
    "LegacyError",
    "MalformedError",
    "NotPendingError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "PreconditionError",
    "RestArtifactNotFound",
    "RunNotFound",
    "SignatureError",
    "UnauthenticatedError",
]


class MalformedError(TwirpError):
    """The request body could not be decoded."""

    def __init__(self, msg: str) -> None:
        super().__init__("malformed", msg)


class UnauthenticatedError(TwirpError):
    """No usable runtime token: missing, forged, expired, or its task is no longer running."""

    def __init__(self, msg: str) -> None:
        super().__init__("unauthenticated", msg)


class PermissionDeniedError(TwirpError):
    """The request names a run or job other than the token's."""

    def __init__(self, msg: str) -> None:
        super().__init__("permission_denied", msg)


class InvalidArgumentError(TwirpError):
    """A field has a value the protocol refuses (name, version, hash, size...)."""

    def __init__(self, msg: str) -> None:
        super().__init__("invalid_argument", msg)


class PayloadTooLargeError(TwirpError):
    """A body over a limit: 413 (not Twirp's 429, which clients retry), code ``resource_exhausted``."""

    def __init__(self, msg: str) -> None:
        super().__init__("resource_exhausted", msg, status=413)


class ArtifactNotFoundError(TwirpError):
    """No artifact of that name (or id) in the token's run, or not in a state the call needs."""

    def __init__(self, what: str) -> None:
        super().__init__("not_found", f"artifact {what} not found")


class ArtifactExistsError(TwirpError):
    """A finalized artifact of the same run already has that name."""

    def __init__(self, name: str) -> None:
        super().__init__("already_exists", f"artifact {name!r} already exists in this run and is finalized")


class NotPendingError(TwirpError):
    """An upload URL was used after its artifact was finalized."""

    def __init__(self) -> None:
        super().__init__("already_exists", "the artifact is already finalized; create a new artifact to upload again")


class PreconditionError(TwirpError):
    """Finalize was called before anything was uploaded (or the staged blocks cannot be ordered)."""

    def __init__(self, msg: str) -> None:
        super().__init__("failed_precondition", msg)


class SignatureError(TwirpError):
    """A signed upload or download URL whose signature is missing, malformed, wrong or expired."""

    def __init__(self, msg: str) -> None:
        super().__init__("unauthenticated", msg)


class ArtifactGoneError(TwirpError):
    """A signed URL whose artifact no longer exists, is not finalized or has expired."""

    def __init__(self) -> None:
        super().__init__("not_found", "artifact not found")


class RestArtifactNotFound(NotFound):
    default_message = "artifact not found"


class ArtifactExpired(NotFound):
    default_message = "Artifact has expired"


class RunNotFound(NotFound):
    default_message = "run not found"


class LegacyError(Exception):
    """A refusal on the legacy (v3) artifact routes, rendered as Gitea renders them there: ``http.Error``'s
    plain-text body (the message and a newline) with the status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message

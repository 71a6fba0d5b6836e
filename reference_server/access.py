"""Who may call a route: the vocabulary of access rules each endpoint declares (``endpoints.Endpoint.access``).

``endpoints.enforce_access`` makes the account checks of a rule before the view runs (scopes, site
administrators, the password for token management, the job-token confinement below); the signature,
runner and Git checks of the other wire surfaces stay in those surfaces. ``tests/test_security_routes.py``
holds rules and behaviour together: it fails on a route without a rule, and it calls every token-scoped
route with a token lacking each declared category (403 expected) and with a token holding exactly the
declared categories (no scope refusal expected). A ``token`` rule needs ``read:`` on its categories for
GET/HEAD and ``write:`` for every other method, as Gitea's scopes do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "ADMIN",
    "ADMIN_WRITE",
    "GIT",
    "JOB",
    "JOB_OR_SIGNED",
    "JOB_TOKEN_REFUSAL",
    "PACKAGE",
    "PUBLIC",
    "RUNNER",
    "SIGNED",
    "Need",
    "OrgNeed",
    "Rule",
    "UserNeed",
    "basic",
    "job_token_may",
    "token",
]

Kind = Literal["public", "token", "basic", "admin", "signed", "runner", "job", "git", "package"]
Need = Literal["read", "write", "admin", "owner"]
"""What a caller needs on a repository: Gitea's reader, writer, admin (``reqAdmin``) or owner (``reqOwner``)."""
OrgNeed = Literal["visible", "member", "owner"]
"""What a caller needs on an organization: to see it, to be in one of its teams, or to be one of its owners."""
UserNeed = Literal["exists", "visible", "self"]
"""What a caller needs on the account a path names: that it exists (user or organization), that the caller may
see it, or that it is a user and the caller itself (or a site admin)."""


@dataclass(frozen=True)
class Rule:
    """How a route authenticates its caller and, for account tokens, which scope categories it needs."""

    kinds: tuple[Kind, ...]
    """``public`` (nobody), ``token`` (an account token, basic auth or a job token, the latter confined by
    :func:`job_token_may`), ``basic`` (basic auth with the account's password; a token, even as the
    password, is refused), ``admin`` (a site administrator with ``admin`` scope),
    ``signed`` (a signed URL, never an account token), ``runner`` (a runner's uuid and token, or a
    registration token for Register), ``job`` (an Actions runtime token), ``git`` (Git credentials: a
    password, an account, job or deploy token as password; an LFS transfer token on LFS routes only),
    ``package`` (the package registry under ``/api/packages``: anonymous, a password or an account token,
    checked by the registry itself against the owner, refusing with 401 and a challenge as Gitea does)."""
    categories: tuple[str, ...] = ()
    """Scope categories an account token needs (all of them); empty for ``token``: any valid token."""
    anonymous_read: bool = False
    """Whether an anonymous GET is let through to the permission check (public resources)."""
    write_on_read: bool = False
    """Whether even GET needs ``write:`` (the legacy GET of a runner registration token creates one)."""
    repo: Need | None = None
    """The permission needed on the repository the path names (``<owner>/<repo>``), checked after the scopes:
    404 when the caller cannot see it, 403 when it can but lacks the rest."""
    org: OrgNeed | None = None
    """The standing needed in the organization the path names (``<org>``), checked after the scopes: 404
    when the caller cannot see it, 403 when it can but is not a member or an owner (site admins pass)."""
    user: UserNeed | None = None
    """What is needed on the account the path names (``<username>``), checked after the scopes: 404 when it
    does not exist or the caller cannot see it, 403 when it is somebody else's (site admins pass)."""


def token(
    *categories: str,
    anonymous_read: bool = False,
    write_on_read: bool = False,
    repo: Need | None = None,
    org: OrgNeed | None = None,
    user: UserNeed | None = None,
) -> Rule:
    """An account-token route needing every category in ``categories`` and, on the repository, organization
    or account its path names, the permission ``repo``, the standing ``org`` or the relation ``user``."""
    return Rule(("token",), tuple(categories), anonymous_read, write_on_read, repo, org, user)


def basic(*categories: str, user: UserNeed | None = None) -> Rule:
    """A route that needs the account's password in basic authentication (token management), acting on the
    account its path names as ``user`` says."""
    return Rule(("basic",), tuple(categories), user=user)


PUBLIC = Rule(("public",))
ADMIN = Rule(("admin",), ("admin",))
ADMIN_WRITE = Rule(("admin",), ("admin",), write_on_read=True)
"""An admin route whose GET also needs ``write:admin`` (registration tokens)."""
SIGNED = Rule(("signed",))
RUNNER = Rule(("runner",))
GIT = Rule(("git",))
PACKAGE = Rule(("package",), ("package",))
"""The package registry's surface: the ``package`` scope and the owner's package access, checked by the registry."""
JOB = Rule(("job",))
"""The legacy (v3) artifact routes: the Actions runtime token of a running task only."""
JOB_OR_SIGNED = Rule(("job", "signed"))
"""The artifact service: RPCs with the runtime token, ``UploadArtifact``/``DownloadArtifact`` signed."""

# -- job tokens ------------------------------------------------------------------------------------

JOB_TOKEN_REFUSAL = "job tokens may only act on their own repository"  # noqa: S105 - a message
REPOSITORY_PREFIX = "/api/v1/repos/<owner>/<repo>"
JOB_READS_REFUSED = (
    "/api/v1/user/",
    "/api/v1/admin",
    "/api/v1/users/<username>/tokens",
    "/api/v1/orgs/<org>/actions",
    "/api/v1/notifications",
)
JOB_RENDERING = frozenset({"renderMarkup", "renderMarkdown", "renderMarkdownRaw"})
"""Instance-level POST routes that only compute an answer (no state), open to a job's markup previews."""


def job_token_may(path: str, method: str, endpoint: str) -> bool:
    """Whether an Actions job token (``GITEA_TOKEN``) may call a REST route (its URL rule and method).

    A job token acts for its own repository only: every route of a repository (the repository
    permission then allows its own repository, and reading public ones); elsewhere only reads of
    instance-wide or public information and ``GET /user`` (who it is). Never user- or
    organization-level state, a runner registration, a repository or organization of its own, or
    another token. Refused with 403 :data:`JOB_TOKEN_REFUSAL` before the route runs; ``/token``
    answers a job token itself (404, as Gitea)."""
    if not path.startswith("/api/v1/") or path.startswith(REPOSITORY_PREFIX + "/") or path == REPOSITORY_PREFIX:
        return True
    if path == "/api/v1/token" or endpoint in JOB_RENDERING:
        return True
    if method not in ("GET", "HEAD"):
        return False
    return path == "/api/v1/user" or not path.startswith(JOB_READS_REFUSED)

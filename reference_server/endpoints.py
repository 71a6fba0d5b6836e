"""Endpoint declarations: each family lists its operations once, in ``routes.ENDPOINTS``.

One :class:`Endpoint` says everything the rest of the server needs about an operation: its method and
path, Gitea's operation id, the view, the API tag, who may call it (:class:`~.access.Rule`: the kinds
of credentials, the token scope categories, the permission needed on the repository or organization the path
names), the request body's option model, and the success answer (status and ``schemas/`` file). From these
the app registers the routes (:func:`register_endpoints`), refuses callers before any view runs
(:func:`enforce_access`, :func:`enforce_permissions`; the view then reads what was found with
``permissions.current_repo`` or ``current_org``), the security tests enumerate the rules, and
``misc.apidoc`` builds ``swagger.v1.json`` and ``openapi3.v1.json``. Nothing else declares an endpoint.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app, g, request
from werkzeug.routing import Rule as WerkzeugRule

from .access import JOB_TOKEN_REFUSAL, Rule, job_token_may
from .auth import check_scope, current_principal
from .bodies import SCHEMAS, check_body
from .errors import BasicAuthRequired, Forbidden
from .permissions import enforce_path_targets

__all__ = [
    "ANY_METHOD",
    "EMPTY",
    "FILE",
    "TEXT",
    "WIRE",
    "Endpoint",
    "LazyBuildRule",
    "endpoint_of",
    "endpoints_of",
    "enforce_access",
    "enforce_permissions",
    "register_endpoints",
]

API = "/api/v1"
ANY_METHOD = "*"
"""The method of an RPC surface (the runner protocol, the artifact service) that dispatches inside its view."""
RPC_METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")
EMPTY = ""
"""``returns`` of an operation that answers no body."""
TEXT = "text"
"""``returns`` of an operation that answers rendered HTML or plain text (markup, diffs, patches)."""
FILE = "file"
"""``returns`` of an operation that answers a file in its own media type (raw files, avatars, zips)."""
WIRE = "wire"
"""``returns`` of a wire protocol's route (Git smart HTTP, LFS transfers, Twirp, Connect): its own format."""
RAW_TEXT = "text"
"""``body`` of an operation whose request body is plain text, not a JSON option model."""

TAGS = (
    "admin",
    "issue",
    "miscellaneous",
    "notification",
    "organization",
    "package",
    "repository",
    "settings",
    "user",
)
"""Gitea's API tags, in Gitea's (alphabetical) order; every ``/api/v1`` operation carries one."""
SURFACES = frozenset(
    {
        "activitypub",
        "artifacts",
        "attachments",
        "avatars",
        "description",
        "git",
        "lfs",
        "packages",
        "reference",
        "runner",
    }
)
"""Tags of the routes outside Gitea's REST description: wire protocols, pictures, the description itself and
the test hooks."""


@dataclass(frozen=True)
class Endpoint:
    """One operation, declared once by its family."""

    method: str
    """``GET``, ``POST``, ... or :data:`ANY_METHOD`."""
    path: str
    """The Flask rule, ``/api/v1/...`` for the REST API."""
    operation_id: str
    """Gitea's operation id where Gitea has the operation; the Flask endpoint name."""
    view: Callable[..., Any]
    tag: str
    """One of :data:`TAGS` for the REST API, of :data:`SURFACES` elsewhere."""
    access: Rule
    body: str | None = None
    """The request body's option model (``option_models``), :data:`RAW_TEXT`, or None for none."""
    status: int = 200
    """The success status."""
    returns: str | None = None
    """The success body: a ``schemas/`` file name, ``[name]`` for an array of them, ``a|b`` for either;
    :data:`EMPTY`, :data:`TEXT`, :data:`FILE` or :data:`WIRE`; None when undeclared (a unit test refuses it)."""
    errors: tuple[int, ...] = ()
    """The refusals (4xx) Gitea documents for the operation; its documented 5xx are no part of a contract."""

    @property
    def methods(self) -> tuple[str, ...]:
        return RPC_METHODS if self.method == ANY_METHOD else (self.method,)

    @property
    def is_rest(self) -> bool:
        return self.path.startswith(API + "/")


UNDECLARED_REFUSAL = "this route declares no access rule"
REQUEST_STATE = ("endpoint", "target_repo", "target_org", "target_user")
"""What the checks keep in ``g`` for the view, forgotten when the next request starts."""
TEST_HOOKS = API + "/-/"
"""Paths of the reference's test hooks, served only with ``config.test_hooks``."""


class LazyBuildRule(WerkzeugRule):
    """A URL rule that compiles its URL builders on first use. Werkzeug generates and compiles two builder
    functions per rule as the rule is added (most of the cost of making an app: about 80 % of ``create_app``
    for ~500 rules), while the reference matches every request but builds URLs from rules almost never; the
    unit tests make an app per test. Matching is compiled as before."""

    def _compile_builder(self, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
        compile_now = super()._compile_builder
        attribute = "_build_unknown" if append_unknown else "_build"

        def build_later(rule: WerkzeugRule, *args: Any, **kwargs: Any) -> tuple[str, str]:
            builder: Callable[..., tuple[str, str]] = compile_now(append_unknown).__get__(rule, None)
            setattr(rule, attribute, builder)  # later builds go straight to the compiled builder
            return builder(*args, **kwargs)

        return build_later


def register_endpoints(app: Flask, endpoints: Iterable[Endpoint], *, test_hooks: bool) -> None:
    """Add the routes; an operation id declared for several methods of one path becomes one Flask rule.
    An RPC surface answers every method itself, ``OPTIONS`` included."""
    grouped: dict[str, list[Endpoint]] = {}
    for endpoint in endpoints:
        if test_hooks or not endpoint.path.startswith(TEST_HOOKS):
            grouped.setdefault(endpoint.operation_id, []).append(endpoint)
    known: dict[str, list[Endpoint]] = app.extensions.setdefault("endpoints", {})
    for name, group in grouped.items():
        first = group[0]
        if name in known or any(other.path != first.path or other.access != first.access for other in group[1:]):
            raise ValueError(f"{name}: declared twice, or with several paths or access rules")
        methods = [method for endpoint in group for method in endpoint.methods]
        rpc = first.method == ANY_METHOD
        app.add_url_rule(
            first.path,
            endpoint=name,
            view_func=first.view,
            methods=methods,
            provide_automatic_options=False if rpc else None,
        )
        known[name] = group


def endpoints_of(app: Flask) -> Mapping[str, Sequence[Endpoint]]:
    """Every declared endpoint of ``app`` by operation id (several for one id served under several methods)."""
    found: Mapping[str, Sequence[Endpoint]] = app.extensions.get("endpoints", {})
    return found


def endpoint_of(app: Flask, name: str, method: str) -> Endpoint | None:
    """The declaration behind a Flask endpoint name and method."""
    for endpoint in endpoints_of(app).get(name, ()):
        if method in endpoint.methods or (method == "HEAD" and "GET" in endpoint.methods):
            return endpoint
    return None


def enforce_access() -> None:
    """Refuse the caller before the view runs, by the matched route's declared rule (a ``before_request``)."""
    for name in REQUEST_STATE:  # an application context can outlive a request (a test's ``app_context()``)
        g.pop(name, None)
    url_rule = request.url_rule
    if url_rule is None or url_rule.endpoint == "static":
        return
    endpoint = endpoint_of(current_app, url_rule.endpoint, request.method)
    if endpoint is None:
        if request.method == "OPTIONS":  # Flask's automatic answer, which runs no view
            return
        raise Forbidden(UNDECLARED_REFUSAL)  # fail closed: a route added behind the tables' back runs for nobody
    principal = g.get("principal")
    is_job = principal is not None and principal.task_id is not None
    if is_job and not job_token_may(url_rule.rule, request.method, url_rule.endpoint):
        raise Forbidden(JOB_TOKEN_REFUSAL)
    _check(endpoint.access)
    g.endpoint = endpoint


def enforce_permissions() -> None:
    """Refuse the caller by the permission the matched route declares on the repository, organization or
    account its path names, then refuse a request body that breaks the declared option model (a
    ``before_request`` after :func:`enforce_access` and after the redirects of renamed accounts, which
    answer for names no account holds any more)."""
    endpoint: Endpoint | None = g.get("endpoint")
    if endpoint is None:
        return
    rule = endpoint.access
    if {"token", "basic"} & set(rule.kinds):
        enforce_path_targets(rule.repo, rule.org, rule.user, request.view_args)
    if endpoint.body in SCHEMAS:
        check_body(endpoint.body)


def _check(rule: Rule) -> None:
    """The account checks of a rule (the permission on a repository or organization comes after, in
    :func:`enforce_permissions`); the other kinds (signed URLs, runners, jobs, Git) are their surfaces' own."""
    write = True if rule.write_on_read else None
    if "admin" in rule.kinds:
        check_scope("admin", write=write)
        if not current_principal().is_admin:
            raise Forbidden("user should be the site admin")
    elif "basic" in rule.kinds:
        if not current_principal().by_password:
            raise BasicAuthRequired("auth required")
    elif "token" in rule.kinds:
        for category in rule.categories:
            check_scope(category, anonymous_ok=rule.anonymous_read, write=write)

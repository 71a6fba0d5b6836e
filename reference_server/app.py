"""The application factory: builds storage, families and wire surfaces for one instance."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from flask import Flask, Response, g, request
from werkzeug.exceptions import HTTPException
from werkzeug.routing import IntegerConverter

from .access import PUBLIC, Rule
from .auth import resolve_credentials
from .blobs import BlobStore
from .bodylimit import install_body_limit
from .config import Config
from .context import Forge
from .db import Database
from .deploy_tokens.models import git_principal_for_token
from .diskfull import INSUFFICIENT_STORAGE, is_disk_full
from .diskfull import MESSAGE as DISK_FULL_MESSAGE
from .endpoints import Endpoint, LazyBuildRule, enforce_access, enforce_permissions, register_endpoints
from .errors import ApiError, ConnectError, TwirpError
from .events import EventBus
from .families import FAMILIES, SCHEMAS
from .lfs.models import lfs_principal_for_token
from .repos.store import upgrade as upgrade_repos_table
from .rest import json_response
from .signing import Signer, load_or_create_secret
from .users.bootstrap import bootstrap as bootstrap_admin
from .users.models import principal_for_password
from .users.tokens import principal_for_token

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

__all__ = ["create_app", "declared_endpoints", "declared_rules"]

log = logging.getLogger("reference_server")

TWIRP_PREFIX = "/twirp/"
RUNNER_PREFIX = "/api/actions/"


def declared_endpoints() -> list[Endpoint]:
    """Every endpoint the families declare (the test hooks too): what the security tests enumerate."""
    return [endpoint for family in FAMILIES for endpoint in family.endpoints]


def declared_rules() -> dict[str, Rule]:
    """Every Flask endpoint's access rule, by name; Flask's own static route (no static folder: always 404) is
    public."""
    return {"static": PUBLIC, **{endpoint.operation_id: endpoint.access for endpoint in declared_endpoints()}}


def _decimal_at_most(limit: int) -> str:
    """A regular expression of the decimal numbers from 0 to ``limit`` (leading zeros allowed)."""
    digits = str(limit)
    choices = [rf"\d{{1,{len(digits) - 1}}}"] if len(digits) > 1 else []
    for position, digit in enumerate(digits):
        rest = len(digits) - position - 1
        if digit != "0":
            tail = rf"\d{{{rest}}}" if rest else ""
            choices.append(f"{digits[:position]}[0-{int(digit) - 1}]{tail}")
    choices.append(digits)
    return "0*(?:" + "|".join(choices) + ")"


class Int64Converter(IntegerConverter):
    """``<int:...>`` path segments within SQLite's signed 64-bit integers: a larger number names nothing, so no
    route matches it (404 for every method) instead of overflowing in a query (found by the fuzzer). The bound
    is in the pattern, not only in the conversion: werkzeug converts after picking a rule by method, and a
    refused conversion there would answer 405 when another operation shares the path."""

    regex = _decimal_at_most(2**63 - 1)

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", 2**63 - 1)
        super().__init__(map, *args, **kwargs)


class ReferenceFlask(Flask):
    """Flask, remembering which of its hooks and views are coroutines: it asks ``inspect`` again for every
    hook of every request (a dozen per request here), and the answer never changes."""

    def __init__(self, import_name: str) -> None:
        super().__init__(import_name)
        self._synchronous: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        known = self._synchronous.get(func)
        if known is None:
            known = self._synchronous[func] = super().ensure_sync(func)
        return known


class SubPathMiddleware:
    """Serve the app under the base URL's sub-path; the artifact protocol stays at the origin root
    because the official client drops any path from ``ACTIONS_RESULTS_URL``."""

    def __init__(self, app: WSGIApplication, sub_path: str) -> None:
        self.app = app
        self.prefix = "/" + sub_path if sub_path else ""

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        path: str = environ.get("PATH_INFO", "")
        if self.prefix and (path == self.prefix or path.startswith(self.prefix + "/")):
            environ["SCRIPT_NAME"] = environ.get("SCRIPT_NAME", "") + self.prefix
            environ["PATH_INFO"] = path[len(self.prefix) :] or "/"
        return self.app(environ, start_response)


def _twirp_error(error: TwirpError) -> Response:
    return json_response({"code": error.code, "msg": error.msg}, status=error.status)


def _connect_error(error: ConnectError) -> Response:
    response = json_response({"code": error.code, "message": error.message}, status=error.status)
    response.content_type = "application/json"
    return response


def _install_error_handlers(app: Flask, forge: Forge) -> None:
    """One renderer per wire format, chosen by path; no traceback ever reaches a client."""

    def rest_error(status: int, message: str) -> Response:
        return json_response({"message": message, "url": forge.url("api/swagger")}, status=status)

    @app.errorhandler(ApiError)
    def on_api_error(error: ApiError) -> Response:
        return rest_error(error.status, error.message)

    app.register_error_handler(TwirpError, _twirp_error)
    app.register_error_handler(ConnectError, _connect_error)

    def disk_full(error: Exception) -> Response:
        """507 with a message on every surface: the disk, not the request, is at fault (diskfull.py)."""
        log.warning("disk full on %s %s: %s", request.method, request.path, error)
        if request.path.startswith(TWIRP_PREFIX):
            body = {"code": "resource_exhausted", "msg": DISK_FULL_MESSAGE}
        elif request.path.startswith(RUNNER_PREFIX):
            body = {"code": "resource_exhausted", "message": DISK_FULL_MESSAGE}
        else:
            body = {"message": DISK_FULL_MESSAGE, "url": forge.url("api/swagger")}
        return json_response(body, status=INSUFFICIENT_STORAGE)

    @app.errorhandler(HTTPException)
    def on_http_error(error: HTTPException) -> Response:
        status = error.code or 500
        path = request.path
        if path.startswith(TWIRP_PREFIX):
            code = {404: "bad_route", 405: "bad_route", 413: "resource_exhausted"}.get(status, "malformed")
            too_large = 413 if status == 413 else None  # a body over the limit stays 413: clients retry 429
            return _twirp_error(TwirpError(code, error.description or error.name, status=too_large))
        if path.startswith(RUNNER_PREFIX):
            code = {404: "unimplemented", 405: "unimplemented", 413: "resource_exhausted"}.get(
                status, "invalid_argument"
            )
            too_large = 413 if status == 413 else None
            return _connect_error(ConnectError(code, error.description or error.name, status=too_large))
        message = "not found" if status == 404 else (error.description or error.name)
        return rest_error(status, message)

    @app.errorhandler(Exception)
    def on_unexpected(error: Exception) -> Response:
        if is_disk_full(error):
            return disk_full(error)
        log.exception("unhandled error on %s %s", request.method, request.path)
        if request.path.startswith(TWIRP_PREFIX):
            return _twirp_error(TwirpError("internal", "internal error"))
        if request.path.startswith(RUNNER_PREFIX):
            return _connect_error(ConnectError("internal", "internal error"))
        return rest_error(500, "internal error")


def _install_request_hooks(app: Flask) -> None:
    install_body_limit(app, exempt=(TWIRP_PREFIX,))  # the artifact service sets its own limits

    @app.before_request
    def authenticate() -> None:
        if request.path.startswith(("/api/v1/", "/api/packages/")):
            resolve_credentials(principal_for_token, principal_for_password)
        elif ".git/info/lfs/" in request.path:
            resolve_credentials(lfs_principal_for_token, principal_for_password)  # also deploy and LFS transfer tokens
        elif request.path.endswith(".git") or ".git/" in request.path:
            resolve_credentials(git_principal_for_token, principal_for_password)  # also deploy tokens
        elif request.path.startswith("/attachments/") or "/releases/download/" in request.path:
            resolve_credentials(principal_for_token, principal_for_password)  # release assets, downloaded as a reader

    app.before_request(enforce_access)  # the declared access rule of the matched endpoint, before its view

    @app.after_request
    def common_headers(response: Response) -> Response:
        if "X-Content-Type-Options" not in response.headers:  # werkzeug's setdefault raises and catches a KeyError
            response.headers["X-Content-Type-Options"] = "nosniff"
        warning = g.get("auth_warning")
        if warning:
            response.headers["X-Gitea-Warning"] = warning
        return response


def create_app(config: Config, *, configure: Callable[[Flask], Any] | None = None) -> Flask:
    """Build one reference server instance over ``config.data_dir`` (created if missing)."""
    config.data_dir.mkdir(parents=True, exist_ok=True)
    app = ReferenceFlask("reference_server")
    app.url_rule_class = LazyBuildRule
    app.url_map.converters["int"] = Int64Converter
    app.config["MAX_CONTENT_LENGTH"] = config.limits.max_request_body_bytes
    app.json.sort_keys = False  # type: ignore[attr-defined]
    forge = Forge(
        config=config,
        db=Database(config.data_dir / "forge.db"),
        blobs=BlobStore(config.data_dir / "blobs"),
        signer=Signer(load_or_create_secret(config.data_dir)),
        events=EventBus(),
    )
    app.extensions["forge"] = forge
    _ = (forge.webhook_hosts, forge.migration_hosts)  # a bad allow-list stops the start, not a delivery
    forge.db.apply_schema(SCHEMAS)
    upgrade_repos_table(forge.db)
    _install_error_handlers(app, forge)
    _install_request_hooks(app)
    with app.app_context():
        app.config["GENERATED_ADMIN_TOKEN"] = bootstrap_admin()
        for family in FAMILIES:
            register_endpoints(app, family.endpoints, test_hooks=config.test_hooks)
            if family.register is not None:  # wiring besides routes: events, hooks, workers
                family.register(app)
    app.before_request(enforce_permissions)  # after the families' own hooks (the redirects of renamed accounts)
    if configure is not None:
        configure(app)
    app.wsgi_app = SubPathMiddleware(app.wsgi_app, config.sub_path)  # type: ignore[method-assign]
    return app

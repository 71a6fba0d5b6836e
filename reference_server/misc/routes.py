"""Routes of the misc family: version, API settings, API description, and the test clock when enabled."""

from __future__ import annotations

from flask import Flask, Response, current_app

from ..auth import require_admin
from ..context import forge
from ..rest import empty, json_body, json_response
from . import apidoc, models
from .activitypub import register_activitypub

__all__ = ["register"]

API = "/api/v1"


def get_version() -> Response:
    """The version of the server application."""
    return json_response(models.version())


def get_general_api_settings() -> Response:
    """The instance's paging and size settings of the API."""
    return json_response(models.api_settings())


def swagger_json() -> Response:
    response = json_response(apidoc.swagger2(current_app, forge()))
    response.content_type = "application/json"
    return response


def openapi3_json() -> Response:
    response = json_response(apidoc.openapi3(current_app, forge()))
    response.content_type = "application/json"
    return response


def reference_get_clock() -> Response:
    """Reference only: the server clock's offset from real time."""
    require_admin()
    return json_response(models.clock_state())


def reference_set_clock() -> Response:
    """Reference only: move the server clock by an offset from real time."""
    require_admin()
    return json_response(models.set_clock_offset(json_body(required=("offset_seconds",))))


def reference_set_host(name: str) -> Response:
    """Reference only: resolve ``name`` to the given addresses in outgoing requests (DNS rebinding tests)."""
    require_admin()
    models.set_static_host(name, json_body(required=("addresses",)))
    return empty()


def register(app: Flask) -> None:
    """Attach the misc routes; the clock hook exists only with ``config.test_hooks``."""
    app.add_url_rule(f"{API}/version", endpoint="getVersion", view_func=get_version, methods=["GET"])
    app.add_url_rule(
        f"{API}/settings/api", endpoint="getGeneralAPISettings", view_func=get_general_api_settings, methods=["GET"]
    )
    app.add_url_rule("/swagger.v1.json", endpoint="swaggerJson", view_func=swagger_json, methods=["GET"])
    app.add_url_rule("/openapi3.v1.json", endpoint="openapi3Json", view_func=openapi3_json, methods=["GET"])
    register_activitypub(app)
    if forge().config.test_hooks:
        clock = f"{API}/-/reference/clock"
        app.add_url_rule(clock, endpoint="referenceGetClock", view_func=reference_get_clock, methods=["GET"])
        app.add_url_rule(clock, endpoint="referenceSetClock", view_func=reference_set_clock, methods=["PUT"])
        hosts = f"{API}/-/reference/hosts/<name>"
        app.add_url_rule(hosts, endpoint="referenceSetHost", view_func=reference_set_host, methods=["PUT"])

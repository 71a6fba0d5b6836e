"""Routes of the misc family: version, the instance's general settings, API description, and the test clock when
enabled."""

from __future__ import annotations

from flask import Flask, Response, current_app

from ..access import ADMIN, PUBLIC
from ..context import forge
from ..endpoints import EMPTY, Endpoint
from ..rest import empty, json_body, json_response
from . import apidoc, models
from .activitypub import register_activitypub

__all__ = ["ENDPOINTS", "register"]

API = "/api/v1"


def get_version() -> Response:
    """The version of the server application."""
    return json_response(models.version())


def get_general_api_settings() -> Response:
    """The instance's paging and size settings of the API."""
    return json_response(models.api_settings())


def get_general_ui_settings() -> Response:
    """The instance's UI settings: reactions, custom emojis, the default theme."""
    return json_response(models.ui_settings())


def get_general_repository_settings() -> Response:
    """Which repository features the instance has switched off."""
    return json_response(models.repository_settings())


def get_general_attachment_settings() -> Response:
    """The instance's limits on attachments."""
    return json_response(models.attachment_settings())


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
    return json_response(models.clock_state())


def reference_set_clock() -> Response:
    """Reference only: move the server clock by an offset from real time."""
    return json_response(models.set_clock_offset(json_body(required=("offset_seconds",))))


def reference_set_host(name: str) -> Response:
    """Reference only: resolve ``name`` to the given addresses in outgoing requests (DNS rebinding tests)."""
    models.set_static_host(name, json_body(required=("addresses",)))
    return empty()


def register(app: Flask) -> None:
    """Answer the ActivityPub paths before routing."""
    register_activitypub(app)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("GET", API + "/version", "getVersion", get_version, "miscellaneous", PUBLIC, returns="version"),
    Endpoint(
        "GET",
        API + "/settings/api",
        "getGeneralAPISettings",
        get_general_api_settings,
        "settings",
        PUBLIC,
        returns="general_api_settings",
    ),
    Endpoint(
        "GET",
        API + "/settings/ui",
        "getGeneralUISettings",
        get_general_ui_settings,
        "settings",
        PUBLIC,
        returns="general_ui_settings",
    ),
    Endpoint(
        "GET",
        API + "/settings/repository",
        "getGeneralRepositorySettings",
        get_general_repository_settings,
        "settings",
        PUBLIC,
        returns="general_repo_settings",
    ),
    Endpoint(
        "GET",
        API + "/settings/attachment",
        "getGeneralAttachmentSettings",
        get_general_attachment_settings,
        "settings",
        PUBLIC,
        returns="general_attachment_settings",
    ),
    Endpoint("GET", "/swagger.v1.json", "swaggerJson", swagger_json, "description", PUBLIC, returns="swagger"),
    Endpoint(
        "GET",
        API + "/-/reference/clock",
        "referenceGetClock",
        reference_get_clock,
        "reference",
        ADMIN,
        returns="reference_clock",
    ),
    Endpoint(
        "PUT",
        API + "/-/reference/clock",
        "referenceSetClock",
        reference_set_clock,
        "reference",
        ADMIN,
        returns="reference_clock",
    ),
    Endpoint(
        "PUT",
        API + "/-/reference/hosts/<name>",
        "referenceSetHost",
        reference_set_host,
        "reference",
        ADMIN,
        status=204,
        returns=EMPTY,
    ),
    Endpoint("GET", "/openapi3.v1.json", "openapi3Json", openapi3_json, "description", PUBLIC, returns="openapi3"),
)

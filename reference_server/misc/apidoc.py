"""The API description, built from the routes the app really registered under ``/api/v1``.

Served as Swagger 2.0 (``/swagger.v1.json``) and OpenAPI 3.0.3 (``/openapi3.v1.json``), with
``info.version`` ``0.0.0+<app_version>`` and the base path under the deployment sub-path (spec 9.2).
Every operation's tag, request body and success answer come from its declaration (``endpoints.Endpoint``).
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from werkzeug.routing import AnyConverter, IntegerConverter, PathConverter, Rule

from ..context import Forge
from ..endpoints import EMPTY, FILE, RAW_TEXT, TEXT, WIRE, Endpoint, endpoint_of
from ..option_models import model_schemas
from .openapi_schemas import SUCCESS_STATUS_KEY, openapi30_components, schema_files, success_response

__all__ = ["openapi3", "swagger2"]

API_PREFIX = "/api/v1"
REFERENCE_ONLY_PREFIX = API_PREFIX + "/-/"
"""Test hooks of the reference server are not part of the forge API, so the description leaves them out."""
_PARAM = re.compile(r"<(?:[a-zA-Z_]+(?:\([^)]*\))?:)?([a-zA-Z_][a-zA-Z0-9_]*)>")
_TAG_DESCRIPTIONS = {
    "admin": "site administration",
    "issue": "issues, pull requests, comments, labels, milestones",
    "miscellaneous": "miscellaneous endpoints",
    "notification": "user notifications",
    "organization": "organizations and teams",
    "package": "package registry",
    "repository": "repositories and their contents",
    "settings": "server settings",
    "user": "the authenticated user",
}


def _base_path(forge: Forge) -> str:
    sub = forge.config.sub_path
    return f"/{sub}{API_PREFIX}" if sub else API_PREFIX


def _info(forge: Forge) -> dict[str, Any]:
    return {
        "title": "Gitea-compatible API (reference server)",
        "description": "The REST API of the conformance kit's reference server; operations are Gitea's.",
        "license": {"name": "MIT", "url": "http://opensource.org/licenses/MIT"},
        "version": f"0.0.0+{forge.config.app_version}",
    }


Param = tuple[str, dict[str, Any]]
"""A path parameter: its name and its JSON Schema, from the route's converter."""
INT64_MAX = 2**63 - 1
_BODY_METHODS = ("post", "put", "patch")


def _param_schema(rule: Rule, name: str) -> dict[str, Any]:
    """What the route's converter matches: ``int`` digits within SQLite's integers, ``path`` any text
    (slashes too), ``any`` its choices, otherwise a non-empty segment without ``/``."""
    converter = getattr(rule, "_converters", {}).get(name)
    if isinstance(converter, IntegerConverter):
        return {"type": "integer", "minimum": 0, "maximum": INT64_MAX}
    if isinstance(converter, PathConverter):
        return {"type": "string", "minLength": 1}
    if isinstance(converter, AnyConverter):
        return {"type": "string", "enum": sorted(converter.items)}
    return {"type": "string", "minLength": 1, "pattern": "^[^/]+$"}


Operation = tuple[str, str, dict[str, Any], list[Param], Endpoint]
"""``(path, method, operation, path parameters, declaration)``."""


def _operations(app: Flask) -> list[Operation]:
    """Every API operation, sorted by path and method."""
    found: list[Operation] = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(API_PREFIX + "/") or rule.rule.startswith(REFERENCE_ONLY_PREFIX):
            continue
        path = _PARAM.sub(lambda match: "{" + match.group(1) + "}", rule.rule[len(API_PREFIX) :])
        params = [(name, _param_schema(rule, name)) for name in _PARAM.findall(rule.rule)]
        view = app.view_functions.get(rule.endpoint)
        doc = (getattr(view, "__doc__", None) or "").strip().splitlines()
        module = getattr(view, "__module__", "") or ""
        family = module.split(".")[1] if module.startswith("reference_server.") else module
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            endpoint = endpoint_of(app, rule.endpoint, method)
            if endpoint is None:
                raise LookupError(f"{rule.endpoint} {method}: a route without a declaration")
            operation: dict[str, Any] = {
                "operationId": endpoint.operation_id,
                "tags": [endpoint.tag],
                "x-family": family,
            }
            if doc:
                operation["summary"] = doc[0]
            found.append((path, method.lower(), operation, params, endpoint))
    found.sort(key=lambda item: (item[0], item[1]))
    _unique_operation_ids(found)
    return found


def _unique_operation_ids(found: list[Operation]) -> None:
    """One endpoint may serve several methods or paths; operation ids must still be unique in the document."""
    counts: dict[str, int] = {}
    for _, _, operation, _, _ in found:
        counts[operation["operationId"]] = counts.get(operation["operationId"], 0) + 1
    used: set[str] = set()
    for path, method, operation, _, _ in found:
        base = operation["operationId"]
        candidate = base if counts[base] == 1 else f"{base}_{method}"
        if candidate in used:
            slug = re.sub(r"[^A-Za-z0-9]+", "_", path).strip("_")
            candidate = f"{base}_{method}_{slug}"
        used.add(candidate)
        operation["operationId"] = candidate


def _security_schemes() -> dict[str, Any]:
    return {
        "BasicAuth": {"type": "basic"},
        "AuthorizationHeaderToken": {
            "type": "apiKey",
            "name": "Authorization",
            "in": "header",
            "description": "API tokens must be prepended with 'token' followed by a space.",
        },
        "Token": {"type": "apiKey", "name": "token", "in": "query"},
        "AccessToken": {"type": "apiKey", "name": "access_token", "in": "query"},
    }


def _security() -> list[dict[str, list[str]]]:
    return [{name: []} for name in ("BasicAuth", "AuthorizationHeaderToken", "Token", "AccessToken")]


def _used_tags(paths: dict[str, dict[str, Any]]) -> list[dict[str, str]]:
    used = sorted({tag for methods in paths.values() for op in methods.values() for tag in op["tags"]})
    return [{"name": tag, "description": _TAG_DESCRIPTIONS[tag]} for tag in used]


_API_ERROR = {
    "type": "object",
    "required": ["message"],
    "properties": {"message": {"type": "string"}, "url": {"type": "string"}},
}
_SUCCESS = "the operation's result: a JSON document, text for rendering and diff operations, or nothing (204)"
_REFUSED = "a refusal: Gitea's APIError body"
_REDIRECTING = re.compile(r"^/(orgs/\{org\}|users/\{username\}|repos/\{owner\}/\{repo\})(/|$)")
"""Paths naming an account, which may redirect: a renamed account's old name (307, Gitea's RedirectToUser), a
non-member asking for a membership (303 to the public check), an artifact's zip (302 to its signed URL)."""


def _body_schema(endpoint: Endpoint, ref: str) -> dict[str, Any]:
    return {"$ref": ref + endpoint.body} if endpoint.body else {"type": "object"}


def _success_types(endpoint: Endpoint) -> list[str]:
    """Media types of a 2xx answer: JSON, plus text for the operations that render or diff."""
    if endpoint.returns == TEXT:
        return ["text/html", "text/plain", "application/json"]
    if endpoint.returns == FILE:
        return ["*/*"]
    return ["application/json", "text/plain"]


def _schema_spec(endpoint: Endpoint) -> str | None:
    """The ``schemas/`` spec of a JSON success body, None for other answers."""
    return None if endpoint.returns in (None, EMPTY, TEXT, FILE, WIRE) else endpoint.returns


def swagger2(app: Flask, forge: Forge) -> dict[str, Any]:
    """The Swagger 2.0 document."""
    paths: dict[str, dict[str, Any]] = {}
    for path, method, operation, params, endpoint in _operations(app):
        entry = dict(operation)
        entry["parameters"] = [{"name": name, "in": "path", "required": True, **schema} for name, schema in params]
        if method in _BODY_METHODS and endpoint.body == RAW_TEXT:
            entry["consumes"] = ["text/plain"]
            entry["parameters"].append({"name": "body", "in": "body", "schema": {"type": "string"}})
        elif method in _BODY_METHODS:
            entry["consumes"] = ["application/json"]
            entry["parameters"].append(
                {"name": "body", "in": "body", "schema": _body_schema(endpoint, "#/definitions/")}
            )
        entry["produces"] = _success_types(endpoint)
        entry["responses"] = {
            "default": {
                "description": "Gitea's answer; errors as APIError",
                "schema": {"$ref": "#/definitions/APIError"},
            }
        }
        paths.setdefault(path, {})[method] = entry
    return {
        "swagger": "2.0",
        "info": _info(forge),
        "basePath": _base_path(forge),
        "schemes": ["http", "https"],
        "consumes": ["application/json", "text/plain"],
        "produces": ["application/json", "text/html"],
        "paths": paths,
        "definitions": {"APIError": _API_ERROR, **model_schemas("#/definitions/")},
        "securityDefinitions": _security_schemes(),
        "security": _security(),
        "tags": _used_tags(paths),
    }


_REFUSAL = {
    "description": _REFUSED,
    "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/APIError"}},
        "text/plain": {"schema": {"type": "string"}},
    },
}
"""A 4xx answer: Gitea's APIError body (some refusals, such as a missing Git object, are plain text)."""


def _responses3(path: str, endpoint: Endpoint) -> dict[str, Any]:
    """The declared success status with its ``schemas/`` body, other 2XX in their media types (any JSON), the
    documented refusals and any other 4XX as APIError; nothing else is declared, so a 5xx contradicts the
    description."""
    any_result: dict[str, Any] = {}
    created: dict[str, Any] = {}
    if endpoint.returns == EMPTY and endpoint.status in (200, 201):
        created[str(endpoint.status)] = {
            "description": "created; no content" if endpoint.status == 201 else "done; no content"
        }
    if _REDIRECTING.match(path):
        created["3XX"] = {"description": "a redirect: the new name of a renamed account, or where the result is"}
    spec = _schema_spec(endpoint)
    declared = {SUCCESS_STATUS_KEY: str(endpoint.status)} if endpoint.returns is not None else {}
    return {
        **declared,
        **created,
        **(success_response(endpoint.status, spec) if spec else {}),
        "204": {"description": "done; no content"},
        "2XX": {
            "description": _SUCCESS,
            "content": {media: {"schema": any_result} for media in _success_types(endpoint)},
        },
        **{str(status): _REFUSAL for status in endpoint.errors},
        "4XX": _REFUSAL,
    }


def openapi3(app: Flask, forge: Forge) -> dict[str, Any]:
    """The OpenAPI 3.0.3 document, with the base path as its only server."""
    paths: dict[str, dict[str, Any]] = {}
    files: set[str] = set()
    for path, method, operation, params, endpoint in _operations(app):
        entry = dict(operation)
        entry["parameters"] = [
            {"name": name, "in": "path", "required": True, "schema": schema} for name, schema in params
        ]
        if method in _BODY_METHODS and endpoint.body == RAW_TEXT:
            entry["requestBody"] = {"content": {"text/plain": {"schema": {"type": "string"}}}}
        elif method in _BODY_METHODS:
            schema = _body_schema(endpoint, "#/components/schemas/")
            entry["requestBody"] = {"content": {"application/json": {"schema": schema}}}
        entry["responses"] = _responses3(path, endpoint)
        files |= schema_files(_schema_spec(endpoint) or "")
        paths.setdefault(path, {})[method] = entry
    schemes = _security_schemes()
    schemes["BasicAuth"] = {"type": "http", "scheme": "basic"}
    return {
        "openapi": "3.0.3",
        "info": _info(forge),
        "servers": [{"url": _base_path(forge)}],
        "paths": paths,
        "components": {
            "schemas": {
                "APIError": _API_ERROR,
                **model_schemas("#/components/schemas/"),
                **openapi30_components(frozenset(files - {""})),
            },
            "securitySchemes": schemes,
        },
        "security": _security(),
        "tags": _used_tags(paths),
    }

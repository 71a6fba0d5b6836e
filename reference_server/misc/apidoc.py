"""The API description, built from the routes the app really registered under ``/api/v1``.

Served as Swagger 2.0 (``/swagger.v1.json``) and OpenAPI 3.0.3 (``/openapi3.v1.json``), with
``info.version`` ``0.0.0+<app_version>`` and the base path under the deployment sub-path (spec 9.2).
The OpenAPI 3 document also declares the success bodies of the operations ``response_schemas`` maps.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from werkzeug.routing import AnyConverter, IntegerConverter, PathConverter, Rule

from ..context import Forge
from .apibodies import RAW_TEXT_OPERATIONS, body_model, model_schemas
from .response_schemas import openapi30_components, success_response

__all__ = ["openapi3", "swagger2"]

API_PREFIX = "/api/v1"
REFERENCE_ONLY_PREFIX = API_PREFIX + "/-/"
"""Test hooks of the reference server are not part of the forge API, so the description leaves them out."""
_PARAM = re.compile(r"<(?:[a-zA-Z_]+(?:\([^)]*\))?:)?([a-zA-Z_][a-zA-Z0-9_]*)>")
_TAGS = (
    ("/admin", "admin"),
    ("/user/settings", "settings"),
    ("/settings", "settings"),
    ("/user", "user"),
    ("/users", "user"),
    ("/orgs", "organization"),
    ("/repos", "repository"),
    ("/notifications", "notification"),
    ("/packages", "package"),
)
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
_ISSUE_PARTS = ("/issues", "/pulls", "/labels", "/milestones")


def _tag(path: str) -> str:
    """The specification's tag for a path (section 1), following Gitea's grouping."""
    if path.startswith("/repos/") and any(part in path for part in _ISSUE_PARTS):
        return "issue"
    for prefix, tag in _TAGS:
        if path == prefix or path.startswith(prefix + "/"):
            return tag
    return "miscellaneous"


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


def _operations(app: Flask) -> list[tuple[str, str, dict[str, Any], list[Param]]]:
    """``(path, method, operation, path parameters)`` for every API rule, sorted by path and method."""
    found: list[tuple[str, str, dict[str, Any], list[Param]]] = []
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
            operation: dict[str, Any] = {
                "operationId": rule.endpoint.rsplit(".", 1)[-1],
                "tags": [_tag(path)],
                "x-family": family,
            }
            if doc:
                operation["summary"] = doc[0]
            found.append((path, method.lower(), operation, params))
    found.sort(key=lambda item: (item[0], item[1]))
    _unique_operation_ids(found)
    return found


def _unique_operation_ids(found: list[tuple[str, str, dict[str, Any], list[Param]]]) -> None:
    """One endpoint may serve several methods or paths; operation ids must still be unique in the document."""
    counts: dict[str, int] = {}
    for _, _, operation, _ in found:
        counts[operation["operationId"]] = counts.get(operation["operationId"], 0) + 1
    used: set[str] = set()
    for path, method, operation, _ in found:
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
_TEXT_RESULTS = {
    "renderMarkdown",
    "renderMarkdownRaw",
    "renderMarkup",
    "repoRenderMarkdown",
    "repoRenderMarkdownRaw",
    "repoRenderMarkup",
    "repoDownloadCommitDiffOrPatch",
}


_EMPTY_CREATED = re.compile(r"^(actions_\w+_(create_variable|put_secret)|\w+AddIssueTo\w*ProjectColumn)$")
"""Operations that answer 201 with no body, as Gitea does."""
_EMPTY_OK = frozenset({"repoUpdatePullRequest", "repoMergePullRequest", "repoMirrorSync"})
"""Operations that answer 200 with no body, as Gitea does."""
_ANY_MEDIA = re.compile(r"^(repoGetRawFileOrLFS|\w*[Mm]edia\w*|\w*artifact\w*zip\w*)$")
"""Operations that answer a file in its own media type."""


_REDIRECTING = re.compile(r"^/(orgs/\{org\}|users/\{username\}|repos/\{owner\}/\{repo\})(/|$)")
"""Paths naming an account, which may redirect: a renamed account's old name (307, Gitea's RedirectToUser), a
non-member asking for a membership (303 to the public check), an artifact's zip (302 to its signed URL)."""


def _body_schema(operation_id: str, ref: str) -> dict[str, Any]:
    model = body_model(operation_id)
    return {"$ref": ref + model} if model else {"type": "object"}


def _success_types(operation_id: str) -> list[str]:
    """Media types of a 2xx answer: JSON, plus text for the operations that render or diff."""
    if operation_id in _TEXT_RESULTS:
        return ["text/html", "text/plain", "application/json"]
    if _ANY_MEDIA.match(operation_id):
        return ["*/*"]
    return ["application/json", "text/plain"]


def swagger2(app: Flask, forge: Forge) -> dict[str, Any]:
    """The Swagger 2.0 document."""
    paths: dict[str, dict[str, Any]] = {}
    for path, method, operation, params in _operations(app):
        entry = dict(operation)
        entry["parameters"] = [{"name": name, "in": "path", "required": True, **schema} for name, schema in params]
        op_id = entry["operationId"]
        if method in _BODY_METHODS and op_id in RAW_TEXT_OPERATIONS:
            entry["consumes"] = ["text/plain"]
            entry["parameters"].append({"name": "body", "in": "body", "schema": {"type": "string"}})
        elif method in _BODY_METHODS:
            entry["consumes"] = ["application/json"]
            entry["parameters"].append({"name": "body", "in": "body", "schema": _body_schema(op_id, "#/definitions/")})
        entry["produces"] = _success_types(op_id)
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


def _responses3(path: str, operation_id: str) -> dict[str, Any]:
    """The mapped success status with its ``schemas/`` body (``response_schemas``), other 2XX in their media
    types (any JSON), 4XX as APIError; nothing else is declared, so a 5xx contradicts the description."""
    any_result: dict[str, Any] = {}
    created = {"201": {"description": "created; no content"}} if _EMPTY_CREATED.match(operation_id) else {}
    if operation_id in _EMPTY_OK:
        created["200"] = {"description": "done; no content"}
    if _REDIRECTING.match(path):
        created["3XX"] = {"description": "a redirect: the new name of a renamed account, or where the result is"}
    return {
        **created,
        **success_response(operation_id),
        "204": {"description": "done; no content"},
        "2XX": {
            "description": _SUCCESS,
            "content": {media: {"schema": any_result} for media in _success_types(operation_id)},
        },
        "4XX": {
            "description": _REFUSED,
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/APIError"}},
                "text/plain": {"schema": {"type": "string"}},
            },
        },
    }


def openapi3(app: Flask, forge: Forge) -> dict[str, Any]:
    """The OpenAPI 3.0.3 document, with the base path as its only server."""
    paths: dict[str, dict[str, Any]] = {}
    for path, method, operation, params in _operations(app):
        entry = dict(operation)
        entry["parameters"] = [
            {"name": name, "in": "path", "required": True, "schema": schema} for name, schema in params
        ]
        op_id = entry["operationId"]
        if method in _BODY_METHODS and op_id in RAW_TEXT_OPERATIONS:
            entry["requestBody"] = {"content": {"text/plain": {"schema": {"type": "string"}}}}
        elif method in _BODY_METHODS:
            schema = _body_schema(op_id, "#/components/schemas/")
            entry["requestBody"] = {"content": {"application/json": {"schema": schema}}}
        entry["responses"] = _responses3(path, op_id)
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
                **openapi30_components(),
            },
            "securitySchemes": schemes,
        },
        "security": _security(),
        "tags": _used_tags(paths),
    }

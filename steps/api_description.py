"""Steps of the api_description area: the version, and the Swagger and OpenAPI 3 documents."""

from __future__ import annotations

from urllib.parse import urlsplit

from pytest_bdd import then, when

from conformance.client import json_of
from conformance.context import ScenarioContext
from conformance.target import Target
from steps.actors import ANONYMOUS, acting_api
from steps.parsing import phrase


def _api_path(target: Target) -> str:
    """``/<suburl>/api/v1`` of the target, from its base URL."""
    return urlsplit(target.base_url).path.rstrip("/") + "/api/v1"


@when(phrase("an anonymous client fetches the server version"))
def fetch_version(ctx: ScenarioContext) -> None:
    """``GET /api/v1/version`` without credentials."""
    ctx.response = acting_api(ctx, ANONYMOUS).misc.version()


@when(phrase("an anonymous client fetches the Swagger description"))
def fetch_swagger(ctx: ScenarioContext) -> None:
    """``GET /swagger.v1.json`` without credentials."""
    ctx.response = acting_api(ctx, ANONYMOUS).misc.swagger()


@when(phrase("an anonymous client fetches the OpenAPI 3 description"))
def fetch_openapi3(ctx: ScenarioContext) -> None:
    """``GET /openapi3.v1.json`` without credentials."""
    ctx.response = acting_api(ctx, ANONYMOUS).misc.openapi3()


@then(phrase("the response is JSON"))
def response_is_json(ctx: ScenarioContext) -> None:
    """The body parses as JSON and the content type says so."""
    response = ctx.last_response()
    content_type = response.headers.get("Content-Type", "")
    assert "json" in content_type, f"Content-Type is {content_type!r}, expected JSON"
    json_of(response)


@then(phrase("the description's basePath is the target's API path"))
def base_path(ctx: ScenarioContext, target: Target) -> None:
    """``basePath`` is ``/<suburl>/api/v1`` for the target's base URL."""
    body = json_of(ctx.last_response())
    assert body.get("basePath") == _api_path(target), f"basePath is {body.get('basePath')!r}"


@then(phrase("the description's first server URL ends with the target's API path"))
def server_url(ctx: ScenarioContext, target: Target) -> None:
    """``servers[0].url`` ends with ``/<suburl>/api/v1``."""
    body = json_of(ctx.last_response())
    servers = body.get("servers") or [{}]
    url = str(servers[0].get("url", ""))
    assert url.endswith(_api_path(target)), f"servers[0].url is {url!r}, expected it to end with {_api_path(target)}"


@then(phrase('the description\'s info.version is "{prefix}" followed by the server version'))
def info_version(ctx: ScenarioContext, prefix: str) -> None:
    """``info.version`` is the prefix and the version ``GET /version`` reports."""
    body = json_of(ctx.last_response())
    version = json_of(ctx.admin.misc.version())["version"]
    actual = body.get("info", {}).get("version")
    assert actual == f"{prefix}{version}", f"info.version is {actual!r}, expected {prefix}{version!r}"


@then(phrase('the description documents the operation "{method:w} {path}"'))
def documents_operation(ctx: ScenarioContext, method: str, path: str) -> None:
    """``paths`` has the path with the method."""
    paths = json_of(ctx.last_response()).get("paths", {})
    assert path in paths, f"the description has no path {path}"
    assert method.lower() in paths[path], f"the description has no {method} on {path}"


HTTP_METHODS = frozenset({"get", "put", "post", "delete", "patch", "head", "options"})


@then(phrase('every operation of the description is tagged with one of "{tags}"'))
def operations_tagged(ctx: ScenarioContext, tags: str) -> None:
    """Each operation carries at least one tag, all from the list (comma separated)."""
    allowed = {tag.strip() for tag in tags.split(",")}
    paths = json_of(ctx.last_response()).get("paths", {})
    wrong: list[str] = []
    for path, operations in paths.items():
        for method, operation in operations.items():
            if method not in HTTP_METHODS:
                continue
            used = set(operation.get("tags") or [])
            if not used or not used <= allowed:
                wrong.append(f"{method.upper()} {path}: {sorted(used)}")
    assert not wrong, f"{len(wrong)} operation(s) have no tag or a tag outside the list: {wrong[:10]}"

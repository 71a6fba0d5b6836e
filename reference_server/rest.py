"""REST helpers shared by every family: JSON in and out, paging with ``X-Total-Count`` and ``Link``."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from flask import Response, request

from .context import forge
from .errors import BadRequest, Unprocessable

__all__ = [
    "Page",
    "decode_json",
    "empty",
    "field_label",
    "json_body",
    "json_response",
    "page_params",
    "paged_response",
    "query_bool",
    "without_surrogates",
]

JSON_BODY_KEY = "reference_server.json_body"
"""Where a request keeps its decoded JSON body (the WSGI environ lives exactly as long as the request)."""

JSON_TYPE = "application/json;charset=utf-8"
MAX_PAGE = 1_000_000_000
"""Pages beyond this are clamped, so ``(page - 1) * limit`` always fits SQLite's 64-bit integers."""
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
"""A ``\\uD800``-``\\uDFFF`` escape in a raw body: only then can the decoded text hold a lone surrogate."""
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def json_response(payload: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    """A JSON response with Gitea's content type."""
    text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    try:
        body = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate stored before bodies were cleaned: answer, never fail
        body = _LONE_SURROGATE.sub(REPLACEMENT, text).encode("utf-8")
    response = Response(body, status=status, content_type=JSON_TYPE)
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


def empty(status: int = 204) -> Response:
    """An answer without a body (204 No Content, or 201 where Gitea sends nothing), and so without a
    Content-Type: Flask's default ``text/html`` would promise a document that is not there (Gitea sends none)."""
    response = Response(b"", status=status)
    del response.headers["Content-Type"]
    return response


def without_surrogates(value: Any) -> Any:
    """``value`` with every lone UTF-16 surrogate in its strings and keys replaced by U+FFFD, as Go's
    JSON decoder (and so Gitea) does: such a code point cannot be encoded as UTF-8, so keeping it would make
    every later answer that carries it fail."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub(REPLACEMENT, value)
    if isinstance(value, list):
        return [without_surrogates(item) for item in value]
    if isinstance(value, dict):
        return {without_surrogates(key): without_surrogates(item) for key, item in value.items()}
    return value


def decode_json(raw: str | bytes) -> Any:
    """``json.loads`` that fails with ``ValueError`` for every bad document, including one nested deeper
    than the decoder's stack (``RecursionError`` otherwise escapes as a server error; found by the fuzzer).
    Bad UTF-8 is a ``UnicodeDecodeError``, itself a ``ValueError``. Lone surrogates (``"\\ud800"``) become
    U+FFFD (:func:`without_surrogates`); a body without such an escape is not walked again."""
    try:
        decoded = json.loads(raw)
    except RecursionError as exc:
        raise ValueError("JSON nested too deeply") from exc
    if isinstance(raw, str):
        suspect = _LONE_SURROGATE.search(raw) or _SURROGATE_ESCAPE.search(raw.encode("utf-8", "surrogatepass"))
    else:
        suspect = _SURROGATE_ESCAPE.search(raw)
    return without_surrogates(decoded) if suspect else decoded


def json_body(*, required: tuple[str, ...] = ()) -> dict[str, Any]:
    """The request's JSON object, decoded once per request; 422 when it is not one or lacks a required field
    (``[Field]: Required``)."""
    data: dict[str, Any] | None = request.environ.get(JSON_BODY_KEY)
    if data is None:
        raw = request.get_data(cache=True)
        try:
            decoded = decode_json(raw) if raw.strip() else {}
        except ValueError as exc:
            raise Unprocessable(f"invalid JSON body: {exc}") from exc
        if not isinstance(decoded, dict):
            raise Unprocessable("the request body must be a JSON object")
        data = request.environ[JSON_BODY_KEY] = decoded
    for name in required:
        if data.get(name) in (None, ""):
            raise Unprocessable(f"[{field_label(name)}]: Required")
    return data


INITIALISMS = {"id": "ID", "ids": "IDs", "url": "URL"}
"""Parts of a field name Go writes in capitals (``column_ids`` is ``ColumnIDs``)."""


def field_label(key: str) -> str:
    """A body field as Gitea's 422 answers name it: its Go field name (``new_branch_name`` is
    ``NewBranchName``, ``new_commit_id`` is ``NewCommitID``)."""
    return "".join(INITIALISMS.get(part, part[:1].upper() + part[1:]) for part in key.split("_"))


def query_bool(name: str) -> bool | None:
    """A boolean query parameter (``true``/``false``), None when absent; 400 on anything else."""
    value = request.args.get(name)
    if value is None or value == "":
        return None
    if value.lower() in ("true", "1"):
        return True
    if value.lower() in ("false", "0"):
        return False
    raise BadRequest(f"invalid value of {name}: {value!r}")


class Page:
    """The 1-based ``page`` and the ``limit`` of a list request, clamped as Gitea clamps them."""

    def __init__(self, page: int, limit: int) -> None:
        self.page = page
        self.limit = limit

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.limit


def _int_arg(name: str, default: int) -> int:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise BadRequest(f"invalid value of {name}: {raw!r}") from exc


def page_params() -> Page:
    """``page`` (≤0 means 1) and ``limit`` (≤0 means the default, capped at the maximum)."""
    limits = forge().config.limits
    page = min(max(_int_arg("page", 1), 1), MAX_PAGE)
    limit = _int_arg("limit", limits.default_paging_num)
    if limit <= 0:
        limit = limits.default_paging_num
    return Page(page, min(limit, limits.max_response_items))


def _link_header(page: Page, total: int) -> str:
    last = max((total + page.limit - 1) // page.limit, 1)
    base = forge().url(request.path)
    args = {k: v for k, v in request.args.items(multi=True) if k != "page"}

    def link(number: int, rel: str) -> str:
        query = urlencode([*args.items(), ("page", str(number))])
        return f'<{base}?{query}>; rel="{rel}"'

    links = []
    if page.page < last:
        links += [link(page.page + 1, "next"), link(last, "last")]
    if page.page > 1:
        links += [link(1, "first"), link(page.page - 1, "prev")]
    return ",".join(links)


def paged_response(payload: Any, page: Page, total: int, *, headers: bool = True) -> Response:
    """A list answer with ``X-Total-Count`` and ``Link`` (exposed to browsers) when ``headers``."""
    response = json_response(payload)
    if headers:
        response.headers["X-Total-Count"] = str(total)
        link = _link_header(page, total)
        if link:
            response.headers["Link"] = link
        response.headers["Access-Control-Expose-Headers"] = "X-Total-Count, Link"
    return response

"""Routes of markup rendering (thin: scope, parse, render, answer HTML), globally and per repository."""

from __future__ import annotations

from collections.abc import Callable

from flask import Response, request

from ..access import token
from ..auth import current_principal, optional_principal
from ..endpoints import RAW_TEXT, TEXT, Endpoint
from ..errors import Unprocessable
from ..permissions import current_repo
from ..repos.models import Repo
from ..rest import json_body
from . import models
from .errors import MarkupRefused

__all__ = ["ENDPOINTS"]

API = "/api/v1"
REPO = "/repos/<owner>/<repo>"
HTML_TYPE = "text/html; charset=utf-8"


def _answer(parsed: Callable[[], models.MarkupRequest], repo: Repo | None) -> Response:
    """The rendered HTML; a refusal of the markup rules is plain text, as Gitea answers it."""
    try:
        html = models.render(parsed(), repo=repo, viewer=optional_principal())
    except MarkupRefused as refusal:
        return Response(refusal.message, status=refusal.status, content_type="text/plain; charset=utf-8")
    return Response(html, status=200, content_type=HTML_TYPE)


def _raw_text() -> models.MarkupRequest:
    try:
        text = request.get_data(cache=True).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Unprocessable("the body must be UTF-8 text") from exc
    return models.MarkupRequest(text=text, mode="markdown", context="", file_path="")


def _global() -> None:
    current_principal()


def _scoped(owner: str, repo: str) -> Repo:
    current_principal()
    return current_repo()


def render_markup() -> Response:
    """``POST /markup``: a ``MarkupOption`` rendered as HTML."""
    _global()
    return _answer(lambda: models.parse_markup_option(json_body()), None)


def render_markdown() -> Response:
    """``POST /markdown``: a ``MarkdownOption`` rendered as HTML (kept beside ``/markup``)."""
    _global()
    return _answer(lambda: models.parse_markdown_option(json_body()), None)


def render_markdown_raw() -> Response:
    """``POST /markdown/raw``: the body is Markdown text."""
    _global()
    return _answer(_raw_text, None)


def repo_render_markup(owner: str, repo: str) -> Response:
    """``POST /repos/{o}/{r}/markup``: as ``/markup``, the repository being the context."""
    found = _scoped(owner, repo)
    return _answer(lambda: models.parse_markup_option(json_body()), found)


def repo_render_markdown(owner: str, repo: str) -> Response:
    """``POST /repos/{o}/{r}/markdown``."""
    found = _scoped(owner, repo)
    return _answer(lambda: models.parse_markdown_option(json_body()), found)


def repo_render_markdown_raw(owner: str, repo: str) -> Response:
    """``POST /repos/{o}/{r}/markdown/raw``."""
    found = _scoped(owner, repo)
    return _answer(_raw_text, found)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "POST",
        API + "/markup",
        "renderMarkup",
        render_markup,
        "miscellaneous",
        token("misc"),
        body="MarkupOption",
        returns=TEXT,
        errors=(422,),
    ),
    Endpoint(
        "POST",
        API + "/markdown",
        "renderMarkdown",
        render_markdown,
        "miscellaneous",
        token("misc"),
        body="MarkdownOption",
        returns=TEXT,
        errors=(422,),
    ),
    Endpoint(
        "POST",
        API + "/markdown/raw",
        "renderMarkdownRaw",
        render_markdown_raw,
        "miscellaneous",
        token("misc"),
        body=RAW_TEXT,
        returns=TEXT,
        errors=(422,),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/markup",
        "repoRenderMarkup",
        repo_render_markup,
        "repository",
        token("repository", repo="read"),
        body="MarkupOption",
        returns=TEXT,
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/markdown",
        "repoRenderMarkdown",
        repo_render_markdown,
        "repository",
        token("repository", repo="read"),
        body="MarkdownOption",
        returns=TEXT,
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/markdown/raw",
        "repoRenderMarkdownRaw",
        repo_render_markdown_raw,
        "repository",
        token("repository", repo="read"),
        body=RAW_TEXT,
        returns=TEXT,
    ),
)

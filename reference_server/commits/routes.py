"""REST routes of commits and comparisons (thin: scope check, parse, call the model, render)."""

from __future__ import annotations

from typing import Any

from flask import Response, request

from ..access import token
from ..endpoints import Endpoint
from ..permissions import current_repo
from ..repos.contents import validate_path
from ..rest import json_response, page_params, paged_response, query_bool
from . import compare, models
from .errors import CommitNotFound, EmptyRepository
from .presenters import commit_to_api, compare_to_api

__all__ = ["ENDPOINTS"]

API = "/api/v1"
PAGE_COUNT_HEADER = "X-PageCount"
"""The one count header sent besides ``X-Total-Count`` (specification 4.2); never ``X-Total``."""


def _options() -> models.CommitOptions:
    return models.CommitOptions(
        stat=query_bool("stat") is not False,
        files=query_bool("files") is not False,
        verification=query_bool("verification") is not False,
    )


def repo_get_all_commits(owner: str, repo: str) -> Response:
    """List a repository's commits (``sha``, ``path``, ``since``, ``until``, ``not``), newest first, paged."""
    found = current_repo()
    git = found.git
    if git.is_empty():
        raise EmptyRepository("Git Repository is empty.")
    options = _options()
    args = request.args
    query = models.CommitQuery(
        start=models.resolve_commit(git, args.get("sha") or found.default_branch),
        exclude=tuple(models.resolve_commit(git, ref) for ref in args.getlist("not") if ref),
        path=validate_path((args.get("path") or "").strip("/"), allow_root=True),
        since=models.parse_time("since", args.get("since")),
        until=models.parse_time("until", args.get("until")),
    )
    page = page_params()
    infos, total = models.list_commits(git, query, page.offset, page.limit)
    if total == 0 and query.path:
        raise CommitNotFound(f"no commit touches the path [path: {query.path}]")
    accounts: dict[str, dict[str, Any] | None] = {}
    body = [commit_to_api(found, info, options, accounts=accounts) for info in infos]
    response = paged_response(body, page, total)
    response.headers[PAGE_COUNT_HEADER] = str((total + page.limit - 1) // page.limit)
    response.headers["Access-Control-Expose-Headers"] = f"X-Total-Count, {PAGE_COUNT_HEADER}, Link"
    return response


def repo_get_single_commit(owner: str, repo: str, sha: str) -> Response:
    """A single commit by SHA (or ref) with its stats, files and verification."""
    found = current_repo()
    info = models.get_commit(found, sha)
    return json_response(commit_to_api(found, info, _options()))


def repo_compare_diff(owner: str, repo: str, basehead: str) -> Response:
    """Compare two branches, tags or commits (``base...head``, ``base..head``, a fork's ``owner:ref``)."""
    found = current_repo()
    comparison = compare.compare(found, basehead)
    output = request.args.get("output", "")
    if output in ("diff", "patch"):
        text = compare.compare_text(comparison, output)
        return Response(text, status=200, content_type="text/plain; charset=utf-8")
    return json_response(compare_to_api(comparison, _options()))


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/commits",
        "repoGetAllCommits",
        repo_get_all_commits,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="[commit]",
        errors=(404, 409),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/git/commits/<sha>",
        "repoGetSingleCommit",
        repo_get_single_commit,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="commit",
        errors=(404, 422),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/compare/<path:basehead>",
        "repoCompareDiff",
        repo_compare_diff,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="compare",
        errors=(400, 404),
    ),
)

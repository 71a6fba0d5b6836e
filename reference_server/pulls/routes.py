"""REST routes of pull requests, their commits, files, diff, branch update, reviews and replies (thin).

Every route is in Gitea's ``repository`` token scope category; reads are open to anonymous callers on
repositories they can see. Commit and changed-file lists carry ``X-Total-Count`` and ``Link`` plus
Gitea's ``X-Page``, ``X-PerPage``, ``X-PageCount`` and ``X-HasMore``, never ``X-Total`` (specification 4.2).
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import quote

from flask import Flask, Response, request

from ..access import token
from ..auth import Principal, current_principal, optional_principal
from ..commits.models import CommitOptions, read_commits
from ..commits.presenters import commit_to_api
from ..context import forge
from ..endpoints import API, EMPTY, Endpoint
from ..events import CommitStatusEvent, PushEvent
from ..gitcli import ZERO_SHA, ChangedPath
from ..permissions import current_repo
from ..repos import models as repos
from ..rest import Page, empty, json_body, json_response, page_params, paged_response, query_bool
from . import models, review_routes, reviews
from .auto_merge import cancel_scheduled_merge, on_commit_status, schedule_merge, try_scheduled_merge
from .errors import PullNotFound
from .merge import merge_pull
from .presenters import pull_to_api, review_comment_to_api, review_to_api
from .protection import on_head_push
from .update import update_pull_branch

__all__ = ["ENDPOINTS", "register"]

log = logging.getLogger(__name__)

PULLS = "/api/v1/repos/<owner>/<repo>/pulls"
FILE_STATUS = {"A": "added", "D": "deleted", "R": "renamed", "C": "copied"}


def _signed_in(owner: str, repo: str) -> tuple[repos.Repo, Principal]:
    found = current_repo()
    return found, current_principal()


def _counted(payload: list[Any], page: Page, total: int) -> Response:
    """A paged list with Gitea's extra paging headers (and never ``X-Total``)."""
    response = paged_response(payload, page, total)
    pages = (total + page.limit - 1) // page.limit
    response.headers["X-Page"] = str(page.page)
    response.headers["X-PerPage"] = str(page.limit)
    response.headers["X-PageCount"] = str(pages)
    response.headers["X-HasMore"] = "true" if page.page < pages else "false"
    response.headers["Access-Control-Expose-Headers"] += ", X-Page, X-PerPage, X-PageCount, X-HasMore"
    return response


def list_pulls(owner: str, repo: str) -> Response:
    found = current_repo()
    page = page_params()
    state = request.args.get("state", "open").strip()
    pulls, total = models.list_pulls(found, state=state, limit=page.limit, offset=page.offset)
    return paged_response([pull_to_api(found, pull) for pull in pulls], page, total)


def create_pull(owner: str, repo: str) -> Response:
    found, principal = _signed_in(owner, repo)
    pull = models.create_pull(found, json_body(required=("head", "base", "title")), principal)
    return json_response(pull_to_api(found, pull), status=201)


def get_pull(owner: str, repo: str, index: int) -> Response:
    found = current_repo()
    return json_response(pull_to_api(found, models.get_pull(found, index)))


def edit_pull(owner: str, repo: str, index: int) -> Response:
    """Gitea answers an edit with 201."""
    found, principal = _signed_in(owner, repo)
    pull = models.edit_pull(found, models.get_pull(found, index), json_body(), principal)
    return json_response(pull_to_api(found, pull), status=201)


def pull_diff(owner: str, repo: str, index: int, diff_type: str) -> Response:
    """``.diff``: the unified diff from the merge base; ``.patch``: the commits as ``format-patch`` mails."""
    found = current_repo()  # the scope check comes before anything else, the suffix included
    if diff_type not in ("diff", "patch"):
        raise PullNotFound(f"unknown pull request output {diff_type!r}")
    pull = models.get_pull(found, index)
    head = models.head_commit(found, pull)
    base = models.diff_base(found, pull)
    text = found.git.diff_text(base, head) if diff_type == "diff" else found.git.format_patch(base, head)
    return Response(text, status=200, content_type="text/plain;charset=utf-8")


def pull_commits(owner: str, repo: str, index: int) -> Response:
    """The pull's commits (head not reachable from base), newest first, as Gitea's ``Commit``."""
    found = current_repo()
    pull = models.get_pull(found, index)
    page = page_params()
    head, base = models.head_commit(found, pull), models.base_commit(found, pull)
    total = len(found.git.commits_between(base, head)) if head != ZERO_SHA else 0
    infos = read_commits(found.git, [head, f"^{base}"], skip=page.offset, limit=page.limit) if total else []
    options = CommitOptions(
        stat=True,
        files=query_bool("files") is not False,
        verification=query_bool("verification") is not False,
    )
    accounts: dict[str, dict[str, Any] | None] = {}
    payload = [commit_to_api(found, info, options, accounts=accounts) for info in infos]
    return _counted(payload, page, total)


def _changed_file(repo: repos.Repo, head: str, change: ChangedPath) -> dict[str, Any]:
    """Gitea's ``ChangedFile``: a modification is ``changed``, and ``unchanged`` when no line moved."""
    status = FILE_STATUS.get(change.status)
    if status is None:
        status = "unchanged" if change.additions == 0 and change.deletions == 0 else "changed"
    base = f"{quote(repo.owner_name)}/{quote(repo.name)}"
    path = quote(change.path)
    body: dict[str, Any] = {
        "filename": change.path,
        "status": status,
        "additions": change.additions,
        "deletions": change.deletions,
        "changes": change.additions + change.deletions,
        "html_url": forge().url(f"{base}/src/commit/{head}/{path}"),
        "contents_url": forge().api_url(f"repos/{base}/contents/{path}?ref={head}"),
        "raw_url": forge().url(f"{base}/raw/commit/{head}/{path}"),
    }
    if change.status == "R":
        body["previous_filename"] = change.old_path
    return body


def pull_files(owner: str, repo: str, index: int) -> Response:
    """The files the pull changes (from the merge base to the head), paged."""
    found = current_repo()
    pull = models.get_pull(found, index)
    page = page_params()
    head = models.head_commit(found, pull)
    changes = models.changed_paths(found, pull) if head != ZERO_SHA else []
    window = changes[page.offset : page.offset + page.limit]
    return _counted([_changed_file(found, head, change) for change in window], page, len(changes))


def update_pull(owner: str, repo: str, index: int) -> Response:
    """``?style=merge`` (default) or ``rebase``; 200 with an empty body, as Gitea."""
    found, principal = _signed_in(owner, repo)
    update_pull_branch(found, index, request.args.get("style", "merge"), principal)
    return empty(200)


def merge(owner: str, repo: str, index: int) -> Response:
    """``MergePullRequestOption``; 200 with an empty body, as Gitea; 201 when the merge is scheduled for
    when the checks succeed (``merge_when_checks_succeed``)."""
    found, principal = _signed_in(owner, repo)
    options = json_body()
    if options.get("merge_when_checks_succeed") is True:
        schedule_merge(found, index, options, principal)
        return empty(201)
    merge_pull(found, index, options, principal)
    return empty(200)


def cancel_auto_merge(owner: str, repo: str, index: int) -> Response:
    found, principal = _signed_in(owner, repo)
    cancel_scheduled_merge(found, index, principal)
    return empty()


def is_merged(owner: str, repo: str, index: int) -> Response:
    """204 when the pull request is merged, else 404 (Gitea's ``repoPullRequestIsMerged``)."""
    found = current_repo()
    if not models.get_pull(found, index).has_merged:
        raise PullNotFound("the pull request has not been merged")
    return empty()


def list_reviews(owner: str, repo: str, index: int) -> Response:
    found = current_repo()
    pull = models.get_pull(found, index)
    page = page_params()
    items, total = reviews.list_reviews(pull, optional_principal(), page.limit, page.offset)
    return paged_response([review_to_api(found, pull, item) for item in items], page, total)


def create_review(owner: str, repo: str, index: int) -> Response:
    """Gitea answers a new review with 200; an approval may complete a scheduled merge."""
    found, principal = _signed_in(owner, repo)
    pull = models.get_pull(found, index)
    review = reviews.create_review(found, pull, json_body(), principal)
    body = review_to_api(found, pull, review)
    if review.type == reviews.ReviewType.APPROVE:
        try_scheduled_merge(found, pull)
    return json_response(body)


def get_review(owner: str, repo: str, index: int, review_id: int) -> Response:
    found = current_repo()
    pull = models.get_pull(found, index)
    review = reviews.get_review(pull, review_id, optional_principal())
    return json_response(review_to_api(found, pull, review))


def review_comments(owner: str, repo: str, index: int, review_id: int) -> Response:
    found = current_repo()
    pull = models.get_pull(found, index)
    review = reviews.get_review(pull, review_id, optional_principal())
    items = reviews.visible_review_comments(review)
    return json_response([review_comment_to_api(found, pull, item) for item in items])


def reply(owner: str, repo: str, index: int, comment_id: int) -> Response:
    """``CreatePullReviewCommentReplyOptions {body}`` → 201 ``PullReviewComment`` in the parent's review."""
    found, principal = _signed_in(owner, repo)
    body = json_body().get("body")
    comment = reviews.reply_to_comment(found, index, comment_id, body, principal)
    pull = models.get_pull(found, index)
    return json_response(review_comment_to_api(found, pull, comment), status=201)


def _on_push(event: PushEvent) -> None:
    """A failure to keep ``refs/pull/<index>/head`` must never fail the push that moved the branch."""
    try:
        models.on_push(event)
    except Exception:
        log.exception("pulls: keeping the head refs after %r failed", event)
    try:
        on_head_push(event)
    except Exception:
        log.exception("pulls: ageing the reviews after %r failed", event)


def _on_commit_status(event: CommitStatusEvent) -> None:
    """A failed scheduled merge must never fail the report of the status that started it."""
    try:
        on_commit_status(event)
    except Exception:
        log.exception("pulls: the scheduled merges after %r failed", event)


def register(app: Flask) -> None:
    """Follow pushes to head branches and the statuses scheduled merges wait for."""
    forge().events.subscribe(PushEvent, _on_push)
    forge().events.subscribe(CommitStatusEvent, _on_commit_status)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/pulls",
        "repoListPullRequests",
        list_pulls,
        "issue",
        token("repository", anonymous_read=True, repo="read"),
        returns="[pull_request]",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/pulls",
        "repoCreatePullRequest",
        create_pull,
        "issue",
        token("repository", repo="read"),
        body="CreatePullRequestOption",
        status=201,
        returns="pull_request",
        errors=(403, 404, 409, 422, 423),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/pulls/<int:index>",
        "repoGetPullRequest",
        get_pull,
        "issue",
        token("repository", anonymous_read=True, repo="read"),
        returns="pull_request",
        errors=(404,),
    ),
    Endpoint(
        "PATCH",
        API + "/repos/<owner>/<repo>/pulls/<int:index>",
        "repoEditPullRequest",
        edit_pull,
        "issue",
        token("repository", repo="read"),
        body="EditPullRequestOption",
        status=201,
        returns="pull_request",
        errors=(403, 404, 409, 412, 422),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/pulls/<int:index>.<diff_type>",
        "repoDownloadPullDiffOrPatch",
        pull_diff,
        "issue",
        token("repository", anonymous_read=True, repo="read"),
        returns=EMPTY,
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/pulls/<int:index>/commits",
        "repoGetPullRequestCommits",
        pull_commits,
        "issue",
        token("repository", anonymous_read=True, repo="read"),
        returns="[commit]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/pulls/<int:index>/files",
        "repoGetPullRequestFiles",
        pull_files,
        "issue",
        token("repository", anonymous_read=True, repo="read"),
        returns="[changed_file]",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/pulls/<int:index>/update",
        "repoUpdatePullRequest",
        update_pull,
        "issue",
        token("repository", repo="read"),
        returns=EMPTY,
        errors=(403, 404, 409, 422),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/pulls/<int:index>/merge",
        "repoMergePullRequest",
        merge,
        "issue",
        token("repository", repo="read"),
        body="MergePullRequestOption",
        returns=EMPTY,
        errors=(403, 404, 405, 409, 423),
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/pulls/<int:index>/merge",
        "repoCancelScheduledAutoMerge",
        cancel_auto_merge,
        "repository",
        token("repository", repo="read"),
        status=204,
        returns=EMPTY,
        errors=(403, 404, 423),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/pulls/<int:index>/merge",
        "repoPullRequestIsMerged",
        is_merged,
        "issue",
        token("repository", anonymous_read=True, repo="read"),
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/pulls/<int:index>/reviews",
        "repoListPullReviews",
        list_reviews,
        "issue",
        token("repository", anonymous_read=True, repo="read"),
        returns="[pull_review]",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/pulls/<int:index>/reviews",
        "repoCreatePullReview",
        create_review,
        "issue",
        token("repository", repo="read"),
        body="CreatePullReviewOptions",
        returns="pull_review",
        errors=(404, 422),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/pulls/<int:index>/reviews/<int:review_id>",
        "repoGetPullReview",
        get_review,
        "issue",
        token("repository", anonymous_read=True, repo="read"),
        returns="pull_review",
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/pulls/<int:index>/reviews/<int:review_id>/comments",
        "repoGetPullReviewComments",
        review_comments,
        "issue",
        token("repository", anonymous_read=True, repo="read"),
        returns="[pull_review_comment]",
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/pulls/<int:index>/comments/<int:comment_id>/replies",
        "repoCreatePullReviewCommentReply",
        reply,
        "issue",
        token("repository", repo="read"),
        body="CreatePullReviewCommentReplyOptions",
        status=201,
        returns="pull_review_comment",
    ),
    *review_routes.ENDPOINTS,
)

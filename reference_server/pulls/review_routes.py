"""REST routes of review requests, pending-review submission and deletion, dismissals, resolved review
conversations, requestable reviewers, and finding a pull request by its branches or its merge commit
(thin; the rules are in :mod:`.review_ops`). Every route is in Gitea's ``repository`` token scope."""

from __future__ import annotations

from flask import Response

from ..access import token
from ..auth import current_principal, optional_principal
from ..endpoints import API, EMPTY, Endpoint
from ..permissions import current_repo
from ..rest import empty, json_body, json_response
from ..users.presenters import user_to_api
from . import models, review_ops, reviews
from .auto_merge import try_scheduled_merge
from .errors import PullNotFound
from .presenters import pull_to_api, review_to_api

__all__ = ["ENDPOINTS"]

REPO = API + "/repos/<owner>/<repo>"
PULLS = REPO + "/pulls"
REVIEW = PULLS + "/<int:index>/reviews/<int:review_id>"


def list_reviewers(owner: str, repo: str) -> Response:
    found = current_repo()
    return json_response([user_to_api(user) for user in review_ops.requestable_reviewers(found)])


def _request(index: int, *, add: bool) -> Response:
    found = current_repo()
    pull = models.get_pull(found, index)
    created = review_ops.request_reviews(found, pull, json_body(), current_principal(), add=add)
    if not add:
        return empty()
    return json_response([review_to_api(found, pull, review) for review in created], status=201)


def request_reviewers(owner: str, repo: str, index: int) -> Response:
    """201 with the new review requests."""
    return _request(index, add=True)


def cancel_review_requests(owner: str, repo: str, index: int) -> Response:
    return _request(index, add=False)


def _review(index: int, review_id: int) -> tuple[models.Pull, reviews.Review]:
    found = current_repo()
    pull = models.get_pull(found, index)
    return pull, reviews.get_review(pull, review_id, optional_principal())


def submit_review(owner: str, repo: str, index: int, review_id: int) -> Response:
    found = current_repo()
    pull, review = _review(index, review_id)
    submitted = review_ops.submit_review(found, pull, review, json_body(), current_principal())
    body = review_to_api(found, pull, submitted)
    if submitted.type == reviews.ReviewType.APPROVE:
        try_scheduled_merge(found, pull)
    return json_response(body)


def delete_review(owner: str, repo: str, index: int, review_id: int) -> Response:
    found = current_repo()
    pull, review = _review(index, review_id)
    review_ops.delete_review(found, pull, review, current_principal())
    return empty()


def _dismissal(index: int, review_id: int, *, dismiss: bool) -> Response:
    """Repository administrators only (checked before the review is looked up, as Gitea does)."""
    found = current_repo()
    options = json_body() if dismiss else {}
    message = options.get("message") or ""
    priors = options.get("priors") is True
    pull, review = _review(index, review_id)
    principal = current_principal()
    kept = review_ops.dismiss_review(
        found, pull, review, principal, message=str(message), priors=priors, dismiss=dismiss
    )
    return json_response(review_to_api(found, pull, kept))


def dismiss_review(owner: str, repo: str, index: int, review_id: int) -> Response:
    return _dismissal(index, review_id, dismiss=True)


def undismiss_review(owner: str, repo: str, index: int, review_id: int) -> Response:
    return _dismissal(index, review_id, dismiss=False)


def resolve_comment(owner: str, repo: str, comment_id: int) -> Response:
    review_ops.resolve_conversation(current_repo(), comment_id, current_principal(), resolve=True)
    return empty()


def unresolve_comment(owner: str, repo: str, comment_id: int) -> Response:
    review_ops.resolve_conversation(current_repo(), comment_id, current_principal(), resolve=False)
    return empty()


def pull_by_branches(owner: str, repo: str, base: str, head: str) -> Response:
    """``head`` is a branch of this repository or ``owner:branch``."""
    found = current_repo()
    return json_response(pull_to_api(found, models.pull_by_branches(found, base, head)))


def pull_of_commit(owner: str, repo: str, sha: str) -> Response:
    """The pull request whose merge made the commit ``sha`` (the full SHA)."""
    found = current_repo()
    pull = models.pull_by_merge_commit(found, sha)
    if pull is None:
        raise PullNotFound(f"pull request does not exist [merged commit: {sha}]")
    return json_response(pull_to_api(found, pull))


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        REPO + "/reviewers",
        "repoGetReviewers",
        list_reviewers,
        "repository",
        token("repository", repo="read"),
        returns="[user]",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        PULLS + "/<int:index>/requested_reviewers",
        "repoCreatePullReviewRequests",
        request_reviewers,
        "repository",
        token("repository", repo="read"),
        body="PullReviewRequestOptions",
        status=201,
        returns="[pull_review]",
        errors=(404, 422),
    ),
    Endpoint(
        "DELETE",
        PULLS + "/<int:index>/requested_reviewers",
        "repoDeletePullReviewRequests",
        cancel_review_requests,
        "repository",
        token("repository", repo="read"),
        body="PullReviewRequestOptions",
        status=204,
        returns=EMPTY,
        errors=(403, 404, 422),
    ),
    Endpoint(
        "POST",
        REVIEW,
        "repoSubmitPullReview",
        submit_review,
        "repository",
        token("repository", repo="read"),
        body="SubmitPullReviewOptions",
        returns="pull_review",
        errors=(404, 422),
    ),
    Endpoint(
        "DELETE",
        REVIEW,
        "repoDeletePullReview",
        delete_review,
        "repository",
        token("repository", repo="read"),
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "POST",
        REVIEW + "/dismissals",
        "repoDismissPullReview",
        dismiss_review,
        "repository",
        token("repository", repo="admin"),
        body="DismissPullReviewOptions",
        returns="pull_review",
        errors=(403, 404, 422),
    ),
    Endpoint(
        "POST",
        REVIEW + "/undismissals",
        "repoUnDismissPullReview",
        undismiss_review,
        "repository",
        token("repository", repo="admin"),
        returns="pull_review",
        errors=(403, 404, 422),
    ),
    Endpoint(
        "POST",
        PULLS + "/comments/<int:comment_id>/resolve",
        "repoResolvePullReviewComment",
        resolve_comment,
        "repository",
        token("repository", repo="read"),
        status=204,
        returns=EMPTY,
        errors=(400, 403, 404),
    ),
    Endpoint(
        "POST",
        PULLS + "/comments/<int:comment_id>/unresolve",
        "repoUnresolvePullReviewComment",
        unresolve_comment,
        "repository",
        token("repository", repo="read"),
        status=204,
        returns=EMPTY,
        errors=(400, 403, 404),
    ),
    Endpoint(
        "GET",
        PULLS + "/<base>/<path:head>",
        "repoGetPullRequestByBaseHead",
        pull_by_branches,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="pull_request",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        REPO + "/commits/<sha>/pull",
        "repoGetCommitPullRequest",
        pull_of_commit,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="pull_request",
        errors=(404,),
    ),
)

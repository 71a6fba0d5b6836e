"""Review requests, submitting and deleting pending reviews, dismissing reviews and resolving review
conversations: Gitea's rules (``IsValidReviewRequest``, ``SubmitReview``, ``DeleteReview``,
``DismissReview``, ``MarkConversation``) over the ``review`` rows of :mod:`.reviews`.

A review request is a ``REQUEST_REVIEW`` review of the requested user (official when that user's review
would be); the pull's ``requested_reviewers`` are the users whose latest approval, rejection or request is
a request. Only a reviewer's latest official review counts, so a new request, approval or rejection takes
the official mark off the reviewer's earlier ones, and removing one gives it back to the latest left.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..auth import Principal
from ..collaborators.models import list_collaborators
from ..context import forge, now_seconds
from ..errors import Forbidden
from ..events import IssueActionEvent, ReviewRequestedEvent
from ..issues import models as issues
from ..issues.comments import Comment, CommentType, add_event, delete_review_entries, review_comments
from ..orgs import store as orgs_store
from ..permissions import Permission, collaborator_access, permission, team_permission_on
from ..protections.merging import governing_protection, is_official_reviewer
from ..repos import models as repos
from ..users.errors import UserNotFound
from ..users.models import User, find_account, find_user_by_email, get_user
from . import store
from .errors import InvalidPullOption, NotAReviewComment, PullNotFound, ReviewNotFound
from .models import Pull, head_commit
from .reviews import Review, ReviewType, review_type_for

__all__ = [
    "delete_review",
    "dismiss_review",
    "request_reviews",
    "requestable_reviewers",
    "requested_reviewers",
    "resolve_conversation",
    "submit_review",
]


def _principal(user: User) -> Principal:
    return Principal(user.id, user.name, user.is_admin, frozenset({"all"}))


def _official(repo: repos.Repo, pull: Pull, user: User) -> bool:
    can_write = permission(_principal(user), repo).can_write
    return is_official_reviewer(governing_protection(repo, pull.base_branch), user.id, can_write=can_write)


def _load(review_id: int) -> Review:
    row = store.review_by_id(review_id)
    if row is None:
        raise ReviewNotFound(f"review does not exist [id: {review_id}]")
    return Review.from_row(row)


def _restore_official(repo: repos.Repo, pull: Pull, reviewer_id: int) -> None:
    """Give the official mark back to the reviewer's latest decision (Gitea's ``restoreLatestOfficialReview``)."""
    latest = store.latest_decision(pull.issue.id, reviewer_id)
    if latest is not None:
        store.set_official(int(latest["id"]))


# -- review requests --------------------------------------------------------------------------------


def requestable_reviewers(repo: repos.Repo) -> list[User]:
    """Users who can be asked for a review: the owner of a user's repository, its collaborators, and the
    members of the owning organization's teams that reach it; by name (Gitea's ``GetReviewers``)."""
    found: dict[int, User] = {}
    collaborators, _ = list_collaborators(repo, 10_000, 0)
    candidates = [user.id for user in collaborators]
    if repo.owner_is_org:
        candidates += orgs_store.members_page(repo.owner_id, 10_000, 0, public_only=False)[0]
    else:
        candidates.append(repo.owner_id)
    for user_id in dict.fromkeys(candidates):
        try:
            user = get_user(user_id)
        except UserNotFound:
            continue
        if user.active and not user.is_org and permission(_principal(user), repo).can_read:
            found[user.id] = user
    return sorted(found.values(), key=lambda user: user.name.lower())


def requested_reviewers(pull: Pull) -> list[int]:
    return store.requested_reviewer_ids(pull.issue.id)


def _reviewer(name: object) -> User:
    """The user a ``reviewers`` entry names (a name, or an e-mail address when it has an ``@``)."""
    if not isinstance(name, str):
        raise InvalidPullOption("[Reviewers]: must be a list of names")
    user = find_user_by_email(name) if "@" in name else find_account(name)
    if user is None:
        raise PullNotFound(f"User '{name}' not exist")
    return user


def _may_change_requests(repo: repos.Repo, pull: Pull, doer: Principal, allowed: Permission) -> bool:
    """Gitea's ``CanDoerChangeReviewRequests``: the pull's poster, the owner, collaborators, team members."""
    if repo.archived:
        return False
    if doer.user_id in (pull.issue.poster_id, repo.owner_id) or allowed.is_admin:
        return True
    return collaborator_access(doer.user_id, repo) != "none" or team_permission_on(doer.user_id, repo) != "none"


def _refusal(reason: str, doer: Principal, repo: repos.Repo) -> InvalidPullOption:
    return InvalidPullOption(f"{reason} [user_id: {doer.user_id}, repo_id: {repo.id}]")


def _check_request(repo: repos.Repo, pull: Pull, reviewer: User, doer: Principal, *, add: bool) -> None:
    """Gitea's ``IsValidReviewRequest`` (422 with its reason)."""
    if reviewer.is_org:
        raise _refusal("Organization can't be added as reviewer", doer, repo)
    may_change = _may_change_requests(repo, pull, doer, permission(doer, repo))
    latest = store.latest_decision(pull.issue.id, reviewer.id)
    if add:
        if not permission(_principal(reviewer), repo).can_read:
            raise _refusal("Reviewer can't read", doer, repo)
        if reviewer.id == pull.issue.poster_id:
            raise _refusal("poster of pr can't be reviewer", doer, repo)
        re_request = (
            doer.user_id == pull.issue.poster_id and latest is not None and latest["type"] != ReviewType.REQUEST
        )
        if not may_change and not re_request:
            raise _refusal("Doer can't choose reviewer", doer, repo)
        return
    own_request = latest is not None and latest["type"] == ReviewType.REQUEST and reviewer.id == doer.user_id
    if not may_change and not own_request:
        raise _refusal("Doer can't remove reviewer", doer, repo)


def request_reviews(
    repo: repos.Repo, pull: Pull, options: Mapping[str, Any], doer: Principal, *, add: bool
) -> list[Review]:
    """Add (or remove) review requests for every named user, all checked before any is written; the new
    requests are returned (a user already asked is not asked again)."""
    names = options.get("reviewers") or []
    if not isinstance(names, list):
        raise InvalidPullOption("[Reviewers]: must be a list of names")
    reviewers = [_reviewer(name) for name in names]
    for reviewer in reviewers:
        _check_request(repo, pull, reviewer, doer, add=add)
    created: list[int] = []
    now = now_seconds()
    with forge().db.transaction():
        for reviewer in reviewers:
            latest = store.latest_decision(pull.issue.id, reviewer.id)
            if add:
                if latest is not None and latest["type"] == ReviewType.REQUEST:
                    continue
                if pull.issue.is_closed or pull.has_merged:
                    raise InvalidPullOption("cannot add review request on a closed or merged pull request")
                official = _official(repo, pull, reviewer)
                if official:
                    store.clear_official(pull.issue.id, reviewer.id)
                review_id = store.insert_review(
                    issue_id=pull.issue.id,
                    reviewer_id=reviewer.id,
                    review_type=int(ReviewType.REQUEST),
                    content="",
                    commit_id="",
                    official=official,
                    now=now,
                )
                entry = add_event(
                    pull.issue.id,
                    CommentType.REVIEW_REQUEST,
                    doer.user_id,
                    assignee_id=reviewer.id,
                    review_id=review_id,
                )
                forge().events.publish(ReviewRequestedEvent(repo.id, pull.issue.id, doer.user_id, reviewer.id, entry))
                created.append(review_id)
            elif latest is not None and latest["type"] == ReviewType.REQUEST:
                store.delete_review(int(latest["id"]))
                if _official(repo, pull, reviewer):
                    _restore_official(repo, pull, reviewer.id)
                add_event(
                    pull.issue.id, CommentType.REVIEW_REQUEST, doer.user_id, assignee_id=reviewer.id, removed_assignee=1
                )
    return [_load(review_id) for review_id in created]


# -- pending reviews --------------------------------------------------------------------------------


def submit_review(repo: repos.Repo, pull: Pull, review: Review, options: Mapping[str, Any], doer: Principal) -> Review:
    """Submit a pending review with ``SubmitPullReviewOptions`` (Gitea's order of refusals, all 422)."""
    if review.type != ReviewType.PENDING:
        raise InvalidPullOption("only a pending review can be submitted")
    body = options.get("body") or ""
    if not isinstance(body, str):
        raise InvalidPullOption("[Body]: must be a string")
    has_comments = bool(review_comments(review.id))
    review_type = review_type_for(pull, options.get("event"), body, has_comments, doer)
    if review_type == ReviewType.PENDING:
        raise InvalidPullOption("review stay pending")
    if pull.issue.is_closed or pull.has_merged:
        raise InvalidPullOption("can't submit review for a closed or merged PR")
    commit_id = head_commit(repo, pull)
    decisive = review_type in (ReviewType.APPROVE, ReviewType.REJECT)
    official = decisive and _official(repo, pull, get_user(doer.user_id))
    with forge().db.transaction():
        if decisive:
            store.clear_official(pull.issue.id, doer.user_id)
        fields = {"type": int(review_type), "content": body, "commit_id": commit_id, "official": int(official)}
        store.update_review(review.id, {**fields, "stale": 0}, now_seconds())
        entry = add_event(pull.issue.id, CommentType.REVIEW, doer.user_id, content=body, review_id=review.id)
        forge().events.publish(IssueActionEvent(repo.id, pull.issue.id, doer.user_id, "reviewed", entry))
    return _load(review.id)


def delete_review(repo: repos.Repo, pull: Pull, review: Review, doer: Principal) -> None:
    """A review's reviewer or a site administrator deletes it with its comments (not a review request)."""
    if not doer.is_admin and doer.user_id != review.reviewer_id:
        raise Forbidden("only the reviewer or a site administrator can delete a review")
    if review.type == ReviewType.REQUEST:
        raise InvalidPullOption("review request can not be deleted using this method")
    with forge().db.transaction():
        delete_review_entries(review.id)
        store.delete_review(review.id)
        if review.official:
            _restore_official(repo, pull, review.reviewer_id)


# -- dismissals -------------------------------------------------------------------------------------


def dismiss_review(
    repo: repos.Repo, pull: Pull, review: Review, doer: Principal, *, message: str, priors: bool, dismiss: bool
) -> Review:
    """Dismiss (or restore) an approval or a rejection: repository administrators only; 403 for another
    kind of review or a closed or merged pull request, as Gitea answers."""
    if review.type not in (ReviewType.APPROVE, ReviewType.REJECT):
        raise Forbidden("not allowed to dismiss this review")
    if pull.issue.is_closed or pull.has_merged:
        raise Forbidden("can't dismiss a review associated to a closed or merged PR")
    now = now_seconds()
    with forge().db.transaction():
        store.set_dismissed(review.id, dismiss, now)
        if priors:
            for row in store.reviews_of(pull.issue.id, review.reviewer_id):
                store.set_dismissed(int(row["id"]), True, now)
        if dismiss:
            add_event(pull.issue.id, CommentType.DISMISS_REVIEW, doer.user_id, content=message, review_id=review.id)
    return _load(review.id)


# -- conversations ----------------------------------------------------------------------------------


def resolve_conversation(repo: repos.Repo, comment_id: int, doer: Principal, *, resolve: bool) -> Comment:
    """Mark a review comment's conversation resolved (or not): the pull's poster or a writer (403
    otherwise); 404 for an unknown comment or one of another repository; 400 for a comment that is not a
    review comment."""
    comment, issue = issues.get_comment(repo, comment_id)
    if not issue.is_pull:
        raise NotAReviewComment("comment does not belong to a pull request")
    if comment.type != CommentType.CODE:
        raise NotAReviewComment("comment is not a review comment")
    if doer.user_id != issue.poster_id and not permission(doer, repo).can_write:
        raise Forbidden("user should have permission to resolve comment")
    with forge().db.transaction():
        store.set_resolver(comment.id, doer.user_id if resolve else 0)
    return comment

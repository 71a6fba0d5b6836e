"""Pull-request review operations: review requests, pending reviews submitted or deleted, dismissals,
resolved review conversations, the requestable reviewers, and pull requests found by their branches or
their merge commit. The review a Given step left is kept in :class:`steps.pulls.PullNotes`."""

from __future__ import annotations

from pytest_bdd import given, then, when

from conformance.api.pulls import PullsApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from steps.actors import ADMIN, acting
from steps.ci import wait_for
from steps.common import comma_list, expect_status, response_json, user_name
from steps.parsing import phrase
from steps.pulls import PullNotes
from steps.statuses import branch_tip

__all__: list[str] = []


def _names(ctx: ScenarioContext, shorts: str) -> list[str]:
    return [user_name(ctx, short.strip()) for short in shorts.split(",") if short.strip()]


def _review_id(pull_notes: PullNotes) -> int:
    assert pull_notes.review_id is not None, "no Given step left a review"
    return pull_notes.review_id


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" requested a review of pull request {index:d} of "{repo}" from "{reviewers}"'))
def given_requested(ctx: ScenarioContext, *, who: str, index: int, repo: str, reviewers: str) -> None:
    ref = ctx.repo(repo)
    response = acting(ctx, who, PullsApi).request_reviewers(ref.owner, ref.name, index, _names(ctx, reviewers))
    expect_status(response, 201, "request reviews")


@given(phrase('"{who}" left a pending review on pull request {index:d} of "{repo}" on line {line:d} of "{path}"'))
def given_pending(
    ctx: ScenarioContext, pull_notes: PullNotes, *, who: str, index: int, repo: str, line: int, path: str
) -> None:
    ref = ctx.repo(repo)
    option = {"comments": [{"path": path, "body": "To look at", "new_position": line}]}
    review = expect_status(acting(ctx, who, PullsApi).create_review(ref.owner, ref.name, index, option), 200, "review")
    assert review["state"] == "PENDING", f"the review is {review['state']}"
    pull_notes.review_id = int(review["id"])


@given(phrase('"{who}" submitted the review on pull request {index:d} of "{repo}" as "{event}"'))
def given_submitted(
    ctx: ScenarioContext, pull_notes: PullNotes, *, who: str, index: int, repo: str, event: str
) -> None:
    ref = ctx.repo(repo)
    option = {"event": event, "body": "Submitted."}
    response = acting(ctx, who, PullsApi).submit_review(ref.owner, ref.name, index, _review_id(pull_notes), option)
    expect_status(response, 200, "submit the review")


@given(phrase('"{who}" dismissed the review on pull request {index:d} of "{repo}" saying "{message}"'))
def given_dismissed(
    ctx: ScenarioContext, pull_notes: PullNotes, *, who: str, index: int, repo: str, message: str
) -> None:
    ref = ctx.repo(repo)
    response = acting(ctx, who, PullsApi).dismiss_review(ref.owner, ref.name, index, _review_id(pull_notes), message)
    expect_status(response, 200, "dismiss the review")


# ---------------------------------------------------------------- When


@when(phrase('"{who}" requests a review of pull request {index:d} of "{repo}" from "{reviewers}"'))
def when_request(ctx: ScenarioContext, *, who: str, index: int, repo: str, reviewers: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).request_reviewers(ref.owner, ref.name, index, _names(ctx, reviewers))


@when(phrase('"{who}" cancels the review request of pull request {index:d} of "{repo}" for "{reviewers}"'))
def when_cancel(ctx: ScenarioContext, *, who: str, index: int, repo: str, reviewers: str) -> None:
    ref = ctx.repo(repo)
    api = acting(ctx, who, PullsApi)
    ctx.response = api.cancel_review_requests(ref.owner, ref.name, index, _names(ctx, reviewers))


@when(phrase('"{who}" submits the review on pull request {index:d} of "{repo}" as "{event}"'))
def when_submit(ctx: ScenarioContext, pull_notes: PullNotes, *, who: str, index: int, repo: str, event: str) -> None:
    ref = ctx.repo(repo)
    option = {"event": event, "body": "Submitted."}
    ctx.response = acting(ctx, who, PullsApi).submit_review(ref.owner, ref.name, index, _review_id(pull_notes), option)


@when(phrase('"{who}" deletes the review on pull request {index:d} of "{repo}"'))
def when_delete(ctx: ScenarioContext, pull_notes: PullNotes, *, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).delete_review(ref.owner, ref.name, index, _review_id(pull_notes))


@when(phrase('"{who}" dismisses the review on pull request {index:d} of "{repo}" saying "{message}"'))
def when_dismiss(ctx: ScenarioContext, pull_notes: PullNotes, *, who: str, index: int, repo: str, message: str) -> None:
    ref = ctx.repo(repo)
    api = acting(ctx, who, PullsApi)
    ctx.response = api.dismiss_review(ref.owner, ref.name, index, _review_id(pull_notes), message)


@when(phrase('"{who}" undismisses the review on pull request {index:d} of "{repo}"'))
def when_undismiss(ctx: ScenarioContext, pull_notes: PullNotes, *, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).undismiss_review(ref.owner, ref.name, index, _review_id(pull_notes))


@given(phrase('"{who}" resolved the review comment on "{repo}"'))
def given_resolved(ctx: ScenarioContext, pull_notes: PullNotes, *, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    response = acting(ctx, who, PullsApi).resolve_comment(ref.owner, ref.name, int(pull_notes.comment()["id"]))
    expect_status(response, 204, "resolve the review comment")


@when(phrase('"{who}" unresolves the review comment on "{repo}"'))
def when_unresolve(ctx: ScenarioContext, pull_notes: PullNotes, *, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    comment_id = int(pull_notes.comment()["id"])
    ctx.response = acting(ctx, who, PullsApi).resolve_comment(ref.owner, ref.name, comment_id, resolve=False)


@when(phrase('"{who}" resolves the review comment on "{repo}"'))
def when_resolve(ctx: ScenarioContext, pull_notes: PullNotes, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).resolve_comment(ref.owner, ref.name, int(pull_notes.comment()["id"]))


@when(phrase('"{who}" lists the requestable reviewers of "{repo}"'))
def when_reviewers(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).reviewers(ref.owner, ref.name)


@when(phrase('"{who}" reads the pull request of "{head}" into "{base}" in "{repo}"'))
def when_by_branches(ctx: ScenarioContext, *, who: str, head: str, base: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).by_branches(ref.owner, ref.name, base, head)


@when(phrase('"{who}" reads the pull request of the tip of "{branch}" in "{repo}"'))
def when_of_commit(ctx: ScenarioContext, who: str, branch: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).of_commit(ref.owner, ref.name, branch_tip(ctx, repo, branch))


# ---------------------------------------------------------------- Then


@then(phrase('pull request {index:d} of "{repo}" has the requested reviewers "{reviewers}"'))
def requested_reviewers(ctx: ScenarioContext, index: int, repo: str, reviewers: str) -> None:
    ref = ctx.repo(repo)
    pull = expect_status(acting(ctx, ADMIN, PullsApi).get_pull(ref.owner, ref.name, index), 200, "read the pull")
    found = sorted(user["login"] for user in pull.get("requested_reviewers") or [])
    assert found == sorted(_names(ctx, reviewers)), f"requested reviewers: {found}"


@then(phrase('the review on pull request {index:d} of "{repo}" is gone'))
def review_gone(ctx: ScenarioContext, pull_notes: PullNotes, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    response = acting(ctx, ADMIN, PullsApi).get_review(ref.owner, ref.name, index, _review_id(pull_notes))
    assert response.status_code == 404, f"the review answered {response.status_code}"


@then(phrase('the review comment on pull request {index:d} of "{repo}" was resolved by "{who}"'))
def comment_resolved(ctx: ScenarioContext, pull_notes: PullNotes, index: int, repo: str, who: str) -> None:
    ref = ctx.repo(repo)
    review_id = _review_id(pull_notes)
    comments = expect_status(
        acting(ctx, ADMIN, PullsApi).review_comments(ref.owner, ref.name, index, review_id), 200, "read comments"
    )
    resolver = comments[0].get("resolver") or {}
    assert resolver.get("login") == user_name(ctx, who), f"resolver: {resolver!r}"


@then(phrase('the review comment on pull request {index:d} of "{repo}" is not resolved'))
def comment_unresolved(ctx: ScenarioContext, pull_notes: PullNotes, *, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    review_id = _review_id(pull_notes)
    comments = expect_status(
        acting(ctx, ADMIN, PullsApi).review_comments(ref.owner, ref.name, index, review_id), 200, "read comments"
    )
    assert comments[0].get("resolver") is None, f"still resolved by {comments[0].get('resolver')!r}"


@then(phrase('the response lists the users "{users}"'))
def lists_users(ctx: ScenarioContext, users: str) -> None:
    found = [user.get("login") for user in response_json(ctx)]
    assert found == _names(ctx, users), f"listed {found}"


# ---------------------------------------------------------------- scheduled merges

SCHEDULE = {"Do": "merge", "merge_when_checks_succeed": True}


@given(phrase('"{who}" scheduled the merge of pull request {index:d} of "{repo}" for when the checks succeed'))
def given_scheduled(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    expect_status(acting(ctx, who, PullsApi).merge(ref.owner, ref.name, index, SCHEDULE), 201, "schedule the merge")


@given(phrase('"{who}" cancelled the scheduled merge of pull request {index:d} of "{repo}"'))
def given_cancelled(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    response = acting(ctx, who, PullsApi).cancel_scheduled_merge(ref.owner, ref.name, index)
    expect_status(response, 204, "cancel the scheduled merge")


@when(phrase('"{who}" schedules the merge of pull request {index:d} of "{repo}" for when the checks succeed'))
def when_schedule(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).merge(ref.owner, ref.name, index, SCHEDULE)


@when(phrase('"{who}" cancels the scheduled merge of pull request {index:d} of "{repo}"'))
def when_cancel_schedule(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).cancel_scheduled_merge(ref.owner, ref.name, index)


@then(phrase('pull request {index:d} of "{repo}" becomes merged'))
def becomes_merged(ctx: ScenarioContext, index: int, repo: str) -> None:
    """Gitea merges a scheduled pull request from a queue: wait for it."""
    ref = ctx.repo(repo)
    api = acting(ctx, ADMIN, PullsApi)

    def probe() -> bool | None:
        pull = json_of(api.get_pull(ref.owner, ref.name, index))
        return True if pull.get("merged") else None

    wait_for(probe, f"pull request {index} of {repo} to be merged", 15.0)


# ---------------------------------------------------------------- reading reviews


@when(phrase('"{who}" lists the reviews of pull request {index:d} of "{repo}"'))
def when_list_reviews(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    """``GET .../pulls/{index}/reviews``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).list_reviews(ref.owner, ref.name, index)


@when(phrase('"{who}" reads the review on pull request {index:d} of "{repo}"'))
def when_read_review(ctx: ScenarioContext, pull_notes: PullNotes, who: str, index: int, repo: str) -> None:
    """``GET .../pulls/{index}/reviews/{id}`` of the review a Given step left."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).get_review(ref.owner, ref.name, index, _review_id(pull_notes))


@when(phrase('"{who}" reads the comments of the review on pull request {index:d} of "{repo}"'))
def when_read_review_comments(ctx: ScenarioContext, pull_notes: PullNotes, who: str, index: int, repo: str) -> None:
    """``GET .../pulls/{index}/reviews/{id}/comments`` of the review a Given step left."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).review_comments(ref.owner, ref.name, index, _review_id(pull_notes))


@then(phrase('the reviews listed are "{pairs}"'))
def then_reviews_listed(ctx: ScenarioContext, pairs: str) -> None:
    """``reviewer:STATE`` pairs, in the answer's order (Gitea lists reviews oldest first)."""
    listed = response_json(ctx)
    assert isinstance(listed, list), f"expected a list of PullReview: {str(listed)[:200]}"
    found = [f"{review['user']['login']}:{review['state']}" for review in listed]
    pairs_split = (pair.partition(":") for pair in comma_list(pairs))
    expected = [f"{user_name(ctx, who)}:{state}" for who, _, state in pairs_split]
    assert found == expected, f"the reviews are {found}, expected {expected}"

"""Pull requests: branches with commits, opening pull requests, their commits and files, the branch
update, reviews with code comments, and replies to review comments.

Branches are made through the contents API by the repository's owner; every step that moves a branch
notes its tip (:class:`PullNotes`), so a Then step can show that a refused operation left the branch where it was.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.branches import BranchesApi
from conformance.api.contents import ContentsApi
from conformance.api.pulls import PullsApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from conformance.seeding import SeededData
from steps.actors import ADMIN, acting, repo_owner
from steps.common import expect_status, json_option, user_name
from steps.issues import IssueNotes
from steps.parsing import phrase

__all__ = ["PullNotes"]


@dataclass
class PullNotes:
    """The branch tips pull-request Given steps left (by repository and branch), the review a Given step
    submitted and that review's code comment."""

    tips: dict[tuple[str, str], str] = field(default_factory=dict)
    review_id: int | None = None
    review_comment: dict[str, Any] | None = None

    def tip(self, repo: str, branch: str) -> str:
        """The tip a Given step left on the branch."""
        found = self.tips.get((repo, branch))
        assert found is not None, f'no step moved the branch "{branch}" of "{repo}" yet'
        return found

    def comment(self) -> dict[str, Any]:
        """The code comment of the review a Given step submitted."""
        assert self.review_comment is not None, 'add `Given "..." reviewed pull request ... commenting ...`'
        return self.review_comment


@pytest.fixture
def pull_notes() -> PullNotes:
    """The scenario's pull-request notes."""
    return PullNotes()


def _owner_contents(ctx: ScenarioContext, repo: str) -> ContentsApi:
    return repo_owner(ctx, repo).contents


def _write(
    ctx: ScenarioContext,
    pull_notes: PullNotes,
    repo: str,
    *,
    branch: str,
    path: str,
    content: str,
    new_branch: str = "",
) -> None:
    """Create or change one file on ``branch`` (on ``new_branch``, first made from ``branch``); note the tip."""
    ref = ctx.repo(repo)
    contents = _owner_contents(ctx, repo)
    if new_branch:
        option = {"new_branch_name": new_branch, "old_branch_name": branch}
        expect_status(contents_as_branches(contents).create(ref.owner, ref.name, option), 201, f'create "{new_branch}"')
        branch = new_branch
    current = contents.get(ref.owner, ref.name, path, ref=branch)
    if current.status_code == 200:
        sha = json_of(current)["sha"]
        response = contents.update(ref.owner, ref.name, path, content, sha, message=f"change {path}", branch=branch)
        written = expect_status(response, 200, f'change "{path}" on "{branch}"')
    else:
        response = contents.create(ref.owner, ref.name, path, content, message=f"add {path}", branch=branch)
        written = expect_status(response, 201, f'add "{path}" on "{branch}"')
    pull_notes.tips[repo, branch] = str(written["commit"]["sha"])


def contents_as_branches(contents: ContentsApi) -> BranchesApi:
    """The branch operations over the same client (the same caller) as ``contents``."""
    return BranchesApi(contents.http, contents.site_url)


def _branch_tip(ctx: ScenarioContext, repo: str, branch: str) -> str:
    ref = ctx.repo(repo)
    body = expect_status(
        ctx.admin.area(BranchesApi).get(ref.owner, ref.name, branch), 200, f'read the branch "{branch}"'
    )
    sha: str = body["commit"]["id"]
    return sha


# ---------------------------------------------------------------- Given


@given(phrase('the repository "{repo}" has the branch "{branch}" changing "{path}" to "{content}"'))
def given_branch(
    ctx: ScenarioContext, pull_notes: PullNotes, *, repo: str, branch: str, path: str, content: str
) -> None:
    """A new branch from the default branch with one file written (``\\n`` in ``content`` is a new line)."""
    default = ctx.repo(repo).default_branch
    _write(ctx, pull_notes, repo, branch=default, path=path, content=content.replace("\\n", "\n"), new_branch=branch)


@given(phrase('the branch "{branch}" of "{repo}" changes "{path}" to "{content}"'))
def given_branch_change(
    ctx: ScenarioContext, pull_notes: PullNotes, *, branch: str, repo: str, path: str, content: str
) -> None:
    """One more commit on an existing branch."""
    _write(ctx, pull_notes, repo, branch=branch, path=path, content=content.replace("\\n", "\n"))


@given(phrase('the branch "{branch}" of "{repo}" deletes "{path}"'))
def given_branch_delete(ctx: ScenarioContext, pull_notes: PullNotes, branch: str, repo: str, path: str) -> None:
    ref = ctx.repo(repo)
    contents = _owner_contents(ctx, repo)
    current = expect_status(contents.get(ref.owner, ref.name, path, ref=branch), 200, f'read "{path}"')
    response = contents.delete(ref.owner, ref.name, path, current["sha"], message=f"delete {path}", branch=branch)
    deleted = expect_status(response, 200, f'delete "{path}" on "{branch}"')
    pull_notes.tips[repo, branch] = str(deleted["commit"]["sha"])


@given(phrase('"{who}" opened a pull request of "{head}" into "{base}" in "{repo}"'))
def given_pull(ctx: ScenarioContext, fake: SeededData, *, who: str, head: str, base: str, repo: str) -> None:
    ref = ctx.repo(repo)
    option = {"head": head, "base": base, "title": f"Merge {head}", "body": fake.paragraph()}
    expect_status(acting(ctx, who, PullsApi).create_pull(ref.owner, ref.name, option), 201, "open the pull request")


@given(phrase('"{who}" closed pull request {index:d} of "{repo}"'))
def given_closed(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    expect_status(
        acting(ctx, who, PullsApi).edit_pull(ref.owner, ref.name, index, {"state": "closed"}), 201, "close the pull"
    )


@given(phrase('"{who}" merged pull request {index:d} of "{repo}"'))
def given_merged(ctx: ScenarioContext, pull_notes: PullNotes, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    expect_status(
        acting(ctx, who, PullsApi).merge(ref.owner, ref.name, index, {"Do": "merge"}), 200, "merge the pull request"
    )
    pull_notes.tips[repo, ref.default_branch] = _branch_tip(ctx, repo, ref.default_branch)


@given(phrase('"{who}" reviewed pull request {index:d} of "{repo}" commenting "{body}" on line {line:d} of "{path}"'))
def given_review(
    ctx: ScenarioContext, pull_notes: PullNotes, *, who: str, index: int, repo: str, body: str, line: int, path: str
) -> None:
    """A COMMENT review with one code comment on a new-side line; notes the review and its comment."""
    ref = ctx.repo(repo)
    api = acting(ctx, who, PullsApi)
    option = {"event": "COMMENT", "body": "", "comments": [{"path": path, "body": body, "new_position": line}]}
    review = expect_status(api.create_review(ref.owner, ref.name, index, option), 200, "review the pull request")
    comments = expect_status(api.review_comments(ref.owner, ref.name, index, review["id"]), 200, "read the review")
    pull_notes.review_id = int(review["id"])
    pull_notes.review_comment = comments[0]


def _verdict(ctx: ScenarioContext, pull_notes: PullNotes, *, who: str, event: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    option = {"event": event, "body": "Reviewed."}
    review = expect_status(
        acting(ctx, who, PullsApi).create_review(ref.owner, ref.name, index, option), 200, f"review ({event})"
    )
    pull_notes.review_id = int(review["id"])


@given(phrase('"{who}" approved pull request {index:d} of "{repo}"'))
def given_approved(ctx: ScenarioContext, pull_notes: PullNotes, who: str, index: int, repo: str) -> None:
    """An APPROVE review with a body."""
    _verdict(ctx, pull_notes, who=who, event="APPROVE", index=index, repo=repo)


@given(phrase('"{who}" requested changes on pull request {index:d} of "{repo}"'))
def given_rejected(ctx: ScenarioContext, pull_notes: PullNotes, who: str, index: int, repo: str) -> None:
    """A REQUEST_CHANGES review with a body."""
    _verdict(ctx, pull_notes, who=who, event="REQUEST_CHANGES", index=index, repo=repo)


# ---------------------------------------------------------------- When


@when(phrase('"{who}" opens a pull request of "{head}" into "{base}" in "{repo}"'))
def when_open(ctx: ScenarioContext, fake: SeededData, *, who: str, head: str, base: str, repo: str) -> None:
    ref = ctx.repo(repo)
    option = {"head": head, "base": base, "title": f"Merge {head}", "body": fake.paragraph()}
    ctx.response = acting(ctx, who, PullsApi).create_pull(ref.owner, ref.name, option)


@when(phrase('"{who}" opens a pull request in "{repo}" with the body'))
def when_open_with(ctx: ScenarioContext, who: str, repo: str, docstring: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).create_pull(ref.owner, ref.name, json_option(ctx, docstring))


@when(phrase('"{who}" reads pull request {index:d} of "{repo}"'))
def when_read(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).get_pull(ref.owner, ref.name, index)


@when(phrase('"{who}" lists the commits of pull request {index:d} of "{repo}" with limit {limit:d}'))
def when_commits(ctx: ScenarioContext, who: str, index: int, repo: str, limit: int) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).commits(ref.owner, ref.name, index, limit=limit)


@when(phrase('"{who}" lists the files of pull request {index:d} of "{repo}"'))
def when_files(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).files(ref.owner, ref.name, index)


@when(phrase('"{who}" downloads the {kind:w} of pull request {index:d} of "{repo}"'))
def when_download(ctx: ScenarioContext, who: str, kind: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).download(ref.owner, ref.name, index, kind)


@when(phrase('"{who}" updates the branch of pull request {index:d} of "{repo}" by {style:w}'))
def when_update(ctx: ScenarioContext, who: str, index: int, repo: str, style: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).update(ref.owner, ref.name, index, style)


@when(phrase('"{who}" closes pull request {index:d} of "{repo}"'))
def when_close(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).edit_pull(ref.owner, ref.name, index, {"state": "closed"})


@when(phrase('"{who}" edits pull request {index:d} of "{repo}" with the body'))
def when_edit_pull(ctx: ScenarioContext, who: str, index: int, repo: str, docstring: str) -> None:
    """``PATCH .../pulls/{index}`` with an ``EditPullRequestOption`` as written."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).edit_pull(ref.owner, ref.name, index, json_option(ctx, docstring))


@when(phrase('"{who}" merges pull request {index:d} of "{repo}" by {style}'))
def when_merge(ctx: ScenarioContext, who: str, index: int, repo: str, style: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).merge(ref.owner, ref.name, index, {"Do": style})


@when(phrase('"{who}" merges pull request {index:d} of "{repo}" with the body'))
def when_merge_with(ctx: ScenarioContext, who: str, index: int, repo: str, docstring: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).merge(ref.owner, ref.name, index, json_option(ctx, docstring))


@when(phrase('"{who}" reviews pull request {index:d} of "{repo}" with the body'))
def when_review(ctx: ScenarioContext, who: str, index: int, repo: str, docstring: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).create_review(ref.owner, ref.name, index, json_option(ctx, docstring))


@when(phrase('"{who}" replies "{body}" to the review comment on pull request {index:d} of "{repo}"'))
def when_reply(ctx: ScenarioContext, pull_notes: PullNotes, *, who: str, body: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    parent = pull_notes.comment()
    ctx.response = acting(ctx, who, PullsApi).reply(ref.owner, ref.name, index, parent["id"], body)


@when(phrase('"{who}" replies "{body}" to the plain comment on pull request {index:d} of "{repo}"'))
def when_reply_plain(
    ctx: ScenarioContext, issue_notes: IssueNotes, *, who: str, body: str, index: int, repo: str
) -> None:
    """Replies to the comment an earlier ``commented ... on issue`` step made (an issue or pull comment)."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).reply(ref.owner, ref.name, index, issue_notes.comment(), body)


@when(phrase('"{who}" replies "{body}" to comment {comment_id:d} on pull request {index:d} of "{repo}"'))
def when_reply_unknown(ctx: ScenarioContext, *, who: str, body: str, comment_id: int, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PullsApi).reply(ref.owner, ref.name, index, comment_id, body)


# ---------------------------------------------------------------- Then


@then(phrase('the branch "{branch}" of "{repo}" has not moved'))
def then_not_moved(ctx: ScenarioContext, pull_notes: PullNotes, branch: str, repo: str) -> None:
    remembered = pull_notes.tip(repo, branch)
    assert _branch_tip(ctx, repo, branch) == remembered, f'the branch "{branch}" moved'


@then(phrase('the branch "{branch}" of "{repo}" has moved'))
def then_moved(ctx: ScenarioContext, pull_notes: PullNotes, branch: str, repo: str) -> None:
    remembered = pull_notes.tip(repo, branch)
    assert _branch_tip(ctx, repo, branch) != remembered, f'the branch "{branch}" is where it was'


@then(phrase('the file "{path}" on the branch "{branch}" of "{repo}" reads "{content}"'))
def then_file_reads(ctx: ScenarioContext, path: str, branch: str, repo: str, content: str) -> None:
    ref = ctx.repo(repo)
    body = expect_status(_owner_contents(ctx, repo).get(ref.owner, ref.name, path, ref=branch), 200, f'read "{path}"')
    found = base64.b64decode(body["content"]).decode()
    assert found == content.replace("\\n", "\n"), f'"{path}" on "{branch}" reads {found!r}'


@then(phrase('the response text contains "{text}"'))
def then_text_contains(ctx: ScenarioContext, text: str) -> None:
    body = ctx.last_response().text
    assert text in body, f"the response does not contain {text!r}: {body[:500]!r}"


@then(phrase('pull request {index:d} of "{repo}" is merged and closed'))
def then_merged(ctx: ScenarioContext, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    api = acting(ctx, ADMIN, PullsApi)
    pull = expect_status(api.get_pull(ref.owner, ref.name, index), 200, "read the pull request")
    assert (pull["merged"], pull["state"]) == (True, "closed"), f"the pull is {pull['state']}, merged={pull['merged']}"
    assert pull["merge_commit_sha"], "the merged pull request has no merge commit"
    expect_status(api.is_merged(ref.owner, ref.name, index), 204, "ask whether the pull request is merged")


@then(phrase('pull request {index:d} of "{repo}" is open and not merged'))
def then_not_merged(ctx: ScenarioContext, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    api = acting(ctx, ADMIN, PullsApi)
    pull = expect_status(api.get_pull(ref.owner, ref.name, index), 200, "read the pull request")
    assert (pull["merged"], pull["state"]) == (False, "open"), f"the pull is {pull['state']}, merged={pull['merged']}"
    expect_status(api.is_merged(ref.owner, ref.name, index), 404, "ask whether the pull request is merged")


@then(phrase('the changed file "{path}" is "{status}" with {additions:d} additions and {deletions:d} deletions'))
def then_changed_file(ctx: ScenarioContext, path: str, status: str, additions: int, deletions: int) -> None:
    files = {item["filename"]: item for item in json_of(ctx.last_response())}
    assert path in files, f'"{path}" is not among the changed files {sorted(files)}'
    item = files[path]
    found = (item["status"], item["additions"], item["deletions"], item["changes"])
    assert found == (status, additions, deletions, additions + deletions), f'"{path}" is {found}'


@then(phrase('pull request {index:d} of "{repo}" has {count:d} pull requests open for its branches'))
def then_open_count(ctx: ScenarioContext, index: int, repo: str, count: int) -> None:
    ref = ctx.repo(repo)
    listed = expect_status(
        acting(ctx, ADMIN, PullsApi).list_pulls(ref.owner, ref.name, state="open"), 200, "list pulls"
    )
    pull = expect_status(acting(ctx, ADMIN, PullsApi).get_pull(ref.owner, ref.name, index), 200, "read the pull")
    same = [
        item
        for item in listed
        if (item["head"]["ref"], item["base"]["ref"]) == (pull["head"]["ref"], pull["base"]["ref"])
    ]
    assert len(same) == count, f"{len(same)} open pull requests have these branches"


@then(phrase('"{repo}" has {count:d} pull requests'))
def then_pull_count(ctx: ScenarioContext, repo: str, count: int) -> None:
    ref = ctx.repo(repo)
    listed = expect_status(acting(ctx, ADMIN, PullsApi).list_pulls(ref.owner, ref.name, state="all"), 200, "list pulls")
    assert len(listed) == count, f"{len(listed)} pull requests exist"


@then(phrase("the reply is threaded under the review of the comment it answers"))
def then_threaded(ctx: ScenarioContext, pull_notes: PullNotes) -> None:
    reply = json_of(ctx.last_response())
    parent = pull_notes.comment()
    found = (reply["pull_request_review_id"], reply["path"], reply["position"], reply["original_position"])
    expected = (parent["pull_request_review_id"], parent["path"], parent["position"], parent["original_position"])
    assert found == expected, f"the reply is on {found}, its parent on {expected}"
    assert reply["id"] != parent["id"], "the reply is the parent comment itself"


@then(phrase('the code comment of the submitted review on "{repo}" ends its diff hunk with "{text}"'))
def then_diff_hunk(ctx: ScenarioContext, repo: str, text: str) -> None:
    """The first code comment of the review the last response returned: its hunk ends at the commented line."""
    ref = ctx.repo(repo)
    review = json_of(ctx.last_response())
    index = int(review["pull_request_url"].rstrip("/").rsplit("/", 1)[-1])
    response = acting(ctx, ADMIN, PullsApi).review_comments(ref.owner, ref.name, index, review["id"])
    comments = expect_status(response, 200, "read the review's comments")
    assert comments, "the review has no code comment"
    hunk = comments[0]["diff_hunk"]
    assert hunk.startswith("diff --git") and "@@ -" in hunk, f"not a diff hunk: {hunk!r}"
    assert hunk.endswith(text), f"the diff hunk ends with {hunk[-40:]!r}"


@then(phrase('the review of pull request {index:d} of "{repo}" has {count:d} comments'))
def then_review_comments(ctx: ScenarioContext, pull_notes: PullNotes, index: int, repo: str, count: int) -> None:
    ref = ctx.repo(repo)
    assert pull_notes.review_id is not None, 'add `Given "..." reviewed pull request ... commenting ...`'
    response = acting(ctx, ADMIN, PullsApi).review_comments(ref.owner, ref.name, index, pull_notes.review_id)
    comments = expect_status(response, 200, "read the review's comments")
    assert len(comments) == count, f"the review has {len(comments)} comments"


@then(phrase('the response field "{field}" is the remembered tip of "{branch}" of "{repo}"'))
def then_field_tip(ctx: ScenarioContext, pull_notes: PullNotes, field: str, branch: str, repo: str) -> None:
    value = json_of(ctx.last_response())
    for part in field.split("."):
        value = value[int(part)] if isinstance(value, list) else value[part]
    assert value == pull_notes.tip(repo, branch), f'"{field}" is {value}'


@then(phrase('the review of "{who}" on pull request {index:d} of "{repo}" is dismissed and stale'))
def review_dismissed(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    reviews = expect_status(ctx.admin.area(PullsApi).list_reviews(ref.owner, ref.name, index), 200, "list reviews")
    name = user_name(ctx, who)
    theirs = [review for review in reviews if review["user"]["login"] == name]
    assert theirs, f'no review of "{who}": {reviews!r}'
    assert all(review["dismissed"] and review["stale"] for review in theirs), theirs

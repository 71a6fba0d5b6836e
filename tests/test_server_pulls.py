"""Pull requests: creation rules, commits and files with their counts, diff, branch update by merge and
by rebase, reviews with code comments and replies, against the reference app."""

from __future__ import annotations

from typing import Any

from flask import Flask
from test_server_issues_support import Forge, assert_error, forge_env

from reference_server.events import PushEvent
from reference_server.pulls.diff import cut_diff_around_line

__all__ = ["forge_env"]

LINES = "".join(f"line {number}\n" for number in range(1, 11))


def _feature_pull(forge: Forge, **extra: Any) -> dict[str, Any]:
    """``main`` with ``a.txt`` (10 lines); ``feature`` changes line 9, adds ``b.txt``; a pull of it."""
    forge.commit("a.txt", LINES)
    forge.commit("a.txt", LINES.replace("line 9\n", "line nine\n"), new_branch="feature")
    forge.commit("b.txt", "bee\n", branch="feature")
    body = {"head": "feature", "base": "main", "title": "Feature", **extra}
    created: dict[str, Any] = forge.ok("POST", "/pulls", forge.ann, 201, json=body)
    return created


def test_create_and_read_a_pull(forge_env: Forge) -> None:
    pull = _feature_pull(forge_env)
    assert (pull["number"], pull["state"], pull["merged"], pull["mergeable"]) == (1, "open", False, True)
    assert (pull["head"]["ref"], pull["base"]["ref"], pull["changed_files"]) == ("feature", "main", 2)
    assert (pull["additions"], pull["deletions"]) == (2, 1)
    as_issue = forge_env.ok("GET", "/issues/1", None, 200)
    assert as_issue["pull_request"]["merged"] is False
    assert forge_env.issue()["number"] == 2
    assert [item["number"] for item in forge_env.ok("GET", "/pulls", None, 200)] == [1]
    listed = forge_env.ok("GET", "/issues", None, 200, query_string={"type": "issues"})
    assert [item["number"] for item in listed] == [2]


def test_create_refusals_store_nothing(forge_env: Forge) -> None:
    _feature_pull(forge_env)
    same = forge_env.call("POST", "/pulls", forge_env.ann, json={"head": "main", "base": "main", "title": "t"})
    assert_error(same, 422, "There are no changes between the head and the base")
    unknown = forge_env.call("POST", "/pulls", forge_env.ann, json={"head": "nope", "base": "main", "title": "t"})
    assert_error(unknown, 404)
    again = forge_env.call("POST", "/pulls", forge_env.bob, json={"head": "feature", "base": "main", "title": "t"})
    assert_error(again, 409, "pull request already exists for these targets")
    assert_error(forge_env.call("POST", "/pulls", forge_env.ann, json={"head": "feature", "base": "main"}), 422)
    assert forge_env.call("GET", "/issues", query_string={"state": "all"}).headers["X-Total-Count"] == "1"


def test_commits_and_files_with_counts_and_never_x_total(forge_env: Forge) -> None:
    _feature_pull(forge_env)
    commits = forge_env.call("GET", "/pulls/1/commits", query_string={"limit": 1})
    assert commits.status_code == 200
    assert commits.headers["X-Total-Count"] == "2"
    assert "X-Total" not in commits.headers
    assert len(commits.json) == 1 and commits.json[0]["commit"]["message"].startswith("Add b.txt")
    files = forge_env.call("GET", "/pulls/1/files")
    assert files.headers["X-Total-Count"] == "2" and "X-Total" not in files.headers
    shapes = {item["filename"]: (item["status"], item["additions"], item["deletions"]) for item in files.json}
    assert shapes == {"a.txt": ("changed", 1, 1), "b.txt": ("added", 1, 0)}
    diff = forge_env.call("GET", "/pulls/1.diff")
    assert diff.status_code == 200 and b"+line nine" in diff.data
    assert forge_env.call("GET", "/pulls/1.patch").data.startswith(b"From ")
    assert_error(forge_env.call("GET", "/pulls/7/files"), 404)


def test_update_by_merge_publishes_a_push_and_refuses_conflicts(app: Flask, forge_env: Forge) -> None:
    _feature_pull(forge_env)
    forge_env.commit("c.txt", "sea\n")
    pushes: list[PushEvent] = []
    app.extensions["forge"].events.subscribe(PushEvent, pushes.append)
    assert forge_env.call("POST", "/pulls/1/update", forge_env.ann).status_code == 200
    assert [event.ref for event in pushes] == ["refs/heads/feature"]
    head = forge_env.ok("GET", "/pulls/1", None, 200)["head"]["sha"]
    assert head == pushes[0].after
    commits = forge_env.ok("GET", "/pulls/1/commits", None, 200)
    assert commits[0]["commit"]["message"].startswith("Merge branch 'main' into feature")
    forge_env.commit("a.txt", LINES.replace("line 9\n", "line NINE\n"))
    refused = forge_env.call("POST", "/pulls/1/update", forge_env.ann)
    assert_error(refused, 409, "merge failed because of conflict")
    assert forge_env.ok("GET", "/pulls/1", None, 200)["head"]["sha"] == head
    assert_error(forge_env.call("POST", "/pulls/1/update", forge_env.bob), 403)


def test_update_by_rebase_replays_the_head_commits(forge_env: Forge) -> None:
    _feature_pull(forge_env)
    base = forge_env.commit("a.txt", LINES.replace("line 1\n", "line one\n"))
    assert forge_env.call("POST", "/pulls/1/update", forge_env.ann, query_string={"style": "rebase"}).status_code == 200
    pull = forge_env.ok("GET", "/pulls/1", None, 200)
    commits = forge_env.ok("GET", "/pulls/1/commits", None, 200)
    assert len(commits) == 2
    assert commits[-1]["parents"][0]["sha"] == base
    assert pull["merge_base"] == base
    forge_env.ok("PATCH", "/pulls/1", forge_env.ann, 201, json={"state": "closed"})
    assert_error(forge_env.call("POST", "/pulls/1/update", forge_env.ann), 422)


def test_reviews_comments_and_replies(forge_env: Forge) -> None:
    _feature_pull(forge_env)
    option = {
        "event": "COMMENT",
        "body": "a few notes",
        "comments": [{"path": "a.txt", "body": "why?", "new_position": 9}],
    }
    review = forge_env.ok("POST", "/pulls/1/reviews", forge_env.bob, 200, json=option)
    assert (review["state"], review["comments_count"]) == ("COMMENT", 1)
    comments = forge_env.ok("GET", f"/pulls/1/reviews/{review['id']}/comments", None, 200)
    assert comments[0]["position"] == 9 and comments[0]["path"] == "a.txt"
    assert comments[0]["diff_hunk"].endswith("+line nine")
    reply = forge_env.ok(
        "POST", f"/pulls/1/comments/{comments[0]['id']}/replies", forge_env.ann, 201, json={"body": "ok"}
    )
    assert (reply["pull_request_review_id"], reply["path"], reply["position"]) == (review["id"], "a.txt", 9)
    assert len(forge_env.ok("GET", f"/pulls/1/reviews/{review['id']}/comments", None, 200)) == 2
    own = forge_env.call("POST", "/pulls/1/reviews", forge_env.ann, json={"event": "APPROVE"})
    assert_error(own, 422, "approve your own pull is not allowed")
    bad_path = {"event": "COMMENT", "comments": [{"path": "zzz", "body": "x", "new_position": 1}]}
    assert_error(forge_env.call("POST", "/pulls/1/reviews", forge_env.bob, json=bad_path), 422)
    assert len(forge_env.ok("GET", "/pulls/1/reviews", None, 200)) == 1


def test_reply_refusals(forge_env: Forge) -> None:
    _feature_pull(forge_env)
    forge_env.issue()
    issue_comment = forge_env.ok("POST", "/issues/2/comments", forge_env.ann, 201, json={"body": "plain"})
    pull_comment = forge_env.ok("POST", "/issues/1/comments", forge_env.ann, 201, json={"body": "plain"})
    option = {"event": "COMMENT", "comments": [{"path": "b.txt", "body": "hm", "new_position": 1}]}
    review = forge_env.ok("POST", "/pulls/1/reviews", forge_env.bob, 200, json=option)
    code = forge_env.ok("GET", f"/pulls/1/reviews/{review['id']}/comments", None, 200)[0]

    def reply(comment_id: int, body: str = "hi", index: int = 1) -> Any:
        return forge_env.call(
            "POST", f"/pulls/{index}/comments/{comment_id}/replies", forge_env.ann, json={"body": body}
        )

    assert_error(reply(pull_comment["id"]), 400, "comment is not a review comment")
    assert_error(reply(issue_comment["id"]), 400, "comment does not belong to a pull request")
    assert_error(reply(code["id"], ""), 422)
    assert_error(reply(999999), 404)
    assert_error(reply(code["id"], index=2), 404)
    assert len(forge_env.ok("GET", f"/pulls/1/reviews/{review['id']}/comments", None, 200)) == 1


def test_cut_diff_around_line_keeps_three_lines_above() -> None:
    diff = "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n a\n b\n c\n-d\n+D\n e\n"
    assert (
        cut_diff_around_line(diff, 4, old=False)
        == "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -2,3 +2,3 @@\n b\n c\n-d\n+D"
    )
    assert cut_diff_around_line(diff, 4, old=True).endswith("@@ -1,4 +1,3 @@\n a\n b\n c\n-d")
    assert cut_diff_around_line(diff, 40, old=False) == ""


def test_merge_moves_the_base_closes_the_pull_and_records_it(app: Flask, forge_env: Forge) -> None:
    _feature_pull(forge_env)
    pushes: list[PushEvent] = []
    app.extensions["forge"].events.subscribe(PushEvent, pushes.append)
    assert_error(forge_env.call("POST", "/pulls/1/merge", forge_env.ann, json={}), 422, "[Do]: Required")
    assert_error(forge_env.call("POST", "/pulls/1/merge", forge_env.bob, json={"Do": "merge"}), 405)
    assert_error(forge_env.call("POST", "/pulls/1/merge", forge_env.ann, json={"Do": "manually-merged"}), 405)
    stale = {"Do": "merge", "head_commit_id": "0" * 40}
    assert_error(forge_env.call("POST", "/pulls/1/merge", forge_env.ann, json=stale), 409, "head out of date")
    assert not pushes
    assert_error(forge_env.call("GET", "/pulls/1/merge"), 404)
    assert forge_env.call("POST", "/pulls/1/merge", forge_env.ann, json={"Do": "merge"}).status_code == 200
    assert forge_env.call("GET", "/pulls/1/merge").status_code == 204
    pull = forge_env.ok("GET", "/pulls/1", None, 200)
    assert (pull["merged"], pull["state"], pull["merged_by"]["login"]) == (True, "closed", "ann")
    assert pushes[0].ref == "refs/heads/main" and pushes[0].after == pull["merge_commit_sha"]
    main = forge_env.ok("GET", "/contents/b.txt", None, 200, query_string={"ref": "main"})
    assert main["name"] == "b.txt"
    assert len(forge_env.ok("GET", "/pulls/1/commits", None, 200)) == 2
    assert [entry["type"] for entry in forge_env.ok("GET", "/issues/1/timeline", None, 200)] == ["merge_pull"]
    assert_error(forge_env.call("POST", "/pulls/1/merge", forge_env.ann, json={"Do": "merge"}), 405)
    assert_error(forge_env.call("PATCH", "/pulls/1", forge_env.ann, json={"state": "open"}), 412)


def test_squash_and_fast_forward_merges(forge_env: Forge) -> None:
    _feature_pull(forge_env)
    forge_env.commit("c.txt", "sea\n")
    refused = forge_env.call("POST", "/pulls/1/merge", forge_env.ann, json={"Do": "fast-forward-only"})
    assert_error(refused, 409, "fast-forward")
    assert forge_env.call("POST", "/pulls/1/merge", forge_env.ann, json={"Do": "squash"}).status_code == 200
    pull = forge_env.ok("GET", "/pulls/1", None, 200)
    squashed = forge_env.ok("GET", f"/git/commits/{pull['merge_commit_sha']}", None, 200)
    assert squashed["commit"]["message"].startswith("Feature (#1)")
    assert len(squashed["parents"]) == 1


def test_edit_pull_changes_base_and_refuses_unknown_base(forge_env: Forge) -> None:
    _feature_pull(forge_env)
    forge_env.commit("other.txt", "o\n", new_branch="release")
    missing = forge_env.call("PATCH", "/pulls/1", forge_env.ann, json={"base": "nope", "title": "Renamed"})
    assert_error(missing, 404, "new base 'nope' not exist")
    assert forge_env.ok("GET", "/pulls/1", None, 200)["title"] == "Feature"
    edited = forge_env.ok("PATCH", "/pulls/1", forge_env.ann, 201, json={"base": "release"})
    assert edited["base"]["ref"] == "release"
    timeline = forge_env.ok("GET", "/issues/1/timeline", None, 200)
    assert [(entry["type"], entry["old_ref"], entry["new_ref"]) for entry in timeline] == [
        ("change_target_branch", "main", "release")
    ]


def test_a_merged_pull_cannot_be_reopened_through_the_issue_route(forge_env: Forge) -> None:
    _feature_pull(forge_env)
    assert forge_env.call("POST", "/pulls/1/merge", forge_env.ann, json={"Do": "merge"}).status_code == 200
    assert_error(forge_env.call("PATCH", "/issues/1", forge_env.ann, json={"state": "open"}), 412)
    assert forge_env.ok("GET", "/issues/1", None, 200)["state"] == "closed"
    renamed = forge_env.ok("PATCH", "/issues/1", forge_env.ann, 201, json={"title": "Feature, merged"})
    assert renamed["pull_request"]["merged"] is True


def test_a_pending_review_is_seen_by_its_reviewer_only(forge_env: Forge) -> None:
    _feature_pull(forge_env)
    option = {"event": "PENDING", "comments": [{"path": "b.txt", "body": "draft", "new_position": 1}]}
    review = forge_env.ok("POST", "/pulls/1/reviews", forge_env.bob, 200, json=option)
    assert review["state"] == "PENDING"
    assert_error(forge_env.call("GET", f"/pulls/1/reviews/{review['id']}", forge_env.ann), 404)
    assert forge_env.ok("GET", f"/pulls/1/reviews/{review['id']}", forge_env.bob, 200)["comments_count"] == 1
    assert forge_env.ok("GET", "/issues/1/timeline", forge_env.ann, 200) == []
    assert [entry["type"] for entry in forge_env.ok("GET", "/issues/1/timeline", forge_env.bob, 200)] == ["code"]
    assert forge_env.ok("GET", "/pulls/1", None, 200)["review_comments"] == 0
    assert forge_env.ok("GET", "/pulls/1/reviews", forge_env.ann, 200) == []

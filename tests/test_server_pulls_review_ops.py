"""Review requests, submitting and deleting pending reviews, dismissals, resolved conversations, the
requestable reviewers, and finding a pull request by its branches or its merge commit."""

from __future__ import annotations

from typing import Any

from test_server_issues_support import Forge, assert_error, forge_env

__all__ = ["forge_env"]


def _pull(forge: Forge, *, bob: str = "write") -> None:
    """``feature`` into ``main`` opened by ann; bob a collaborator with ``bob`` access."""
    forge.commit("a.txt", "a\nb\nc\n")
    forge.commit("a.txt", "a\nB\nc\n", new_branch="feature")
    forge.ok("POST", "/pulls", forge.ann, 201, json={"head": "feature", "base": "main", "title": "F"})
    assert forge.call("PUT", "/collaborators/bob", forge.ann, json={"permission": bob}).status_code == 204


def test_reviewers_and_review_requests(forge_env: Forge) -> None:
    _pull(forge_env)
    names = [user["login"] for user in forge_env.ok("GET", "/reviewers", forge_env.ann, 200)]
    assert names == ["ann", "bob"]
    assert forge_env.call("GET", "/reviewers").status_code == 401
    created = forge_env.ok("POST", "/pulls/1/requested_reviewers", forge_env.ann, 201, json={"reviewers": ["bob"]})
    assert [(item["state"], item["user"]["login"], item["official"]) for item in created] == [
        ("REQUEST_REVIEW", "bob", True)
    ]
    again = forge_env.ok("POST", "/pulls/1/requested_reviewers", forge_env.ann, 201, json={"reviewers": ["bob"]})
    assert again == []
    pull = forge_env.ok("GET", "/pulls/1", None, 200)
    assert [user["login"] for user in pull["requested_reviewers"]] == ["bob"]
    poster = forge_env.call("POST", "/pulls/1/requested_reviewers", forge_env.ann, json={"reviewers": ["ann"]})
    assert_error(poster, 422, "poster of pr can't be reviewer")
    unknown = forge_env.call("POST", "/pulls/1/requested_reviewers", forge_env.ann, json={"reviewers": ["nobody"]})
    assert_error(unknown, 404)
    assert (
        forge_env.call("DELETE", "/pulls/1/requested_reviewers", forge_env.ann, json={"reviewers": ["bob"]}).status_code
        == 204
    )
    assert forge_env.ok("GET", "/pulls/1", None, 200)["requested_reviewers"] == []


def test_official_review_requests_block_the_merge(forge_env: Forge) -> None:
    _pull(forge_env)
    rule = {"rule_name": "main", "block_on_official_review_requests": True}
    forge_env.ok("POST", "/branch_protections", forge_env.ann, 201, json=rule)
    forge_env.ok("POST", "/pulls/1/requested_reviewers", forge_env.ann, 201, json={"reviewers": ["bob"]})
    merge = forge_env.call("POST", "/pulls/1/merge", forge_env.ann, json={"Do": "merge"})
    assert_error(merge, 405, "There are official review requests")
    forge_env.ok("POST", "/pulls/1/reviews", forge_env.bob, 200, json={"event": "APPROVE", "body": "ok"})
    assert forge_env.call("POST", "/pulls/1/merge", forge_env.ann, json={"Do": "merge"}).status_code == 200


def test_submit_and_delete_a_pending_review(forge_env: Forge) -> None:
    _pull(forge_env)
    comment = {"path": "a.txt", "body": "why?", "new_position": 2}
    pending = forge_env.ok("POST", "/pulls/1/reviews", forge_env.bob, 200, json={"comments": [comment]})
    assert pending["state"] == "PENDING"
    path = f"/pulls/1/reviews/{pending['id']}"
    assert_error(forge_env.call("POST", path, forge_env.bob, json={"event": "PENDING"}), 422, "review stay pending")
    assert_error(forge_env.call("POST", path, forge_env.ann, json={"event": "APPROVE"}), 404)
    submitted = forge_env.ok("POST", path, forge_env.bob, 200, json={"event": "APPROVE", "body": "fine"})
    assert (submitted["state"], submitted["body"], submitted["official"]) == ("APPROVED", "fine", True)
    again = forge_env.call("POST", path, forge_env.bob, json={"event": "COMMENT", "body": "x"})
    assert_error(again, 422, "only a pending review can be submitted")
    assert_error(forge_env.call("DELETE", path, forge_env.ann), 403)
    assert forge_env.call("DELETE", path, forge_env.bob).status_code == 204
    assert forge_env.ok("GET", "/pulls/1/reviews", None, 200) == []
    assert_error(forge_env.call("GET", path), 404)


def test_deleting_the_latest_official_review_restores_the_previous(forge_env: Forge) -> None:
    _pull(forge_env)
    first = forge_env.ok("POST", "/pulls/1/reviews", forge_env.bob, 200, json={"event": "APPROVE", "body": "a"})
    second = forge_env.ok(
        "POST", "/pulls/1/reviews", forge_env.bob, 200, json={"event": "REQUEST_CHANGES", "body": "b"}
    )
    assert forge_env.ok("GET", f"/pulls/1/reviews/{first['id']}", None, 200)["official"] is False
    assert forge_env.call("DELETE", f"/pulls/1/reviews/{second['id']}", forge_env.bob).status_code == 204
    assert forge_env.ok("GET", f"/pulls/1/reviews/{first['id']}", None, 200)["official"] is True


def test_dismissals(forge_env: Forge) -> None:
    _pull(forge_env)
    review = forge_env.ok("POST", "/pulls/1/reviews", forge_env.bob, 200, json={"event": "APPROVE", "body": "a"})
    path = f"/pulls/1/reviews/{review['id']}"
    assert_error(forge_env.call("POST", f"{path}/dismissals", forge_env.bob, json={"message": "no"}), 403)
    dismissed = forge_env.ok("POST", f"{path}/dismissals", forge_env.ann, 200, json={"message": "outdated"})
    assert dismissed["dismissed"] is True
    assert forge_env.ok("POST", f"{path}/undismissals", forge_env.ann, 200)["dismissed"] is False
    note = forge_env.ok("POST", "/pulls/1/reviews", forge_env.bob, 200, json={"event": "COMMENT", "body": "c"})
    refused = forge_env.call("POST", f"/pulls/1/reviews/{note['id']}/dismissals", forge_env.ann, json={})
    assert_error(refused, 403, "not allowed to dismiss this review")


def test_resolving_a_conversation(forge_env: Forge) -> None:
    _pull(forge_env, bob="read")
    comment = {"path": "a.txt", "body": "why?", "new_position": 2}
    review = forge_env.ok(
        "POST", "/pulls/1/reviews", forge_env.bob, 200, json={"event": "COMMENT", "comments": [comment]}
    )
    code = forge_env.ok("GET", f"/pulls/1/reviews/{review['id']}/comments", None, 200)[0]
    assert code["resolver"] is None
    assert_error(forge_env.call("POST", f"/pulls/comments/{code['id']}/resolve", forge_env.bob), 403)
    assert forge_env.call("POST", f"/pulls/comments/{code['id']}/resolve", forge_env.ann).status_code == 204
    resolved = forge_env.ok("GET", f"/pulls/1/reviews/{review['id']}/comments", None, 200)[0]
    assert resolved["resolver"]["login"] == "ann"
    assert forge_env.call("POST", f"/pulls/comments/{code['id']}/unresolve", forge_env.ann).status_code == 204
    assert forge_env.ok("GET", f"/pulls/1/reviews/{review['id']}/comments", None, 200)[0]["resolver"] is None
    plain = forge_env.ok("POST", "/issues/1/comments", forge_env.ann, 201, json={"body": "hi"})
    assert_error(forge_env.call("POST", f"/pulls/comments/{plain['id']}/resolve", forge_env.ann), 400)
    assert_error(forge_env.call("POST", "/pulls/comments/999/resolve", forge_env.ann), 404)


def test_pull_by_branches_and_by_merge_commit(forge_env: Forge) -> None:
    _pull(forge_env)
    found: dict[str, Any] = forge_env.ok("GET", "/pulls/main/feature", None, 200)
    assert found["number"] == 1
    assert forge_env.ok("GET", "/pulls/main/ann:feature", None, 200)["number"] == 1
    assert_error(forge_env.call("GET", "/pulls/feature/main"), 404)
    assert forge_env.ok("GET", "/pulls/1/files", None, 200)
    assert forge_env.call("POST", "/pulls/1/merge", forge_env.ann, json={"Do": "merge"}).status_code == 200
    sha = forge_env.ok("GET", "/pulls/1", None, 200)["merge_commit_sha"]
    assert forge_env.ok("GET", f"/commits/{sha}/pull", None, 200)["number"] == 1
    head = forge_env.ok("GET", "/pulls/1", None, 200)["head"]["sha"]
    assert_error(forge_env.call("GET", f"/commits/{head}/pull"), 404)

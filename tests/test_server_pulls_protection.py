"""Protected branches enforced on merge: required status checks (globs), official approvals (writers or
the approvals allowlist), rejected reviews, outdated branches, stale approvals dismissed by a push, the
merge allowlist and an administrator's forced merge, each refused with Gitea's 405 sentence."""

from __future__ import annotations

from typing import Any

from test_server_issues_support import Forge, assert_error, forge_env

__all__ = ["forge_env"]


def _setup(forge: Forge, **rule: Any) -> str:
    """``main`` and a ``feature`` pull by ann; bob writes; ``main`` protected by ``rule``; the head SHA."""
    forge.commit("a.txt", "a\n")
    head = forge.commit("a.txt", "b\n", new_branch="feature")
    forge.ok("POST", "/pulls", forge.ann, 201, json={"head": "feature", "base": "main", "title": "F"})
    assert forge.call("PUT", "/collaborators/bob", forge.ann, json={"permission": "write"}).status_code == 204
    forge.ok("POST", "/branch_protections", forge.ann, 201, json={"rule_name": "main", **rule})
    return head


def _merge(forge: Forge, **extra: Any) -> Any:
    return forge.call("POST", "/pulls/1/merge", forge.ann, json={"Do": "merge", **extra})


def _review(forge: Forge, event: str, who: dict[str, str] | None = None) -> dict[str, Any]:
    body = {"event": event, "body": "noted"}
    review: dict[str, Any] = forge.ok("POST", "/pulls/1/reviews", who or forge.bob, 200, json=body)
    return review


def test_required_status_checks_with_globs(forge_env: Forge) -> None:
    head = _setup(forge_env, enable_status_check=True, status_check_contexts=["ci/*"])
    assert_error(_merge(forge_env), 405, "Not all required status checks successful")
    forge_env.ok("POST", f"/statuses/{head}", forge_env.ann, 201, json={"state": "pending", "context": "ci/build"})
    assert_error(_merge(forge_env), 405, "Not all required status checks successful")
    forge_env.ok("POST", f"/statuses/{head}", forge_env.ann, 201, json={"state": "failure", "context": "other"})
    forge_env.ok("POST", f"/statuses/{head}", forge_env.ann, 201, json={"state": "success", "context": "ci/build"})
    assert _merge(forge_env).status_code == 200


def test_approvals_count_official_latest_reviews_only(forge_env: Forge) -> None:
    _setup(forge_env, required_approvals=1, block_on_rejected_reviews=True)
    assert_error(_merge(forge_env), 405, "Does not have enough approvals")
    assert _review(forge_env, "APPROVE")["official"] is True
    rejected = _review(forge_env, "REQUEST_CHANGES")
    assert rejected["official"] is True
    assert_error(_merge(forge_env), 405, "Does not have enough approvals")
    assert _review(forge_env, "APPROVE")["official"] is True
    assert _merge(forge_env).status_code == 200


def test_a_readers_approval_is_not_official(forge_env: Forge, client: Any, admin_headers: dict[str, str]) -> None:
    _setup(forge_env, required_approvals=1)
    assert forge_env.call("PUT", "/collaborators/bob", forge_env.ann, json={"permission": "read"}).status_code == 204
    assert _review(forge_env, "APPROVE")["official"] is False
    assert_error(_merge(forge_env), 405, "Does not have enough approvals")


def test_rejected_reviews_block(forge_env: Forge) -> None:
    _setup(forge_env, block_on_rejected_reviews=True)
    _review(forge_env, "REQUEST_CHANGES")
    assert_error(_merge(forge_env), 405, "There are requested changes")


def test_outdated_branch_blocks(forge_env: Forge) -> None:
    _setup(forge_env, block_on_outdated_branch=True, enable_push=True)
    forge_env.commit("c.txt", "c\n")
    assert_error(_merge(forge_env), 405, "The head branch is behind the base branch")
    assert forge_env.call("POST", "/pulls/1/update", forge_env.ann).status_code == 200
    assert _merge(forge_env).status_code == 200


def test_a_push_makes_approvals_stale_and_dismisses_them(forge_env: Forge) -> None:
    _setup(forge_env, required_approvals=1, dismiss_stale_approvals=True)
    _review(forge_env, "APPROVE")
    forge_env.commit("b.txt", "more\n", branch="feature")
    review = forge_env.ok("GET", "/pulls/1/reviews", None, 200)[0]
    assert (review["stale"], review["dismissed"]) == (True, True)
    assert_error(_merge(forge_env), 405, "Does not have enough approvals")
    fresh = _review(forge_env, "APPROVE")
    assert (fresh["stale"], fresh["dismissed"]) == (False, False)
    assert _merge(forge_env).status_code == 200


def test_stale_approvals_still_count_unless_ignored(forge_env: Forge) -> None:
    _setup(forge_env, required_approvals=1)
    _review(forge_env, "APPROVE")
    forge_env.commit("b.txt", "more\n", branch="feature")
    assert forge_env.ok("GET", "/pulls/1/reviews", None, 200)[0]["stale"] is True
    forge_env.ok("PATCH", "/branch_protections/main", forge_env.ann, 200, json={"ignore_stale_approvals": True})
    assert_error(_merge(forge_env), 405, "Does not have enough approvals")
    forge_env.ok("PATCH", "/branch_protections/main", forge_env.ann, 200, json={"ignore_stale_approvals": False})
    assert _merge(forge_env).status_code == 200


def test_merge_allowlist(forge_env: Forge) -> None:
    _setup(forge_env, enable_merge_whitelist=True, merge_whitelist_usernames=["bob"])
    assert_error(_merge(forge_env), 405, "User not allowed to merge PR")
    assert forge_env.call("POST", "/pulls/1/merge", forge_env.bob, json={"Do": "merge"}).status_code == 200


def test_approvals_allowlist_makes_only_its_users_official(forge_env: Forge) -> None:
    _setup(forge_env, required_approvals=1, enable_approvals_whitelist=True, approvals_whitelist_username=["ann"])
    assert _review(forge_env, "APPROVE")["official"] is False
    assert_error(_merge(forge_env), 405, "Does not have enough approvals")


def test_an_admin_forces_a_merge_unless_blocked(forge_env: Forge) -> None:
    _setup(forge_env, required_approvals=1, block_admin_merge_override=True)
    assert_error(_merge(forge_env, force_merge=True), 405, "Does not have enough approvals")
    forge_env.ok("PATCH", "/branch_protections/main", forge_env.ann, 200, json={"block_admin_merge_override": False})
    assert _merge(forge_env, force_merge=True).status_code == 200


def test_a_glob_rule_governs_and_other_branches_are_free(forge_env: Forge) -> None:
    forge_env.commit("a.txt", "a\n")
    forge_env.commit("a.txt", "b\n", new_branch="feature")
    forge_env.commit("x.txt", "x\n", new_branch="release/1")
    forge_env.ok("POST", "/pulls", forge_env.ann, 201, json={"head": "feature", "base": "release/1", "title": "R"})
    forge_env.ok(
        "POST", "/branch_protections", forge_env.ann, 201, json={"rule_name": "release/*", "required_approvals": 1}
    )
    assert_error(_merge(forge_env), 405, "Does not have enough approvals")
    forge_env.ok("DELETE", "/branch_protections/release%2F*", forge_env.ann, 204)
    assert _merge(forge_env).status_code == 200


def test_a_scheduled_merge_waits_for_the_checks_and_can_be_cancelled(forge_env: Forge) -> None:
    head = _setup(forge_env, enable_status_check=True, status_check_contexts=["ci/*"], required_approvals=1)
    scheduled = forge_env.call(
        "POST", "/pulls/1/merge", forge_env.ann, json={"Do": "merge", "merge_when_checks_succeed": True}
    )
    assert scheduled.status_code == 201
    again = forge_env.call(
        "POST", "/pulls/1/merge", forge_env.ann, json={"Do": "merge", "merge_when_checks_succeed": True}
    )
    assert_error(again, 409, "already scheduled")
    forge_env.ok("POST", f"/statuses/{head}", forge_env.ann, 201, json={"state": "success", "context": "ci/build"})
    assert forge_env.ok("GET", "/pulls/1", None, 200)["merged"] is False
    assert_error(forge_env.call("DELETE", "/pulls/1/merge", forge_env.bob), 403)
    _review(forge_env, "APPROVE")
    assert forge_env.ok("GET", "/pulls/1", None, 200)["merged"] is True
    assert_error(forge_env.call("DELETE", "/pulls/1/merge", forge_env.ann), 404)


def test_a_cancelled_schedule_does_not_merge(forge_env: Forge) -> None:
    head = _setup(forge_env, enable_status_check=True, status_check_contexts=["ci/*"])
    body = {"Do": "merge", "merge_when_checks_succeed": True}
    assert forge_env.call("POST", "/pulls/1/merge", forge_env.ann, json=body).status_code == 201
    assert forge_env.call("DELETE", "/pulls/1/merge", forge_env.ann).status_code == 204
    forge_env.ok("POST", f"/statuses/{head}", forge_env.ann, 201, json={"state": "success", "context": "ci/build"})
    assert forge_env.ok("GET", "/pulls/1", None, 200)["merged"] is False

"""Dependencies and blocks: both directions, cross-repository links, refusals that store nothing, paging,
permissions, the archived target, and the timeline entries on both issues."""

from __future__ import annotations

from typing import Any

from test_server_issues_support import Forge, assert_error, forge_env

__all__ = ["forge_env"]


def _meta(index: int, owner: str = "ann", repo: str = "code") -> dict[str, Any]:
    return {"owner": owner, "repo": repo, "index": index}


def _numbers(forge: Forge, path: str, who: dict[str, str] | None = None) -> list[int]:
    return [item["number"] for item in forge.ok("GET", path, who, 200)]


def _types(forge: Forge, index: int) -> list[str]:
    return [entry["type"] for entry in forge.ok("GET", f"/issues/{index}/timeline", None, 200)]


def test_a_dependency_is_a_block_seen_from_the_other_side(forge_env: Forge) -> None:
    forge_env.issue("Build")
    forge_env.issue("Release")
    created = forge_env.ok("POST", "/issues/2/dependencies", forge_env.ann, 201, json=_meta(1))
    assert created["number"] == 2
    assert _numbers(forge_env, "/issues/2/dependencies", forge_env.bob) == [1]
    assert _numbers(forge_env, "/issues/1/blocks") == [2]
    assert _numbers(forge_env, "/issues/1/dependencies") == []
    timeline = forge_env.ok("GET", "/issues/2/timeline", None, 200)
    assert [(entry["type"], entry["dependent_issue"]["number"]) for entry in timeline] == [("add_dependency", 1)]
    assert _types(forge_env, 1) == ["add_dependency"]
    removed = forge_env.ok("DELETE", "/issues/1/blocks", forge_env.ann, 201, json=_meta(2))
    assert removed["number"] == 1
    assert _numbers(forge_env, "/issues/2/dependencies") == []
    assert _types(forge_env, 2) == ["add_dependency", "remove_dependency"]
    assert _types(forge_env, 1) == ["add_dependency", "remove_dependency"]


def test_blocks_create_and_dependencies_delete(forge_env: Forge) -> None:
    forge_env.issue("Build")
    forge_env.issue("Release")
    assert forge_env.ok("POST", "/issues/1/blocks", forge_env.ann, 201, json=_meta(2))["number"] == 1
    assert _numbers(forge_env, "/issues/2/dependencies") == [1]
    forge_env.ok("DELETE", "/issues/2/dependencies", forge_env.ann, 201, json={"index": 1})
    assert _numbers(forge_env, "/issues/1/blocks") == []


def test_duplicates_cycles_and_self_are_refused_and_store_nothing(forge_env: Forge) -> None:
    for title in ("a", "b", "c"):
        forge_env.issue(title)
    forge_env.ok("POST", "/issues/2/dependencies", forge_env.ann, 201, json=_meta(1))
    forge_env.ok("POST", "/issues/3/dependencies", forge_env.ann, 201, json=_meta(2))
    assert_error(forge_env.call("POST", "/issues/2/dependencies", forge_env.ann, json=_meta(1)), 409, "already")
    assert_error(forge_env.call("POST", "/issues/1/blocks", forge_env.ann, json=_meta(2)), 409, "already")
    assert_error(forge_env.call("POST", "/issues/1/dependencies", forge_env.ann, json=_meta(2)), 422, "depends on it")
    assert_error(forge_env.call("POST", "/issues/1/dependencies", forge_env.ann, json=_meta(3)), 422, "depends on it")
    assert_error(forge_env.call("POST", "/issues/1/dependencies", forge_env.ann, json=_meta(1)), 422, "itself")
    assert _numbers(forge_env, "/issues/1/dependencies") == []
    assert _types(forge_env, 1) == ["add_dependency"]
    assert_error(forge_env.call("DELETE", "/issues/1/dependencies", forge_env.ann, json=_meta(3)), 404, "does not")


def test_bad_bodies_and_unknown_issues(forge_env: Forge) -> None:
    forge_env.issue()
    forge_env.issue()
    assert_error(forge_env.call("POST", "/issues/1/dependencies", forge_env.ann, json={}), 422, "[Index]: Required")
    bad = forge_env.call("POST", "/issues/1/dependencies", forge_env.ann, json={"index": "2"})
    assert_error(bad, 422, "integer")
    assert_error(forge_env.call("POST", "/issues/1/dependencies", forge_env.ann, json={"index": 2, "owner": 5}), 422)
    assert_error(forge_env.call("POST", "/issues/1/dependencies", forge_env.ann, json=_meta(9)), 404)
    assert_error(forge_env.call("POST", "/issues/9/dependencies", forge_env.ann, json=_meta(1)), 404)
    assert_error(forge_env.call("POST", "/issues/1/dependencies", forge_env.ann, json=_meta(1, "nobody")), 404)
    assert_error(forge_env.call("POST", "/issues/1/dependencies", None, json=_meta(2)), 401)
    assert _numbers(forge_env, "/issues/1/dependencies") == []


def test_cross_repository_links_follow_write_on_the_target_and_read_on_the_other(forge_env: Forge) -> None:
    client = forge_env.client
    assert client.post("/api/v1/user/repos", headers=forge_env.bob, json={"name": "tools"}).status_code == 201
    vault = client.post("/api/v1/user/repos", headers=forge_env.ann, json={"name": "vault", "private": True})
    assert vault.status_code == 201
    forge_env.issue("Public")
    for repo, who in (("bob/tools", forge_env.bob), ("ann/vault", forge_env.ann)):
        response = client.post(f"/api/v1/repos/{repo}/issues", headers=who, json={"title": "t"})
        assert response.status_code == 201
    tools = "/api/v1/repos/bob/tools/issues/1"
    linked = client.post(f"{tools}/dependencies", headers=forge_env.bob, json=_meta(1))
    assert linked.status_code == 201, linked.json
    assert _numbers(forge_env, "/issues/1/blocks") == [1]
    assert_error(forge_env.call("POST", "/issues/1/dependencies", forge_env.bob, json=_meta(1, "bob", "tools")), 404)
    hidden = client.post(f"{tools}/dependencies", headers=forge_env.bob, json=_meta(1, "ann", "vault"))
    assert_error(hidden, 404)
    forge_env.ok("POST", "/issues/1/dependencies", forge_env.ann, 201, json=_meta(1, "ann", "vault"))
    assert _numbers(forge_env, "/issues/1/dependencies", forge_env.ann) == [1]
    listed = forge_env.call("GET", "/issues/1/dependencies", forge_env.bob)
    assert (listed.json, listed.headers["X-Total-Count"]) == ([], "0")
    entries = forge_env.ok("GET", "/issues/1/timeline", forge_env.bob, 200)
    assert [entry["dependent_issue"] for entry in entries if entry["type"] == "add_dependency"][-1] is None


def test_lists_are_paged(forge_env: Forge) -> None:
    for index in range(1, 5):
        forge_env.issue(f"issue {index}")
    for blocker in (2, 3, 4):
        forge_env.ok("POST", "/issues/1/dependencies", forge_env.ann, 201, json=_meta(blocker))
    first = forge_env.call("GET", "/issues/1/dependencies", query_string={"limit": 2})
    assert [item["number"] for item in first.json] == [2, 3]
    assert first.headers["X-Total-Count"] == "3"
    assert 'rel="next"' in first.headers["Link"]
    second = forge_env.call("GET", "/issues/1/dependencies", query_string={"limit": 2, "page": 2})
    assert [item["number"] for item in second.json] == [4]
    blocks = forge_env.call("GET", "/issues/2/blocks")
    assert ([item["number"] for item in blocks.json], blocks.headers["X-Total-Count"]) == ([1], "1")


def test_an_archived_target_is_refused(forge_env: Forge) -> None:
    forge_env.issue()
    forge_env.issue()
    forge_env.ok("PATCH", "", forge_env.ann, 200, json={"archived": True})
    assert_error(forge_env.call("POST", "/issues/2/dependencies", forge_env.ann, json=_meta(1)), 423, "archived")
    assert_error(forge_env.call("DELETE", "/issues/2/dependencies", forge_env.ann, json=_meta(1)), 423, "archived")
    assert_error(forge_env.call("POST", "/issues/1/blocks", forge_env.ann, json=_meta(2)), 404, "archived")
    assert _numbers(forge_env, "/issues/2/dependencies") == []


def test_links_go_with_a_deleted_repository(forge_env: Forge) -> None:
    client = forge_env.client
    assert client.post("/api/v1/user/repos", headers=forge_env.ann, json={"name": "lib"}).status_code == 201
    assert client.post("/api/v1/repos/ann/lib/issues", headers=forge_env.ann, json={"title": "t"}).status_code == 201
    forge_env.issue()
    forge_env.ok("POST", "/issues/1/dependencies", forge_env.ann, 201, json=_meta(1, "ann", "lib"))
    assert client.delete("/api/v1/repos/ann/lib", headers=forge_env.ann).status_code == 204
    assert _numbers(forge_env, "/issues/1/dependencies") == []
    entry = forge_env.ok("GET", "/issues/1/timeline", None, 200)[0]
    assert (entry["type"], entry["dependent_issue"]) == ("add_dependency", None)

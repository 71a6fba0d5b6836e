"""Repository topics and topic search: Gitea's name rule, the 25-topic limit, counts, order and permissions."""

from __future__ import annotations

from typing import Any

import pytest
from test_server_actions_support import World, world

__all__ = ["world"]


def _topics(world: World, repo: str = "app") -> Any:
    response = world.api("GET", f"repos/alice/{repo}/topics", "alice")
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()["topics"], response.headers.get("X-Total-Count")


def _put(world: World, topics: Any, repo: str = "app", who: str = "alice") -> Any:
    return world.api("PUT", f"repos/alice/{repo}/topics", who, json={"topics": topics})


def test_replace_normalizes_and_lists_by_name(world: World) -> None:
    world.repo("alice", "app")
    assert _put(world, ["Zeta", " alpha ", "go-lang", "alpha", "", "v1.2"]).status_code == 204
    assert _topics(world) == (["alpha", "go-lang", "v1.2", "zeta"], "4")
    assert _put(world, ["beta"]).status_code == 204
    assert _topics(world) == (["beta"], "1")


@pytest.mark.parametrize(
    ("topics", "message", "invalid"),
    [
        (["ok", "-bad", "Has Space"], "Topic names are invalid", ["-bad", "has space"]),
        (["x" * 36], "Topic names are invalid", ["x" * 36]),
        ([f"t{i}" for i in range(26)], "Exceeding maximum number of topics per repo", None),
    ],
)
def test_replace_refusals_change_nothing(world: World, topics: list[str], message: str, invalid: Any) -> None:
    world.repo("alice", "app")
    assert _put(world, ["keep"]).status_code == 204
    response = _put(world, topics)
    assert response.status_code == 422
    assert (response.get_json()["message"], response.get_json()["invalidTopics"]) == (message, invalid)
    assert _topics(world) == (["keep"], "1")


def test_replace_with_a_body_that_is_not_a_list_of_strings(world: World) -> None:
    world.repo("alice", "app")
    assert _put(world, "solo").status_code == 422
    assert _put(world, [1, 2]).status_code == 422


def test_add_and_delete_one(world: World) -> None:
    world.repo("alice", "app")
    assert world.api("PUT", "repos/alice/app/topics/Rust", "alice").status_code == 204
    assert world.api("PUT", "repos/alice/app/topics/rust", "alice").status_code == 204
    assert _topics(world) == (["rust"], "1")
    bad = world.api("PUT", "repos/alice/app/topics/no_underscore", "alice")
    assert (bad.status_code, bad.get_json()["message"], bad.get_json()["invalidTopics"]) == (
        422,
        "Topic name is invalid",
        "no_underscore",
    )
    assert world.api("DELETE", "repos/alice/app/topics/rust", "alice").status_code == 204
    assert world.api("DELETE", "repos/alice/app/topics/rust", "alice").status_code == 404
    assert _topics(world) == ([], "0")


def test_the_26th_topic_is_refused(world: World) -> None:
    world.repo("alice", "app")
    assert _put(world, [f"t{i:02d}" for i in range(25)]).status_code == 204
    response = world.api("PUT", "repos/alice/app/topics/one-more", "alice")
    assert (response.status_code, response.get_json()["message"]) == (422, "Exceeding maximum allowed topics per repo.")
    assert _topics(world)[1] == "25"


def test_search_counts_repositories_most_used_first(world: World) -> None:
    world.repo("alice", "app")
    world.repo("alice", "lib")
    assert _put(world, ["python", "pyweb"]).status_code == 204
    assert _put(world, ["python"], repo="lib").status_code == 204
    response = world.api("GET", "topics/search", query_string={"q": "PY"})
    assert response.status_code == 200 and response.headers["X-Total-Count"] == "2"
    found = response.get_json()["topics"]
    assert [(t["topic_name"], t["repo_count"]) for t in found] == [("python", 2), ("pyweb", 1)]
    assert set(found[0]) == {"id", "topic_name", "repo_count", "created", "updated"}
    literal = world.api("GET", "topics/search", query_string={"q": "%"})
    assert literal.get_json()["topics"] == []


def test_deleting_a_repository_uncounts_its_topics(world: World) -> None:
    world.repo("alice", "app")
    world.repo("alice", "lib")
    assert _put(world, ["shared"]).status_code == 204
    assert _put(world, ["shared"], repo="lib").status_code == 204
    assert world.api("DELETE", "repos/alice/lib", "alice").status_code == 204
    found = world.api("GET", "topics/search", query_string={"q": "shared"}).get_json()["topics"]
    assert [(t["topic_name"], t["repo_count"]) for t in found] == [("shared", 1)]


def test_only_repository_admins_change_topics(world: World) -> None:
    world.repo("alice", "app")
    world.user("bob")
    assert _put(world, ["x"], who="bob").status_code == 403
    assert world.api("PUT", "repos/alice/app/topics/x", "bob").status_code == 403
    assert world.api("GET", "repos/alice/app/topics", "bob").status_code == 200
    assert world.api("PUT", "repos/alice/app/topics", json={"topics": ["x"]}).status_code == 401
    assert _topics(world) == ([], "0")


def test_the_repository_json_carries_its_topics(world: World) -> None:
    world.repo("alice", "app")
    assert _put(world, ["web", "api"]).status_code == 204
    assert world.api("GET", "repos/alice/app", "alice").get_json()["topics"] == ["api", "web"]

"""Job lists are ordered by id, ascending by default, as Gitea 1.27's ``sort``/``order`` parameters say."""

from __future__ import annotations

import pytest
from test_server_actions_support import SIMPLE_WORKFLOW, World, world

__all__ = ["world"]


def _job_ids(world: World, query: str) -> list[int]:
    response = world.api("GET", f"repos/alice/app/actions/jobs{query}", "alice")
    assert response.status_code == 200, response.get_data(as_text=True)
    return [job["id"] for job in response.get_json()["jobs"]]


def test_jobs_are_oldest_first_unless_order_desc(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    world.push("alice", "app", "README.md", "more\n")
    ascending = _job_ids(world, "")
    assert len(ascending) >= 2 and ascending == sorted(ascending)
    assert _job_ids(world, "?sort=id&order=asc") == ascending
    assert _job_ids(world, "?order=desc") == sorted(ascending, reverse=True)
    assert _job_ids(world, "?order=desc&limit=1") == [max(ascending)]


@pytest.mark.parametrize("query", ["?order=sideways", "?sort=name"])
def test_unknown_order_or_sort_is_a_client_error(world: World, query: str) -> None:
    world.repo("alice", "app")
    response = world.api("GET", f"repos/alice/app/actions/jobs{query}", "alice")
    assert response.status_code == 400
    assert "message" in response.get_json()

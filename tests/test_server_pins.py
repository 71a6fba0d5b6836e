"""Pins: positions, the limit, moves, unpin gap closing, pull requests apart, permissions and the timeline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from test_server_issues_support import Forge, assert_error, forge_env

from reference_server.app import create_app
from reference_server.cli import build_parser
from reference_server.config import Config, Limits

__all__ = ["forge_env"]


def _positions(forge: Forge, *numbers: int) -> list[int]:
    return [forge.ok("GET", f"/issues/{number}", None, 200)["pin_order"] for number in numbers]


def _pinned(forge: Forge, kind: str = "issues") -> list[tuple[int, int]]:
    return [(item["number"], item["pin_order"]) for item in forge.ok("GET", f"/{kind}/pinned", None, 200)]


def test_pins_take_the_next_position_and_are_listed_by_position(forge_env: Forge) -> None:
    for title in ("one", "two", "three"):
        forge_env.issue(title)
    for number in (2, 3, 1):
        forge_env.ok("POST", f"/issues/{number}/pin", forge_env.ann, 204)
    assert _pinned(forge_env) == [(2, 1), (3, 2), (1, 3)]
    assert forge_env.ok("GET", "/new_pin_allowed", forge_env.bob, 200) == {"issues": False, "pull_requests": True}
    timeline = forge_env.ok("GET", "/issues/2/timeline", None, 200)
    assert [(entry["type"], entry["user"]["login"]) for entry in timeline] == [("pin", "ann")]


def test_over_the_limit_is_refused_and_nothing_changes(forge_env: Forge) -> None:
    for number in range(1, 5):
        forge_env.issue(f"issue {number}")
    for number in (1, 2, 3):
        forge_env.ok("POST", f"/issues/{number}/pin", forge_env.ann, 204)
    assert_error(forge_env.call("POST", "/issues/4/pin", forge_env.ann), 422, "max number of pinned issues")
    assert _positions(forge_env, 4) == [0]
    assert forge_env.ok("GET", "/issues/4/timeline", None, 200) == []


def test_repinning_and_unpinning_an_unpinned_issue_change_nothing(forge_env: Forge) -> None:
    forge_env.issue()
    forge_env.ok("DELETE", "/issues/1/pin", forge_env.ann, 204)
    forge_env.ok("POST", "/issues/1/pin", forge_env.ann, 204)
    forge_env.ok("POST", "/issues/1/pin", forge_env.ann, 204)
    assert _pinned(forge_env) == [(1, 1)]
    assert [entry["type"] for entry in forge_env.ok("GET", "/issues/1/timeline", None, 200)] == ["pin"]


def test_unpin_closes_the_gap_and_records_the_event(forge_env: Forge) -> None:
    for title in ("one", "two", "three"):
        number = forge_env.issue(title)["number"]
        forge_env.ok("POST", f"/issues/{number}/pin", forge_env.ann, 204)
    forge_env.ok("DELETE", "/issues/1/pin", forge_env.ann, 204)
    assert _pinned(forge_env) == [(2, 1), (3, 2)]
    assert _positions(forge_env, 1) == [0]
    assert [entry["type"] for entry in forge_env.ok("GET", "/issues/1/timeline", None, 200)] == ["pin", "unpin"]


@pytest.mark.parametrize(
    ("number", "position", "expected"),
    [(3, 1, [3, 1, 2]), (1, 3, [2, 3, 1]), (2, 2, [1, 2, 3]), (1, 2, [2, 1, 3])],
)
def test_move_shifts_the_pins_in_between(forge_env: Forge, number: int, position: int, expected: list[int]) -> None:
    for index in (1, 2, 3):
        forge_env.issue(f"issue {index}")
        forge_env.ok("POST", f"/issues/{index}/pin", forge_env.ann, 204)
    forge_env.ok("PATCH", f"/issues/{number}/pin/{position}", forge_env.ann, 204)
    assert _pinned(forge_env) == [(item, place) for place, item in enumerate(expected, start=1)]


def test_bad_moves_are_refused_and_change_nothing(forge_env: Forge) -> None:
    for index in (1, 2, 3):
        forge_env.issue(f"issue {index}")
    forge_env.ok("POST", "/issues/1/pin", forge_env.ann, 204)
    forge_env.ok("POST", "/issues/2/pin", forge_env.ann, 204)
    assert_error(forge_env.call("PATCH", "/issues/1/pin/3", forge_env.ann), 422, "between 1 and 2")
    assert_error(forge_env.call("PATCH", "/issues/1/pin/0", forge_env.ann), 422, "between 1 and 2")
    assert_error(forge_env.call("PATCH", "/issues/1/pin/-1", forge_env.ann), 422, "between 1 and 2")
    assert_error(forge_env.call("PATCH", "/issues/1/pin/first", forge_env.ann), 422, "integer")
    assert_error(forge_env.call("PATCH", "/issues/3/pin/1", forge_env.ann), 422, "not pinned")
    assert_error(forge_env.call("PATCH", "/issues/9/pin/1", forge_env.ann), 404)
    assert _pinned(forge_env) == [(1, 1), (2, 2)]


def test_only_repository_admins_pin_and_readers_list(forge_env: Forge) -> None:
    forge_env.issue()
    assert_error(forge_env.call("POST", "/issues/1/pin"), 401)
    assert_error(forge_env.call("POST", "/issues/1/pin", forge_env.bob), 403)
    assert_error(forge_env.call("POST", "/issues/7/pin", forge_env.ann), 404)
    forge_env.ok("POST", "/issues/1/pin", forge_env.ann, 204)
    assert_error(forge_env.call("DELETE", "/issues/1/pin", forge_env.bob), 403)
    assert_error(forge_env.call("PATCH", "/issues/1/pin/1", forge_env.bob), 403)
    assert [item["number"] for item in forge_env.ok("GET", "/issues/pinned", None, 200)] == [1]
    assert forge_env.ok("GET", "/new_pin_allowed", None, 200) == {"issues": True, "pull_requests": True}


def test_pull_requests_have_their_own_positions(forge_env: Forge) -> None:
    forge_env.issue()
    forge_env.commit("a.txt", "a\n")
    forge_env.commit("a.txt", "b\n", new_branch="feature")
    forge_env.ok("POST", "/pulls", forge_env.ann, 201, json={"head": "feature", "base": "main", "title": "Pull"})
    forge_env.ok("POST", "/issues/1/pin", forge_env.ann, 204)
    forge_env.ok("POST", "/issues/2/pin", forge_env.ann, 204)
    assert _pinned(forge_env) == [(1, 1)]
    pulls: list[dict[str, Any]] = forge_env.ok("GET", "/pulls/pinned", None, 200)
    assert [(pull["number"], pull["pin_order"], "head" in pull) for pull in pulls] == [(2, 1, True)]
    assert forge_env.ok("GET", "/pulls/2", None, 200)["pin_order"] == 1
    forge_env.ok("DELETE", "/issues/1/pin", forge_env.ann, 204)
    assert forge_env.ok("GET", "/pulls/2", None, 200)["pin_order"] == 1


def test_the_limit_is_configurable(tmp_path: Path, admin_headers: dict[str, str]) -> None:
    assert build_parser().parse_args(["--max-pinned-issues", "1"]).max_pinned_issues == 1
    token = admin_headers["Authorization"].removeprefix("token ")
    limits = Limits(max_pinned_issues=1)
    config = Config(data_dir=tmp_path / "d", base_url="http://forge.test/", admin_token=token, limits=limits)
    app: Flask = create_app(config)
    forge = Forge(app.test_client(), admin_headers)
    forge.issue("one")
    forge.issue("two")
    forge.ok("POST", "/issues/1/pin", forge.ann, 204)
    assert forge.ok("GET", "/new_pin_allowed", None, 200)["issues"] is False
    assert_error(forge.call("POST", "/issues/2/pin", forge.ann), 422, "1 allowed")
    app.extensions["forge"].db.close()

"""A memo for pytest-bdd's step lookup, which otherwise costs milliseconds per step.

To find the definitions of a step, pytest-bdd 9 asks pytest, for every fixture name of the session
(several hundred here: every step definition is a fixture), which definitions are visible to the
scenario's node, then tries each step parser on the step's text. Profiling the suite showed that
walk to be about 6 ms per step, a fifth of the harness's CPU time. Its answer depends only on the
step (type and text), on the set of registered fixtures and on where the node sits in the tree
(visibility is decided by the node's parents; items are never fixture scopes themselves), so it is
remembered under exactly those keys: the first step of each text still asks pytest, and the rules of
scoping and overriding stay pytest-bdd's own. Nothing is cached when pytest-bdd's internals are not
the ones this was written for (the original function is then left in place).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import Any
from weakref import WeakKeyDictionary

from _pytest.fixtures import FixtureDef, FixtureManager
from _pytest.nodes import Node

__all__ = ["install", "memoized"]

Finder = Callable[..., Iterable[FixtureDef[Any]]]
_MEMOS: WeakKeyDictionary[FixtureManager, dict[tuple[Any, ...], list[FixtureDef[Any]]]] = WeakKeyDictionary()


def memoized(original: Finder, fixture_names: Callable[..., list[str]]) -> Finder:
    """``original`` (pytest-bdd's ``find_fixturedefs_for_step``) with its answers remembered."""

    def find_fixturedefs_for_step(step: Any, fixturemanager: FixtureManager, node: Node) -> list[FixtureDef[Any]]:
        scope = node.parent if node.parent is not None else node
        registered = len(fixture_names(fixturemanager=fixturemanager))
        key = (step.type, step.name, scope.nodeid, registered)
        memo = _MEMOS.setdefault(fixturemanager, {})
        found = memo.get(key)
        if found is None:
            found = list(original(step=step, fixturemanager=fixturemanager, node=node))
            memo[key] = found
        return list(found)

    find_fixturedefs_for_step.__wrapped__ = original  # type: ignore[attr-defined]
    return find_fixturedefs_for_step


def install() -> bool:
    """Put the memo in front of pytest-bdd's lookup once; False when pytest-bdd is not the expected shape."""
    try:
        scenario = importlib.import_module("pytest_bdd.scenario")  # the module, not the function of that name
        from pytest_bdd.compat import get_fixture_names
    except ImportError:
        return False
    original = getattr(scenario, "find_fixturedefs_for_step", None)
    if original is None or not callable(original):
        return False
    if hasattr(original, "__wrapped__"):
        return True
    setattr(scenario, "find_fixturedefs_for_step", memoized(original, get_fixture_names))  # noqa: B010
    return True

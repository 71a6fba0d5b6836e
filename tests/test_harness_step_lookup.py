"""The memos in front of pytest-bdd's step lookup: the same answers, the fixture walk once per scope."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from conformance.step_lookup import install, memoized


class Manager:
    """Stands in for pytest's fixture manager (the memo is kept per manager, weakly)."""


class Parser:
    """A step parser that matches texts starting with its prefix."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def is_matching(self, name: str) -> bool:
        return name.startswith(self.prefix)


def _world() -> tuple[Any, list[str], list[tuple[str, str]], dict[Any, Any]]:
    """Step definitions ``user`` (given), ``repo`` (any type) and a plain fixture ``token``."""
    defs = {name: SimpleNamespace(func=object(), name=name) for name in ("user", "repo", "token")}
    contexts = {
        defs["user"].func: SimpleNamespace(type="given", parser=Parser("a user")),
        defs["repo"].func: SimpleNamespace(type=None, parser=Parser("a repo")),
    }
    names = ["user", "repo", "token"]
    walks: list[tuple[str, str]] = []

    def getfixturedefs(fixturemanager: Any, name: str, node: Any) -> list[Any]:
        walks.append((name, node.parent.nodeid))
        return [defs[name]] if name in defs else []

    def original(step: Any, fixturemanager: Any, node: Any) -> list[Any]:
        raise AssertionError("the memo answers without the original")

    find = memoized(original, lambda fixturemanager: names, getfixturedefs, contexts)
    return find, names, walks, defs


def test_matches_follow_type_and_parser() -> None:
    find, _names, _walks, defs = _world()
    manager, node = Manager(), SimpleNamespace(parent=SimpleNamespace(nodeid="suite/test_features.py"))
    assert find(step=SimpleNamespace(type="given", name='a user "alice"'), fixturemanager=manager, node=node) == [
        defs["user"]
    ]
    assert find(step=SimpleNamespace(type="when", name='a user "alice"'), fixturemanager=manager, node=node) == []
    assert find(step=SimpleNamespace(type="then", name='a repo "app"'), fixturemanager=manager, node=node) == [
        defs["repo"]
    ]
    assert find(step=SimpleNamespace(type="given", name="nothing known"), fixturemanager=manager, node=node) == []


def test_the_fixture_walk_is_made_once_per_scope_and_registry_size() -> None:
    find, names, walks, _defs = _world()
    manager = Manager()
    module = SimpleNamespace(nodeid="suite/test_features.py")
    other = SimpleNamespace(nodeid="suite/other.py")
    for text in ('a user "alice"', 'a user "bob"', 'a repo "app"'):
        find(step=SimpleNamespace(type="given", name=text), fixturemanager=manager, node=SimpleNamespace(parent=module))
    assert len(walks) == 3, "one walk over the three names serves every text of the scope"
    find(step=SimpleNamespace(type="given", name="a user"), fixturemanager=manager, node=SimpleNamespace(parent=other))
    assert len(walks) == 6, "another scope walks again"
    names.append("later")
    find(step=SimpleNamespace(type="given", name="a user"), fixturemanager=manager, node=SimpleNamespace(parent=module))
    assert len(walks) == 10, "a newly registered fixture walks again"


def test_answers_are_copies() -> None:
    find, _names, _walks, _defs = _world()
    manager, node = Manager(), SimpleNamespace(parent=SimpleNamespace(nodeid="m"))
    step = SimpleNamespace(type="given", name="a user")
    first = find(step=step, fixturemanager=manager, node=node)
    first.clear()
    assert len(find(step=step, fixturemanager=manager, node=node)) == 1


def test_install_wraps_pytest_bdd_once() -> None:
    import importlib

    scenario = importlib.import_module("pytest_bdd.scenario")
    assert install()
    wrapped = scenario.find_fixturedefs_for_step
    assert hasattr(wrapped, "__wrapped__")
    assert install()
    assert scenario.find_fixturedefs_for_step is wrapped

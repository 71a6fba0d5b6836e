"""The memo in front of pytest-bdd's step lookup: same answers, asked once per step text and node scope."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from conformance.step_lookup import install, memoized


class Manager:
    """Stands in for pytest's fixture manager (the memo is kept per manager, weakly)."""


def test_answers_are_remembered_per_step_scope_and_registry_size() -> None:
    calls: list[tuple[str, str]] = []
    names = ["a", "b"]

    def original(step: Any, fixturemanager: Any, node: Any) -> list[Any]:
        calls.append((step.name, node.parent.nodeid))
        return [f"def of {step.name}"]

    find = memoized(original, lambda fixturemanager: names)
    manager = Manager()
    module = SimpleNamespace(nodeid="suite/test_features.py")
    other = SimpleNamespace(nodeid="suite/other.py")
    given = SimpleNamespace(type="given", name='a user "alice"')
    when = SimpleNamespace(type="when", name='a user "alice"')
    first: Any = find(step=given, fixturemanager=manager, node=SimpleNamespace(parent=module))
    second: Any = find(step=given, fixturemanager=manager, node=SimpleNamespace(parent=module))
    assert list(first) == list(second) == ['def of a user "alice"']
    assert len(calls) == 1, "the second item of the same module is answered from the memo"
    find(step=when, fixturemanager=manager, node=SimpleNamespace(parent=module))
    find(step=given, fixturemanager=manager, node=SimpleNamespace(parent=other))
    assert len(calls) == 3, "another step type or another scope asks again"
    names.append("c")
    find(step=given, fixturemanager=manager, node=SimpleNamespace(parent=module))
    assert len(calls) == 4, "a newly registered fixture asks again"


def test_install_wraps_pytest_bdd_once() -> None:
    import importlib

    scenario = importlib.import_module("pytest_bdd.scenario")
    assert install()
    wrapped = scenario.find_fixturedefs_for_step
    assert hasattr(wrapped, "__wrapped__")
    assert install()
    assert scenario.find_fixturedefs_for_step is wrapped

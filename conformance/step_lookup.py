"""A memo for pytest-bdd's step lookup, which otherwise costs milliseconds per step.

To find the definitions of a step, pytest-bdd 9 asks pytest, for every fixture name of the session
(several hundred here: every step definition is a fixture), which definitions are visible to the
scenario's node, then tries each step parser on the step's text. Profiling the suite showed that
walk to be about 6 ms per step, a fifth of the harness's CPU time, and most step texts are new
(they carry names and values), so remembering answers per text alone still left most of it.

Two answers are remembered instead. The step definitions visible to a node depend only on the set
of registered fixtures and on where the node sits in the tree (visibility is decided by the node's
parents; items are never fixture scopes themselves), so pytest's answer for each name is kept per
scope and registry size, in pytest-bdd's order. The definitions matching a text are then found by
the same test pytest-bdd makes (the step type, then the definition's parser, tried only when the text
starts with the literal start of the definition's pattern and holds each of its other literal pieces;
definitions are grouped by that start, so most are never looked at), and kept per text. The
registry's size is read from pytest's own tables, not by listing every fixture name again for each
step (a millisecond each time).
Scoping and overriding stay pytest's and pytest-bdd's own (pytest-bdd still orders and injects the
definitions returned). Nothing is replaced when pytest-bdd's internals are not the ones this was
written for (the original function is then left in place).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from weakref import WeakKeyDictionary

from _pytest.fixtures import FixtureDef, FixtureManager
from _pytest.nodes import Node

__all__ = ["CandidateIndex", "install", "literal_pieces", "memoized", "registry_size"]

Finder = Callable[..., Iterable[FixtureDef[Any]]]
Definitions = Callable[..., Iterable[FixtureDef[Any]] | None]
Candidate = tuple[FixtureDef[Any], Any, str, tuple[str, ...]]
"""A visible step definition, its pytest-bdd context (type and parser), and the literal start and other
literal pieces of its text."""


_FIELD = re.compile(r"\{[^{}]*\}")


def literal_pieces(parser: Any) -> tuple[str, tuple[str, ...]]:
    """What every step the parser matches holds, lower-cased (``parse`` matches without regard to case): the
    text it starts with (the format up to its first field) and the other literal pieces between fields,
    longest first; nothing when unknown (another kind of parser, an escaped brace)."""
    text = getattr(parser, "name", None)
    if not isinstance(text, str) or getattr(parser, "parser", None) is None or "{{" in text or "}}" in text:
        return "", ()
    first, *rest = _FIELD.split(text.lower())
    return first, tuple(sorted({piece for piece in rest if piece}, key=len, reverse=True))


def registry_size(fixturemanager: FixtureManager, fixture_names: Callable[..., list[str]]) -> tuple[int, ...]:
    """A key that changes whenever a fixture name is registered or removed: the sizes of pytest's name
    tables (pytest 9.2 keeps two), or, where they are not there, the number of names listed."""
    tables = [getattr(fixturemanager, name, None) for name in ("_arg2node2fixturedefs", "_arg2nodeid2fixturedefs")]
    if all(isinstance(table, dict) for table in tables):
        return tuple(len(table) for table in tables)  # type: ignore[arg-type]
    return (len(fixture_names(fixturemanager=fixturemanager)),)


class CandidateIndex:
    """The visible definitions of a scope, grouped by their literal start, so a text is tried only against
    the definitions whose start it begins with (one look-up per distinct length of start), not against all."""

    def __init__(self, candidates: list[Candidate]) -> None:
        self.by_start: dict[str, list[tuple[int, Candidate]]] = {}
        for position, candidate in enumerate(candidates):
            self.by_start.setdefault(candidate[2], []).append((position, candidate))
        self.lengths = sorted({len(start) for start in self.by_start})

    def fitting(self, text: str) -> list[Candidate]:
        """The definitions whose literal start begins ``text`` (lower-cased), in pytest-bdd's order."""
        found: list[tuple[int, Candidate]] = []
        for length in self.lengths:
            if length > len(text):
                break
            found += self.by_start.get(text[:length], ())
        found.sort(key=lambda item: item[0])
        return [candidate for _, candidate in found]


class _Memo:
    """What one fixture manager's session has already asked."""

    def __init__(self) -> None:
        self.candidates: dict[tuple[str, tuple[int, ...]], CandidateIndex] = {}
        self.matches: dict[tuple[str, str, str, tuple[int, ...]], list[FixtureDef[Any]]] = {}


_MEMOS: WeakKeyDictionary[FixtureManager, _Memo] = WeakKeyDictionary()


def memoized(
    original: Finder,
    fixture_names: Callable[..., list[str]],
    getfixturedefs: Definitions,
    contexts: Mapping[Any, Any],
) -> Finder:
    """``original`` (pytest-bdd's ``find_fixturedefs_for_step``) answered from the two memos.

    ``getfixturedefs`` is pytest-bdd's bridge to pytest's visibility rules and ``contexts`` its
    registry of step definitions (function to type and parser).
    """

    def visible_definitions(fixturemanager: FixtureManager, node: Node) -> list[Candidate]:
        found: list[Candidate] = []
        for name in fixture_names(fixturemanager=fixturemanager):
            for fixturedef in getfixturedefs(fixturemanager, name, node) or []:
                context = contexts.get(fixturedef.func)
                if context is not None:
                    found.append((fixturedef, context, *literal_pieces(context.parser)))
        return found

    def find_fixturedefs_for_step(step: Any, fixturemanager: FixtureManager, node: Node) -> list[FixtureDef[Any]]:
        scope = (node.parent if node.parent is not None else node).nodeid
        size = registry_size(fixturemanager, fixture_names)
        memo = _MEMOS.get(fixturemanager)
        if memo is None:
            memo = _MEMOS[fixturemanager] = _Memo()
        key = (step.type, step.name, scope, size)
        found = memo.matches.get(key)
        if found is None:
            index = memo.candidates.get((scope, size))
            if index is None:
                index = memo.candidates[scope, size] = CandidateIndex(visible_definitions(fixturemanager, node))
            text = step.name.lower()
            found = memo.matches[key] = [
                fixturedef
                for fixturedef, context, _start, pieces in index.fitting(text)
                if (context.type is None or context.type == step.type)
                and all(piece in text for piece in pieces)  # cheap refusals before the parser's regular expression
                and context.parser.is_matching(step.name)
            ]
        return list(found)

    find_fixturedefs_for_step.__wrapped__ = original  # type: ignore[attr-defined]
    return find_fixturedefs_for_step


def install() -> bool:
    """Put the memo in front of pytest-bdd's lookup once; False when pytest-bdd is not the expected shape."""
    try:
        scenario = importlib.import_module("pytest_bdd.scenario")  # the module, not the function of that name
        from pytest_bdd.compat import get_fixture_names, getfixturedefs  # noqa: PLC0415 - guarded: internals
        from pytest_bdd.steps import step_function_context_registry  # noqa: PLC0415 - guarded: internals
    except ImportError:
        return False
    original = getattr(scenario, "find_fixturedefs_for_step", None)
    if original is None or not callable(original):
        return False
    if hasattr(original, "__wrapped__"):
        return True
    replacement = memoized(original, get_fixture_names, getfixturedefs, step_function_context_registry)
    setattr(scenario, "find_fixturedefs_for_step", replacement)  # noqa: B010
    return True

"""The memos in front of pytest-bdd's step lookup: the same answers, the fixture walk once per scope."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from pytest_bdd import parsers

from conformance.step_lookup import CandidateIndex, install, literal_pieces, memoized, registry_size


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


def test_literal_pieces_are_the_start_and_the_other_literals_of_a_parse_format() -> None:
    parser = parsers.parse('The user "{name}" owns {count:d} repositories')
    assert literal_pieces(parser) == ('the user "', (" repositories", '" owns ')), "longest first"
    assert literal_pieces(parsers.parse("{actor} deletes it")) == ("", (" deletes it",))
    assert literal_pieces(parsers.parse("braces {{ stay }} {x}")) == ("", ()), "escaped braces: no pieces"
    assert literal_pieces(parsers.re(r"a (?P<x>\d+)")) == ("", ()), "a regular expression has no pieces"


class CountingParser:
    """A ``parse`` step parser that counts how often its regular expression is tried."""

    def __init__(self, text: str) -> None:
        self.real = parsers.parse(text)
        self.name, self.parser = self.real.name, self.real.parser
        self.tries = 0

    def is_matching(self, name: str) -> bool:
        self.tries += 1
        return self.real.is_matching(name)


def test_a_text_missing_a_literal_piece_is_refused_before_the_regular_expression() -> None:
    parser = CountingParser("{actor} archives the repository {name}")
    definition = SimpleNamespace(func=object(), name="archive")
    contexts = {definition.func: SimpleNamespace(type=None, parser=parser)}
    find = memoized(
        lambda *args, **kwargs: [], lambda fixturemanager: ["archive"], lambda *args: [definition], contexts
    )
    node = SimpleNamespace(parent=SimpleNamespace(nodeid="m"))

    def matches(text: str) -> list[Any]:
        return list(find(step=SimpleNamespace(type="when", name=text), fixturemanager=Manager(), node=node))

    assert matches('alice deletes the repository "app"') == []
    assert parser.tries == 0
    assert matches('alice ARCHIVES the repository "app"') == [definition]
    assert parser.tries == 1


def test_the_registry_size_comes_from_pytests_tables_when_they_are_there() -> None:
    manager = SimpleNamespace(_arg2node2fixturedefs={"a": {}, "b": {}}, _arg2nodeid2fixturedefs={"c": {}})
    listed: list[int] = []

    def names(fixturemanager: Any) -> list[str]:
        listed.append(1)
        return ["a", "b", "c"]

    assert registry_size(manager, names) == (2, 1)  # type: ignore[arg-type]
    manager._arg2node2fixturedefs["d"] = {}
    assert registry_size(manager, names) == (3, 1)  # type: ignore[arg-type]
    assert listed == [], "no listing of every name"
    assert registry_size(Manager(), names) == (3,)  # type: ignore[arg-type]


def test_the_index_offers_a_text_only_the_definitions_it_starts_with_in_their_order() -> None:
    starts = ["a user ", '"', "a repository ", "the ", "a user with ", "", "a user "]
    candidates: list[Any] = [(f"def{number}", None, start, ()) for number, start in enumerate(starts)]
    index = CandidateIndex(candidates)
    assert [str(candidate[0]) for candidate in index.fitting('a user "alice" exists')] == ["def0", "def5", "def6"]
    assert [str(candidate[0]) for candidate in index.fitting("a user with a key")] == ["def0", "def4", "def5", "def6"]
    assert [str(candidate[0]) for candidate in index.fitting('"alice" opens')] == ["def1", "def5"]
    assert [str(candidate[0]) for candidate in index.fitting("")] == ["def5"]

"""``endpoints.LazyBuildRule`` compiles URL builders on first use: every route of the app builds the same URLs,
with and without unknown arguments, as werkzeug's own rule compiled when added."""

from __future__ import annotations

from flask import Flask
from werkzeug.routing import AnyConverter, BaseConverter, Map, Rule
from werkzeug.routing.converters import NumberConverter

from reference_server.endpoints import LazyBuildRule


def _value(converter: BaseConverter | None, name: str) -> object:
    """A value the argument's converter accepts: a number, one of an ``any`` converter's items, or a name."""
    if isinstance(converter, NumberConverter):
        return 7
    if isinstance(converter, AnyConverter):
        return sorted(converter.items)[0]
    return f"v-{name}"


def _values(rule: Rule) -> dict[str, object]:
    return {name: _value(rule._converters.get(name), name) for name in rule.arguments}


def test_every_route_builds_as_werkzeug_builds(app: Flask) -> None:
    rules = [rule for rule in app.url_map.iter_rules() if rule.endpoint != "static"]  # Flask's own, made first
    assert rules and all(isinstance(rule, LazyBuildRule) for rule in rules)
    eager = Map([Rule(rule.rule, endpoint=rule.endpoint, methods=rule.methods) for rule in rules])
    eager.converters.update(app.url_map.converters)
    lazy_adapter, eager_adapter = app.url_map.bind("forge.test"), eager.bind("forge.test")
    for rule in rules:
        values = _values(rule)
        for extra in ({}, {"page": "2"}):  # the second builds with an argument the rule does not name
            wanted = eager_adapter.build(rule.endpoint, {**values, **extra}, method=next(iter(rule.methods or ())))
            found = lazy_adapter.build(rule.endpoint, {**values, **extra}, method=next(iter(rule.methods or ())))
            assert found == wanted, f"{rule.endpoint}: {found} != {wanted}"


def test_the_builder_is_compiled_once_then_kept(app: Flask) -> None:
    rule = next(app.url_map.iter_rules("repoGet"))
    before = rule._build_unknown
    app.url_map.bind("forge.test").build("repoGet", {"owner": "o", "repo": "r", "x": "1"})
    compiled = rule._build_unknown
    assert compiled is not before
    app.url_map.bind("forge.test").build("repoGet", {"owner": "o", "repo": "r", "x": "2"})
    assert rule._build_unknown is compiled

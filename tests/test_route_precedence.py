"""A literal path segment wins over a parameter: ``/repos/issues/search`` is the issue search, never the
repository ``issues/search``; ``/users/search`` is the user search, never the account ``search``."""

from __future__ import annotations

import re

from flask import Flask
from werkzeug.routing import Rule

SAMPLES = {"int": "7", "path": "sample/file.txt"}
PARAMETER = re.compile(r"<(?:(\w+)(?:\(([^)]*)\))?:)?(\w+)>")


def _sample(match: re.Match[str]) -> str:
    converter, arguments = match.group(1) or "", match.group(2) or ""
    if converter == "any":
        return arguments.split(",")[0].strip().strip("\"'")
    return SAMPLES.get(converter, "sample")


def _sample_path(rule: Rule) -> str:
    """The rule's path with every parameter filled by a value no literal segment uses (an ``any`` by its first)."""
    return PARAMETER.sub(_sample, rule.rule)


def _literal_rules(app: Flask) -> list[Rule]:
    """Every rule with a literal segment: a static one, or one after its first parameter."""
    found = []
    for rule in app.url_map.iter_rules():
        first = rule.rule.find("<")
        tail = rule.rule[first:] if first >= 0 else rule.rule
        if PARAMETER.sub("", tail).strip("/"):
            found.append(rule)
    return found


def test_every_route_with_literal_segments_is_reached_by_its_own_path(app: Flask) -> None:
    adapter = app.url_map.bind("reference.test")
    wrong = []
    for rule in _literal_rules(app):
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            matched, _ = adapter.match(_sample_path(rule), method=method)
            if matched != rule.endpoint:
                wrong.append(f"{method} {rule.rule} -> {matched}")
    assert not wrong, "\n".join(wrong)


def test_the_search_routes_are_not_taken_for_a_repository_or_an_account(app: Flask) -> None:
    adapter = app.url_map.bind("reference.test")
    assert adapter.match("/api/v1/repos/issues/search", method="GET")[0] == "issueSearchIssues"
    assert adapter.match("/api/v1/repos/search", method="GET")[0] == "repoSearch"
    assert adapter.match("/api/v1/repos/issues/other", method="GET")[0] == "repoGet"

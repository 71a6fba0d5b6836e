"""Helpers of the shared vocabulary: field paths, scopes, bodies, and the generic request step."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from conformance.api import ForgeApi
from conformance.client import HttpClient
from conformance.context import ScenarioContext
from steps.common import field_value, parse_scopes, when_admin_sends_body
from steps.parsing import phrase


def test_field_paths_walk_objects_and_arrays() -> None:
    document = {"owner": {"login": "a"}, "items": [{"name": "x"}, {"name": "y"}]}
    assert field_value(document, "owner.login") == "a"
    assert field_value(document, "items.1.name") == "y"
    with pytest.raises(AssertionError, match=r'no field "items\.2"'):
        field_value(document, "items.2.name")
    with pytest.raises(AssertionError, match=r'no field "owner\.email"'):
        field_value(document, "owner.email")


def test_scopes_are_split_on_commas_and_trimmed() -> None:
    assert parse_scopes("read:user, write:repository ,") == ["read:user", "write:repository"]


def test_number_literal_and_text_steps_do_not_overlap() -> None:
    text = phrase('the response field "{path}" is "{expected}"')
    number = phrase('the response field "{path}" is {expected:d}')
    assert number.is_matching('the response field "size" is 12')
    assert not text.is_matching('the response field "size" is 12')
    assert not number.is_matching('the response field "size" is "12"')


def test_a_request_body_that_is_not_json_is_a_clear_step_error() -> None:
    ctx = ScenarioContext("ckabc123", 1, ForgeApi(HttpClient("http://127.0.0.1:9/api/v1/"), "http://127.0.0.1:9/"))
    with pytest.raises(AssertionError, match="not valid JSON"):
        when_admin_sends_body(ctx, "POST", "/orgs", "{not json")


def test_no_response_yet_is_a_clear_step_error() -> None:
    ctx = ScenarioContext("ckabc123", 1, ForgeApi(HttpClient("http://forge.test/api/v1/"), "http://forge.test/"))
    with pytest.raises(AssertionError, match="a When step must come first"):
        ctx.last_response()


def _step_sentences() -> list[tuple[str, str, str]]:
    """(kind, sentence with its field names blanked, where) of every ``@given/@when/@then`` in ``steps/``.

    Field types stay (``{:d}`` and ``{:JsonLiteral}`` are different sentences); the names do not matter.
    """
    found = []
    for path in sorted((Path(__file__).resolve().parents[1] / "steps").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for decorator in node.decorator_list:
                if not (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Name) and decorator.args):
                    continue
                if decorator.func.id not in ("given", "when", "then"):
                    continue
                text = decorator.args[0]
                if isinstance(text, ast.Call) and text.args:
                    text = text.args[0]
                if isinstance(text, ast.Constant) and isinstance(text.value, str):
                    sentence = re.sub(
                        r"\{\w*(:[^{}]*)?\}", lambda field: "{" + (field.group(1) or "") + "}", text.value
                    )
                    found.append((decorator.func.id, sentence, f"{path.name}:{node.lineno} {node.name}"))
    return found


def test_no_two_step_definitions_share_a_sentence() -> None:
    """Two libraries defining the same sentence (fields named differently) silently shadow each other."""
    seen: dict[tuple[str, str], str] = {}
    clashes = []
    for kind, sentence, where in _step_sentences():
        if (kind, sentence) in seen:
            clashes.append(f"@{kind} {sentence!r}: {seen[(kind, sentence)]} and {where}")
        seen.setdefault((kind, sentence), where)
    assert len(seen) > 500, "the step libraries were not read"
    assert not clashes, "step sentences defined twice:\n" + "\n".join(clashes)

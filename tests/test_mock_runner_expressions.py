"""The expression subset: contexts, operators, status functions and ``if:`` defaults."""

from __future__ import annotations

from typing import Any

import pytest

from mock_runner.expressions import Evaluator, ExpressionError

CONTEXTS: dict[str, Any] = {
    "github": {"ref": "refs/heads/main", "event_name": "push", "event": {"inputs": {"level": "3"}}},
    "secrets": {"API_KEY": "s3cret"},
    "vars": {"MODE": "fast"},
    "env": {"NAME": "World"},
    "needs": {"build": {"result": "success", "outputs": {"version": "1.2"}}},
    "steps": {"s1": {"outputs": {"value": "42"}, "outcome": "success"}},
    "inputs": {"flag": True},
    "matrix": {"os": "linux"},
}


def evaluator(status: str = "success") -> Evaluator:
    return Evaluator(CONTEXTS, lambda: status)


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("github.ref", "refs/heads/main"),
        ("secrets.API_KEY", "s3cret"),
        ("secrets['API_KEY']", "s3cret"),
        ("vars.mode", "fast"),
        ("needs.build.outputs.version", "1.2"),
        ("steps.s1.outputs.value == 42", True),
        ("github.event.inputs.level > 2", True),
        ("github.event_name == 'PUSH'", True),
        ("github.event_name != 'push'", False),
        ("!inputs.flag", False),
        ("steps.missing.outputs.x", None),
        ("vars.NONE || 'default'", "default"),
        ("vars.MODE && 'yes'", "yes"),
        ("contains(github.ref, 'main')", True),
        ("startsWith(github.ref, 'refs/heads/')", True),
        ("endsWith(github.ref, 'dev')", False),
        ("format('{0}-{1}', matrix.os, 'x')", "linux-x"),
        ("fromJSON('[1,2]')[1]", 2),
        ("(1 < 2) && (3 >= 3)", True),
        ("'it''s'", "it's"),
        ("null", None),
    ],
)
def test_values(expression: str, value: Any) -> None:
    assert evaluator().evaluate(expression) == value


def test_interpolation_replaces_each_expression() -> None:
    text = "Hello ${{ env.NAME }}, ${{ needs.build.result }} ${{ inputs.flag }}!"
    assert evaluator().interpolate(text) == "Hello World, success true!"


@pytest.mark.parametrize(
    ("condition", "status", "runs"),
    [
        (None, "success", True),
        (None, "failure", False),
        ("always()", "failure", True),
        ("failure()", "failure", True),
        ("failure()", "success", False),
        ("success()", "failure", False),
        ("cancelled()", "cancelled", True),
        ("${{ github.event_name == 'push' }}", "success", True),
        ("github.event_name == 'push'", "failure", False),
        ("always() && vars.MODE == 'slow'", "failure", False),
        (True, "success", True),
        (False, "success", False),
    ],
)
def test_if_conditions(condition: Any, status: str, runs: bool) -> None:
    assert evaluator(status).condition(condition) is runs


@pytest.mark.parametrize(
    "expression",
    ["unknown.context", "hashFiles('x')", "1 +", "(github.ref", "success(1)", "'open", "${{"],
)
def test_bad_expressions_raise(expression: str) -> None:
    with pytest.raises(ExpressionError):
        evaluator().evaluate(expression)


def test_unterminated_interpolation_raises() -> None:
    with pytest.raises(ExpressionError, match="unterminated"):
        evaluator().interpolate("echo ${{ github.ref")

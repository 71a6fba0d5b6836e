"""The step vocabulary against every feature: each step has exactly one definition, written one way.

pytest-bdd silently takes the last definition registered when a step text matches several, so a
sentence added to one area can quietly change what a step of another area does; these tests make
both the gap (no definition) and the overlap (two definitions) a failure that names the steps.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd.parser import FeatureParser, Step
from pytest_bdd.steps import StepFunctionContext, step_function_context_registry

import steps
from conformance.paths import FEATURES_DIR
from steps.parsing import Phrase

STEP_MODULES = sorted(module.name for module in pkgutil.iter_modules(steps.__path__))
KIT_ROOT = Path(__file__).resolve().parents[1]
STEP_EXTRAS = frozenset({"docstring", "datatable"})
PYTEST_FIXTURES = frozenset({"request", "tmp_path", "pytestconfig"})


def _definitions() -> list[StepFunctionContext]:
    """Every step definition of ``steps/`` (importing a module registers its definitions)."""
    for name in STEP_MODULES:
        importlib.import_module(f"steps.{name}")
    found = [context for context in list(step_function_context_registry.values()) if _is_kit_step(context)]
    assert len(found) > 500, "the step libraries were not loaded"
    return found


def _is_kit_step(context: StepFunctionContext) -> bool:
    return str(getattr(context.step_func, "__module__", "")).startswith("steps.")


def _where(context: StepFunctionContext) -> str:
    code = getattr(context.step_func, "__code__", None)
    line = code.co_firstlineno if code is not None else 0
    return f"{context.step_func.__module__}:{line} {context.step_func.__name__} ({context.type})"


def _feature_steps() -> Iterator[tuple[str, Step]]:
    """(where, step) for every step of every feature, Scenario Outlines once per example row."""
    for path in sorted(FEATURES_DIR.rglob("*.feature")):
        feature = FeatureParser(str(path.parent), path.name).parse()
        for name, template in feature.scenarios.items():
            contexts: list[dict[str, Any]] = [
                row for examples in template.examples for row in examples.as_contexts()
            ] or [{}]
            for context in contexts:
                for step in template.render(context).steps:
                    yield f"{path.relative_to(FEATURES_DIR)}:{step.line_number} ({name})", step


def _matches(step: Step, definitions: list[StepFunctionContext]) -> list[StepFunctionContext]:
    return [
        context
        for context in definitions
        if context.type in (None, step.type) and context.parser.is_matching(step.name)
    ]


@pytest.fixture(scope="module")
def matched() -> list[tuple[str, Step, list[StepFunctionContext]]]:
    """Each feature step with the definitions that match it."""
    definitions = _definitions()
    found: dict[tuple[str, str], list[StepFunctionContext]] = {}  # a sentence recurs ~3 times: match it once
    matched = []
    for where, step in _feature_steps():
        key = (step.type, step.name)
        if key not in found:
            found[key] = _matches(step, definitions)
        matched.append((where, step, found[key]))
    return matched


def test_every_feature_step_has_a_definition(matched: list[tuple[str, Step, list[StepFunctionContext]]]) -> None:
    """A step no library defines fails its scenario at run time; here it fails before."""
    missing = [f"{where}: {step.type} {step.name!r}" for where, step, found in matched if not found]
    assert len(matched) > 5000, "the features were not read"
    assert not missing, f"{len(missing)} feature steps match no step definition:\n" + "\n".join(missing[:50])


def test_no_feature_step_matches_two_definitions(
    matched: list[tuple[str, Step, list[StepFunctionContext]]],
) -> None:
    """pytest-bdd would pick one of them silently; the sentence must say which step it means."""
    ambiguous = sorted(
        {
            f"{step.type} {step.name!r} ({where}) matches " + " and ".join(_where(context) for context in found)
            for where, step, found in matched
            if len(found) > 1
        }
    )
    assert not ambiguous, f"{len(ambiguous)} feature steps match several definitions:\n" + "\n".join(ambiguous[:50])


def test_every_step_definition_is_a_phrase() -> None:
    """One way to write step text (``steps.parsing.phrase``): no regex, no bare string, no other helper."""
    others = [_where(context) for context in _definitions() if not isinstance(context.parser, Phrase)]
    assert not others, "step definitions not written with phrase():\n" + "\n".join(others)


def _fixture_names() -> set[str]:
    """The fixtures a step may ask for: pytest's own, the conformance plugin's and the step libraries'."""
    names = set(PYTEST_FIXTURES)
    sources = [*sorted((KIT_ROOT / "steps").glob("*.py")), KIT_ROOT / "conformance" / "plugin.py"]
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any("fixture" in ast.unparse(d) for d in node.decorator_list):
                names.add(node.name)
    return names


def test_every_step_argument_comes_from_its_sentence_or_a_fixture() -> None:
    """pytest-bdd fills parameters from the sentence's fields, then from fixtures; a fixture declared
    keyword-only, or a field no parameter takes, is silently dropped instead of failing."""
    fixtures = _fixture_names()
    problems: set[str] = set()
    for context in _definitions():
        assert isinstance(context.parser, Phrase), _where(context)
        fields = set(context.parser.parser.named_fields)
        parameters = inspect.signature(context.step_func).parameters
        for parameter in parameters.values():
            if parameter.kind == parameter.KEYWORD_ONLY and parameter.name not in fields | STEP_EXTRAS:
                problems.add(f"{_where(context)}: keyword-only {parameter.name!r} is not a field of its sentence")
            required = parameter.kind == parameter.POSITIONAL_OR_KEYWORD and parameter.default is parameter.empty
            if required and parameter.name not in fields | fixtures | STEP_EXTRAS:
                problems.add(f"{_where(context)}: {parameter.name!r} is neither a field nor a fixture")
        problems |= {f"{_where(context)}: the field {name!r} has no parameter" for name in fields - set(parameters)}
    assert not problems, "\n".join(sorted(problems))

"""Matrix strategies: one job per combination, as Gitea expands them before runners see a job.

Each combination keeps the job's key (so ``needs`` waits for all of them), gets a name like
``build (linux, 3.11)`` (values in key order, as Gitea), ``${{ matrix.x }}`` substituted in its name and
``runs-on``, and a payload whose ``strategy.matrix`` holds that one combination (one-element lists).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from typing import Any

__all__ = [
    "MAX_COMBINATIONS",
    "MatrixError",
    "expand_matrix",
    "matrix_job_name",
    "matrix_value_text",
    "substitute_matrix",
]

MAX_COMBINATIONS = 256
"""GitHub's limit of jobs a matrix may generate; more is refused as an invalid workflow."""
_REFERENCE = re.compile(r"\$\{\{\s*matrix\.([A-Za-z0-9_-]+)\s*\}\}")


class MatrixError(ValueError):
    """The matrix cannot be expanded (wrong shape, or too many combinations)."""


def matrix_value_text(value: Any) -> str:
    """A matrix value as text in names and labels (booleans as ``true``/``false``, as Go prints them)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def substitute_matrix(text: str, combination: Mapping[str, Any]) -> str:
    """Replace ``${{ matrix.key }}`` with the combination's value (unknown keys become empty, as in Actions)."""
    return _REFERENCE.sub(lambda match: matrix_value_text(combination.get(match.group(1), "")), text)


def _entries(raw: Any, field: str) -> list[dict[str, Any]]:
    if raw is None:
        return []
    if not isinstance(raw, list) or not all(isinstance(item, dict) for item in raw):
        raise MatrixError(f"matrix {field} must be a list of mappings")
    return [{str(k): v for k, v in item.items()} for item in raw]


def _apply_includes(combinations: list[dict[str, Any]], includes: list[dict[str, Any]], base: set[str]) -> None:
    """GitHub's rule: an include extends every combination whose original values it does not change;
    when it extends none, it becomes a combination of its own (whose values are then all original)."""
    protected = [{key: value for key, value in combination.items() if key in base} for combination in combinations]
    for include in includes:
        extended = False
        for original, combination in zip(protected, combinations, strict=True):
            if all(original[key] == value for key, value in include.items() if key in original):
                combination.update({key: value for key, value in include.items() if key not in original})
                extended = True
        if not extended:
            combinations.append(dict(include))
            protected.append(dict(include))


def expand_matrix(raw: Any) -> list[dict[str, Any]]:
    """The combinations of a ``strategy.matrix`` (an empty list when the job has no matrix)."""
    if raw is None:
        return []
    if not isinstance(raw, dict):
        raise MatrixError("strategy.matrix must be a mapping")
    base = {str(key): value for key, value in raw.items() if key not in ("include", "exclude")}
    axes = {key: (value if isinstance(value, list) else [value]) for key, value in base.items()}
    if any(not values for values in axes.values()):
        raise MatrixError("a matrix key has no values")
    combinations = (
        [dict(zip(axes, values, strict=True)) for values in itertools.product(*axes.values())] if axes else []
    )
    for exclude in _entries(raw.get("exclude"), "exclude"):
        combinations = [c for c in combinations if not all(c.get(k) == v for k, v in exclude.items())]
    _apply_includes(combinations, _entries(raw.get("include"), "include"), set(axes))
    if len(combinations) > MAX_COMBINATIONS:
        raise MatrixError(f"the matrix makes {len(combinations)} jobs, more than {MAX_COMBINATIONS}")
    return combinations


def matrix_job_name(name: str, combination: Mapping[str, Any]) -> str:
    """``name (v1, v2)`` with values in key order, or the name with its matrix references substituted."""
    if "${{" in name and "}}" in name:
        return substitute_matrix(name, combination)
    values = ", ".join(matrix_value_text(combination[key]) for key in sorted(combination))
    return f"{name} ({values})"

"""The operation lists shipped in ``conformance/data`` are current, and the harness never imports the
reference server (it speaks HTTP only; ``conformance/data/generate.py`` is the build tool that may)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from conformance.operations import REFERENCE_FILE, load_operations
from conformance.schemas import schema_names

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = ROOT / "conformance" / "data" / "generate.py"


def test_regenerating_the_operation_lists_changes_nothing() -> None:
    result = subprocess.run([sys.executable, str(GENERATOR), "--check"], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_the_harness_does_not_import_the_reference_server() -> None:
    importing = []
    for path in sorted((ROOT / "conformance").rglob("*.py")):
        if path == GENERATOR:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            if any(name == "reference_server" or name.startswith("reference_server.") for name in names):
                importing.append(str(path.relative_to(ROOT)))
    assert not importing, f"harness modules importing reference_server: {importing}"


def test_every_reference_operation_declares_its_success_answer_with_existing_schemas() -> None:
    """The contract check validates answers against these: an operation without one would go unchecked."""
    listed = load_operations(REFERENCE_FILE)
    undeclared = [
        f"{method} {path} ({operation_id})"
        for method, path, operation_id, _ in listed.rows
        if operation_id not in listed.answers
    ]
    assert not undeclared, f"operations the reference serves without a declared success answer: {undeclared}"
    missing = sorted({name for answer in listed.answers.values() for name in answer.schemas} - set(schema_names()))
    assert not missing, f"declared answers name schemas that do not exist: {missing}"
    assert all(200 <= answer.status < 400 for answer in listed.answers.values())

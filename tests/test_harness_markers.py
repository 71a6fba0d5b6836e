"""Markers: every area, source and clause tag is registered, so --strict-markers catches a mistyped tag."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conformance.capabilities import missing_capability, required_capabilities, unsupported_reason
from conformance.clauses import load_catalogue

FEATURE = """\
@api_description
Feature: Marker check
  @gitea {extra_tag}
  Scenario: A scenario
    When an anonymous client fetches the server version
    Then the response status is 200
"""

CONFTEST = 'pytest_plugins = ["conformance.plugin", "steps.common", "steps.api_description"]\n'
BINDING = (
    "from pathlib import Path\nfrom pytest_bdd import scenarios\n\n"
    'scenarios(str(Path(__file__).parent / "check.feature"))\n'
)


def _collect(tmp_path: Path, extra_tag: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "check.feature").write_text(FEATURE.format(extra_tag=extra_tag), encoding="utf-8")
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (tmp_path / "test_check.py").write_text(BINDING, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = --strict-markers -p no:cacheprovider\n", encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    "tag", ["@clause_S4_3_artifact_zip", "@reference_only", "@slow", "@destructive", "@clause_S2_2_name_rule"]
)
def test_catalogued_and_special_tags_are_registered(tmp_path: Path, tag: str) -> None:
    result = _collect(tmp_path, tag)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 test collected" in result.stdout


@pytest.mark.parametrize("tag", ["@clause_S4_3_artifact_zipp", "@clause_S99", "@artifact"])
def test_a_mistyped_tag_fails_the_collection(tmp_path: Path, tag: str) -> None:
    result = _collect(tmp_path, tag)
    assert result.returncode != 0
    assert f"'{tag[1:]}' not found in `markers` configuration option" in result.stdout + result.stderr


def test_pytest_lists_every_clause_marker(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "--markers"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    ).stdout
    for clause in load_catalogue().values():
        assert f"@pytest.mark.{clause.tag}:" in listed, f"{clause.tag} is not registered"
    assert "@pytest.mark.api_description:" in listed and "@pytest.mark.spec:" in listed


def test_capabilities_come_from_tags_and_decide_the_skip_reason() -> None:
    tags = {"artifacts", "capability_runner_disable", "reference_only", "spec"}
    assert required_capabilities(tags) == ["reference_clock", "runner_disable"]
    assert missing_capability(tags, lambda name: name != "runner_disable") == "runner_disable"
    assert missing_capability(tags, lambda name: True) is None
    assert unsupported_reason("runner_disable") == "unsupported: runner_disable"

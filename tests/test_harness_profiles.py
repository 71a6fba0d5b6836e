"""Profiles and expectations files: what they select, how a profile is picked, and the errors on bad files."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.expectations import ExpectationError, load_expectations, parse_expectations
from conformance.paths import FEATURES_DIR
from conformance.profiles import ProfileError, available_profiles, load_profile, pick_profile_name
from conformance.reporting import BAD_PROFILE_EXIT
from conformance.scenario_ids import feature_scenario_ids

EXPECTATIONS_DIR = Path(__file__).resolve().parent.parent / "conformance" / "expectations"


def test_the_kit_ships_the_four_profiles() -> None:
    assert {"reference", "spec", "gitea-1.26", "gitea-1.27"} <= set(available_profiles())
    reference, spec, gitea = load_profile("reference"), load_profile("spec"), load_profile("gitea-1.27")
    assert set(reference.sources) == {"spec", "gitea", "reference"}
    assert spec.sources == ("spec",)
    assert set(gitea.sources) == {"spec", "gitea"} and gitea.gitea_version == (1, 27)
    assert gitea.expectations == EXPECTATIONS_DIR / "gitea-1.27.yaml"
    assert load_profile("gitea-1.26").expectations == EXPECTATIONS_DIR / "gitea-1.26.yaml"


def test_a_profile_selects_by_source_capability_tag_and_id() -> None:
    gitea = load_profile("gitea-1.27")
    assert gitea.excludes("a/b::x", ["spec", "users"], []) is None
    assert gitea.excludes("a/b::x", ["reference", "users"], []) == (
        "disabled: profile gitea-1.27 covers only spec, gitea scenarios"
    )
    assert "capability reference_clock" in str(gitea.excludes("a/b::x", ["gitea"], ["reference_clock"]))
    assert gitea.excludes("a/b::x", ["gitea"], ["lfs"]) is None
    assert load_profile("reference").excludes("a/b::x", ["reference"], ["reference_clock"]) is None


@pytest.mark.parametrize(
    ("version", "embedded", "expected"),
    [
        ("1.27.3+reference", False, "reference"),
        ("anything", True, "reference"),
        ("1.27.1", False, "gitea-1.27"),
        ("1.28.0+dev-123-gabc", False, "gitea-1.27"),
        ("1.26.4", False, "gitea-1.26"),
        ("1.22.0", False, "gitea-1.26"),
        ("11.0.1+gitea-1.22.0", False, "gitea-1.26"),
        ("13.0.0+gitea-1.27.2", False, "gitea-1.27"),
        ("development", False, "spec"),
        ("", False, "spec"),
    ],
)
def test_a_profile_is_picked_from_the_target_version(version: str, embedded: bool, expected: str) -> None:
    assert pick_profile_name(version, embedded=embedded) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name: x\nsources: [spec\n", "is not valid YAML"),
        ("- a list\n", "must be a mapping"),
        ("name: x\nsources: [spec]\ncolour: red\n", "unknown keys: colour"),
        ("name: x\nsources: []\n", "names no sources"),
        ("name: x\nsources: [spec]\ngitea_version: one\n", "gitea_version must look like 1.27"),
        ("name: x\nsources: [spec]\nexpectations: missing.yaml\n", "does not exist"),
        ("sources: [spec]\n", "needs a name"),
    ],
)
def test_a_bad_profile_file_is_refused_with_a_clear_message(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "profile.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ProfileError, match=message):
        load_profile(str(path))


def test_an_unknown_profile_name_lists_the_shipped_ones() -> None:
    with pytest.raises(ProfileError, match=r"unknown profile 'gitea-9.9': the kit has .*gitea-1.27"):
        load_profile("gitea-9.9")


def test_a_profile_reports_the_names_it_does_not_know() -> None:
    profile = load_profile("gitea-1.27")
    known = {"deploy_tokens", "lfs", "sync_fork", "runner_disable", "artifacts_v3"}
    assert profile.unknown_names({"spec", "gitea"}, known) == []
    assert profile.unknown_names({"spec"}, {"lfs"}) == [
        "source @gitea",
        "capability deploy_tokens",
        "capability sync_fork",
        "capability runner_disable",
        "capability artifacts_v3",
    ]


def test_expectations_parse_and_match_rows() -> None:
    expectations = parse_expectations(
        {
            "expectations": [
                {"id": "runners/x::Legacy GET", "reason": "removed in 1.26", "link": "notes.md"},
                {"id": "commits/y::Headers[a-b]", "reason": "X-Total", "expires": dt.date(2000, 1, 1)},
            ]
        },
        None,
    )
    assert expectations.for_scenario("runners/x::Legacy GET[row-1]") is expectations.entries["runners/x::Legacy GET"]
    assert expectations.for_scenario("commits/y::Headers[a-c]") is None
    entry = expectations.entries["commits/y::Headers[a-b]"]
    assert entry.expired(dt.date(2000, 1, 2)) and not entry.expired(dt.date(2000, 1, 1))
    assert expectations.unknown(["runners/x::Legacy GET[r]", "commits/y::Headers[a-c]"]) == ["commits/y::Headers[a-b]"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("expectations: [\n", "is not valid YAML"),
        ("- id: a::b\n", "one key, expectations"),
        ("expectations:\n  - id: no-separator\n    reason: r\n", "must be a scenario id"),
        ("expectations:\n  - id: a::b\n", r"\(a::b\) needs a reason"),
        ("expectations:\n  - id: a::b\n    reason: r\n    expires: soon\n", "expires must be a date"),
        ("expectations:\n  - id: a::b\n    reason: r\n    owner: me\n", "unknown keys: owner"),
        ("expectations:\n  - {id: 'a::b', reason: r}\n  - {id: 'a::b', reason: s}\n", "listed twice"),
    ],
)
def test_a_bad_expectations_file_is_refused_with_a_clear_message(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "expectations.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ExpectationError, match=message):
        load_expectations(path)


def _all_scenario_ids() -> set[str]:
    return feature_scenario_ids(sorted(FEATURES_DIR.rglob("*.feature")), FEATURES_DIR)


@pytest.mark.parametrize("name", ["gitea-1.26", "gitea-1.27"])
def test_the_shipped_expectations_name_real_scenarios_with_reasons_and_links(name: str) -> None:
    expectations = load_expectations(EXPECTATIONS_DIR / f"{name}.yaml")
    assert expectations.entries, f"{name} lists the known deviations"
    assert expectations.unknown(_all_scenario_ids()) == []
    for entry in expectations.entries.values():
        assert entry.reason and entry.link, entry.id
    legacy = "runners/registration_tokens::The legacy GET still gives a registration token"
    assert legacy in expectations.entries


def _conformance(cwd: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "conformance.cli", "--report-dir", "reports", *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_bad_profile_stops_the_command_before_any_scenario(tmp_path: Path) -> None:
    profile = tmp_path / "typo.yaml"
    profile.write_text("name: typo\nsources: [spec, gitee]\n", encoding="utf-8")
    completed = _conformance(tmp_path, "--profile", str(profile), "-m", "tokens")
    assert completed.returncode == BAD_PROFILE_EXIT
    assert "profile typo names what the kit does not know: source @gitee" in completed.stderr
    assert "passed" not in completed.stdout and "failed" not in completed.stdout
    assert not (tmp_path / "reports" / "results.json").exists()


def test_expectations_naming_an_unknown_scenario_stop_the_command(tmp_path: Path) -> None:
    expectations = tmp_path / "expectations.yaml"
    expectations.write_text("expectations:\n  - id: 'tokens/nope::Nothing'\n    reason: r\n", encoding="utf-8")
    completed = _conformance(tmp_path, "--expectations", str(expectations), "-m", "tokens")
    assert completed.returncode == BAD_PROFILE_EXIT
    assert "names unknown scenarios: tokens/nope::Nothing" in completed.stdout + completed.stderr
    assert " passed" not in completed.stdout
    assert not (tmp_path / "reports" / "results.json").exists()


def test_parsed_ids_are_those_a_run_reports() -> None:
    ids = _all_scenario_ids()
    assert "tokens/token_self::A token given as <how> is not a current token[basic auth]" in ids
    assert "tokens/token_self::A token given as <how> is not a current token" in ids
    assert "tokens/access_tokens::A new token answers for its owner" in ids

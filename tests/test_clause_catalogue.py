"""The clause catalogue against the features: known clause tags, coverage, and the tag scheme of DESIGN.md."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest
from pytest_bdd.exceptions import GherkinParseError
from pytest_bdd.parser import FeatureParser

from conformance.clauses import clause_by_tag, clause_tag, load_catalogue
from conformance.paths import FEATURES_DIR, SPEC_FILE
from conformance.tags import AREAS, SOURCES

FEATURE_FILES = sorted(FEATURES_DIR.rglob("*.feature"))


def _parse(path: Path) -> tuple[set[str], list[tuple[str, set[str]]]]:
    """Feature tags and (scenario name, scenario tags including the feature's) of one file."""
    feature = FeatureParser(str(FEATURES_DIR), str(path.relative_to(FEATURES_DIR))).parse()
    scenarios = []
    for name, template in feature.scenarios.items():
        tags = set(template.tags) | set(feature.tags)
        if template.rule is not None:
            tags |= set(template.rule.tags)
        for examples in template.examples:
            tags |= set(examples.tags or ())
        scenarios.append((name, tags))
    return set(feature.tags), scenarios


def _scenario_tags() -> list[tuple[str, set[str]]]:
    """Every scenario of the files that parse (a file that does not fails its own test below)."""
    found = []
    for path in FEATURE_FILES:
        try:
            _, scenarios = _parse(path)
        except GherkinParseError:
            continue
        found += [(f"{path.relative_to(FEATURES_DIR)}: {name}", tags) for name, tags in scenarios]
    return found


def test_the_catalogue_follows_the_id_scheme() -> None:
    catalogue = load_catalogue()
    assert clause_tag("S4.3-artifact-zip") == "clause_S4_3_artifact_zip"
    assert clause_tag("S5.2") == "clause_S5_2"
    for clause in catalogue.values():
        assert clause.text.strip(), f"{clause.id} has no paraphrase"
        assert clause.id.startswith(f"S{clause.section.split('.')[0]}"), f"{clause.id} is filed under {clause.section}"


def test_the_catalogue_has_every_section_of_the_specification() -> None:
    """Each numbered section and sub-section of the specification has at least one clause."""
    if not SPEC_FILE.exists():
        pytest.skip(f"the specification is not at {SPEC_FILE} in this checkout")
    sections = set(re.findall(r"^##+ ([0-9]+(?:\.[0-9]+)?)\.? ", SPEC_FILE.read_text(encoding="utf-8"), re.M))
    catalogued = {clause.section for clause in load_catalogue().values()}
    leaf_sections = {section for section in sections if not any(s.startswith(section + ".") for s in sections)}
    assert leaf_sections <= catalogued, f"sections without clauses: {sorted(leaf_sections - catalogued)}"


def test_every_clause_tag_names_a_catalogued_clause() -> None:
    known = clause_by_tag()
    unknown = [
        f"{where}: @{tag}"
        for where, tags in _scenario_tags()
        for tag in tags
        if tag.startswith("clause_") and tag not in known
    ]
    assert not unknown, "clause tags that are not in conformance/clauses.yaml:\n" + "\n".join(unknown)


def test_every_clause_has_a_scenario() -> None:
    """The catalogue is the whole specification, and each of its statements is checked by some scenario."""
    covered: dict[str, list[str]] = defaultdict(list)
    for where, tags in _scenario_tags():
        for tag in tags:
            covered[tag].append(where)
    missing = [clause.id for clause in load_catalogue().values() if not covered.get(clause.tag)]
    assert not missing, f"clauses without a scenario: {missing}"


@pytest.mark.parametrize("path", FEATURE_FILES, ids=lambda path: str(path.relative_to(FEATURES_DIR)))
def test_each_feature_has_one_area_tag_and_each_scenario_a_source(path: Path) -> None:
    feature_tags, scenarios = _parse(path)
    areas = sorted(feature_tags & set(AREAS))
    assert len(areas) == 1, f"a feature carries exactly one area tag from DESIGN.md, found {areas}"
    assert path.parent.name == areas[0], f"a feature of the area {areas[0]} belongs in features/{areas[0]}/"
    for name, tags in scenarios:
        assert len(tags & set(AREAS)) == 1, f'"{name}" adds another area tag: {sorted(tags & set(AREAS))}'
        sources = tags & set(SOURCES)
        assert sources, f'"{name}" has no source tag (@spec, @gitea or @reference)'
        if "spec" in sources:
            assert any(tag.startswith("clause_") for tag in tags), f'the @spec scenario "{name}" names no clause'
        for tag in tags:
            assert re.fullmatch(r"[A-Za-z0-9_]+", tag), f'"{name}": tag @{tag} has characters other than [A-Za-z0-9_]'

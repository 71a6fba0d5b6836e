"""The shards' ``junit.xml`` and ``cucumber.json`` joined into the documents one run would have written.

pytest's JUnit writer and pytest-bdd's Cucumber writer work from live pytest reports, which a merge no
longer has; but each shard's file already holds its scenarios exactly as those writers rendered them, and
a shard holds only its own scenarios. So the merge joins the documents: the test cases of every shard in
one ``testsuite`` (its counts added up), and the Cucumber scenarios of every shard under their feature
(ordered by their line in the feature file, as a single run lists them).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .results import write_atomically

__all__ = ["merge_cucumber", "merge_junit"]

COUNTED = ("tests", "errors", "failures", "skipped")


def merge_junit(files: Sequence[Path], out: Path) -> None:
    """One ``testsuites`` document: every shard's test cases in one suite, counts summed, the longest time."""
    root = ET.Element("testsuites", {"name": "pytest tests"})
    suite = ET.SubElement(root, "testsuite", {"name": "pytest"})
    totals = dict.fromkeys(COUNTED, 0)
    longest = 0.0
    stamps: list[str] = []
    cases: list[ET.Element] = []
    for file in files:
        for shard_suite in ET.parse(file).getroot().iter("testsuite"):  # noqa: S314 - a shard of this kit wrote it
            for name in COUNTED:
                totals[name] += int(shard_suite.get(name, "0"))
            longest = max(longest, float(shard_suite.get("time", "0")))
            if shard_suite.get("timestamp"):
                stamps.append(str(shard_suite.get("timestamp")))
            if shard_suite.get("hostname") and "hostname" not in suite.attrib:
                suite.set("hostname", str(shard_suite.get("hostname")))
            cases += shard_suite.findall("testcase")
    for name in COUNTED:
        suite.set(name, str(totals[name]))
    suite.set("time", f"{longest:.3f}")
    if stamps:
        suite.set("timestamp", min(stamps))
    suite.extend(sorted(cases, key=lambda case: (case.get("classname", ""), case.get("name", ""))))
    ET.indent(root)
    write_atomically(out, ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n")


def merge_cucumber(files: Sequence[Path], out: Path) -> None:
    """One Cucumber JSON list: each feature once, with the scenarios every shard ran of it, by line."""
    features: dict[str, dict[str, Any]] = {}
    for file in files:
        document = json.loads(file.read_text(encoding="utf-8"))
        for feature in document if isinstance(document, list) else []:
            key = str(feature.get("uri") or feature.get("id") or feature.get("name"))
            kept = features.setdefault(key, {**feature, "elements": []})
            kept["elements"] += feature.get("elements", [])
    merged = []
    for key in sorted(features):
        feature = features[key]
        feature["elements"].sort(key=lambda element: (int(element.get("line", 0)), str(element.get("id", ""))))
        merged.append(feature)
    write_atomically(out, json.dumps(merged, indent=4, ensure_ascii=False) + "\n")

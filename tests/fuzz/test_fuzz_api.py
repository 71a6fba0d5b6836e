"""Schemathesis over ``/openapi3.v1.json``: no server error and nothing the description does not declare."""

from __future__ import annotations

import pytest

from .api import fuzz_api
from .budget import ALL_EDGE_STRINGS, API_EXAMPLES, SEED
from .edges import CI_EDGE_STRINGS, EDGE_STRINGS, fuzz_edge_strings

pytestmark = pytest.mark.slow

API_PARTS = 8
"""The operations are fuzzed in this many tests (each every 8th in sorted order), so xdist spreads them."""


@pytest.mark.parametrize("part", range(API_PARTS))
def test_every_operation_survives_positive_and_negative_examples(part: int) -> None:
    report = fuzz_api(examples=API_EXAMPLES, run_seed=SEED, part=(part, API_PARTS))
    print(report.summary())  # the figures of the run, shown by ./kit fuzz (-s)
    assert report.described > 300, report.summary()
    assert report.operations == len(range(part, report.described, API_PARTS)), report.summary()
    assert report.examples >= report.operations * 2, report.summary()
    assert not report.findings, "\n".join(finding.describe() for finding in report.findings)


def test_every_json_body_survives_edge_strings_and_the_reads_after() -> None:
    edges = EDGE_STRINGS if ALL_EDGE_STRINGS else CI_EDGE_STRINGS
    report = fuzz_edge_strings(edges=edges, run_seed=SEED)
    print(report.summary())  # the figures of the run, shown by ./kit fuzz (-s)
    assert report.operations > 100, report.summary()
    assert report.examples == report.operations * len(edges), report.summary()
    assert report.reads >= 150 * (report.rebuilds + 1), report.summary()
    assert not report.findings, "\n".join(finding.describe() for finding in report.findings)

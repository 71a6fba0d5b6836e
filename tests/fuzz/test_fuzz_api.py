"""Schemathesis over ``/openapi3.v1.json``: no server error and nothing the description does not declare."""

from __future__ import annotations

import pytest

from .api import fuzz_api
from .budget import API_EXAMPLES, SEED

pytestmark = pytest.mark.slow


def test_every_operation_survives_positive_and_negative_examples() -> None:
    report = fuzz_api(examples=API_EXAMPLES, run_seed=SEED)
    print(report.summary())  # the figures of the run, shown by ./kit fuzz (-s)
    assert report.operations > 300, report.summary()
    assert report.examples >= report.operations * 2, report.summary()
    assert not report.findings, "\n".join(finding.describe() for finding in report.findings)

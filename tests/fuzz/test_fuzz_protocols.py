"""Hypothesis over the Twirp artifact and Connect runner protocol bodies: always a client error, never 5xx."""

from __future__ import annotations

import pytest

from .budget import PROTOCOL_EXAMPLES, SEED
from .protocols import fuzz_protocols

pytestmark = pytest.mark.slow


def test_garbage_bodies_are_client_errors_in_the_protocols_error_body() -> None:
    report = fuzz_protocols(examples=PROTOCOL_EXAMPLES, run_seed=SEED)
    print(report.summary())  # the figures of the run, shown by ./kit fuzz (-s)
    assert report.targets == 11, report.summary()
    assert report.examples >= report.targets * PROTOCOL_EXAMPLES // 2, report.summary()
    assert not report.findings, "\n".join(finding.describe() for finding in report.findings)

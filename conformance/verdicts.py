"""How a scenario ends: the six verdicts, and the verdict of an area or a capability from its scenarios.

A scenario is ``passed``, ``failed`` (the target answered wrongly), ``error`` (the harness or the
environment broke: a fixture, a connection refused, an exception other than an assertion in a Given
step, a step without a definition), ``unsupported`` (the target lacks an optional capability: its
probe said so, or an endpoint answered 501 during a ``@capability_*`` scenario), ``disabled`` (left
out by the profile, by the user's ``-m``/``-k``, or skipped for a reason of the harness's machine),
or ``expected-failure`` (it failed and an expectations entry says it would). These functions decide;
the plugin (``conformance.reporting``) applies them where pytest makes its reports, on whichever
process ran the scenario, so they hold under pytest-xdist too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pytest

from .capabilities import required_capabilities

__all__ = [
    "AREA_VERDICTS",
    "DISABLED",
    "ERROR",
    "EXPECTED_FAILURE",
    "FAILED",
    "PASSED",
    "UNSUPPORTED",
    "VERDICTS",
    "Counts",
    "FailureInfo",
    "attach_transcript",
    "classify_failure",
    "count_verdicts",
    "short_message",
    "skip_reason",
    "unsupported_by_501",
]

PASSED = "passed"
FAILED = "failed"
ERROR = "error"
UNSUPPORTED = "unsupported"
DISABLED = "disabled"
EXPECTED_FAILURE = "expected-failure"
VERDICTS = (PASSED, FAILED, ERROR, UNSUPPORTED, DISABLED, EXPECTED_FAILURE)
AREA_VERDICTS = ("full", "partial", "failed", "unsupported", "disabled")

HARNESS_EXCEPTIONS = frozenset(
    {
        "ConnectionError",
        "ConnectTimeout",
        "ReadTimeout",
        "Timeout",
        "ChunkedEncodingError",
        "StepDefinitionNotFoundError",
        "FixtureLookupError",
        "OSError",
        "FileNotFoundError",
        "PermissionError",
        "TimeoutExpired",
    }
)
"""Exception class names that say the harness or its machine broke, wherever they were raised."""

ASSERTION_EXCEPTIONS = frozenset({"AssertionError", "SchemaMismatchError", "ContractViolation", "Failed"})
"""Exception class names that are a check finding the target wrong (``Failed`` is ``pytest.fail``; a
ContractViolation is an answer breaking its operation's schema, even in a Given step)."""


@dataclass(frozen=True)
class FailureInfo:
    """What is known about one failed phase: where it broke and with what."""

    phase: str
    exception: str
    step_type: str = ""

    @property
    def is_assertion(self) -> bool:
        """A check found the target wrong (an assertion, a schema mismatch, ``pytest.fail``)."""
        return self.exception in ASSERTION_EXCEPTIONS or self.exception.endswith("MismatchError")


def classify_failure(info: FailureInfo) -> str:
    """``failed`` when the target is at fault, ``error`` when the harness or environment is.

    Set-up and tear-down (fixtures) failing is an error; so is a connection that broke, a step with
    no definition, and any exception other than an assertion raised in a Given step (the scenario
    could not be set up). An assertion anywhere, or an unexpected exception in a When or Then step
    (typically a response of the wrong shape), is a failure of the target.
    """
    if info.phase != "call" or info.exception in HARNESS_EXCEPTIONS:
        return ERROR
    if info.is_assertion:
        return FAILED
    return ERROR if info.step_type in ("", "given") else FAILED


def unsupported_by_501(tags: Iterable[str], statuses: Iterable[int | None]) -> str | None:
    """The capability a failed ``@capability_*`` scenario lacks when the target answered 501 on the way."""
    capabilities = [name for name in required_capabilities(tags) if name != "reference_clock"]
    if not capabilities or 501 not in set(statuses):
        return None
    return capabilities[0]


@dataclass
class Counts:
    """Scenario counts per verdict, and the verdict of the group they belong to (an area, a capability)."""

    passed: int = 0
    failed: int = 0
    error: int = 0
    unsupported: int = 0
    disabled: int = 0
    expected_failure: int = 0

    def add(self, verdict: str) -> None:
        """Count one scenario."""
        name = verdict.replace("-", "_")
        setattr(self, name, getattr(self, name) + 1)

    @property
    def total(self) -> int:
        """Every scenario of the group, disabled ones included."""
        return self.passed + self.failed + self.error + self.unsupported + self.disabled + self.expected_failure

    @property
    def verdict(self) -> str:
        """``failed`` (any failed or error), ``full`` (everything that ran passed), ``unsupported`` (nothing
        ran but unsupported ones), ``disabled`` (nothing ran), else ``partial``."""
        ran = self.total - self.disabled
        if self.failed or self.error:
            return "failed"
        if ran == 0:
            return "disabled"
        if self.passed == ran:
            return "full"
        if self.unsupported == ran:
            return "unsupported"
        return "partial"

    def as_dict(self) -> dict[str, Any]:
        """The JSON form of results.json."""
        return {
            "passed": self.passed,
            "failed": self.failed,
            "error": self.error,
            "unsupported": self.unsupported,
            "disabled": self.disabled,
            "expected_failure": self.expected_failure,
            "total": self.total,
            "verdict": self.verdict,
        }

    def merge(self, other: Counts) -> None:
        """Add another group's counts to this one."""
        for name in ("passed", "failed", "error", "unsupported", "disabled", "expected_failure"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def count_verdicts(groups: Iterable[tuple[str, str]]) -> dict[str, Counts]:
    """``(group, verdict)`` pairs -> counts per group, groups in alphabetical order."""
    counted: dict[str, Counts] = {}
    for group, verdict in groups:
        counted.setdefault(group, Counts()).add(verdict)
    return dict(sorted(counted.items()))


def skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    reason = str(longrepr[2]) if isinstance(longrepr, tuple) else str(longrepr)
    return reason.removeprefix("Skipped: ")


def short_message(report: pytest.TestReport) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    message = crash.message if crash is not None else str(report.longrepr)
    return str(message)[:2000]


def attach_transcript(report: pytest.TestReport, text: str) -> None:
    """Add the transcript to the failure's text, so the terminal and the JUnit report both show it."""
    add_section = getattr(report.longrepr, "addsection", None)
    if callable(add_section):
        add_section("HTTP transcript (credentials masked)", text)
    else:
        report.sections.append(("HTTP transcript (credentials masked)", text))

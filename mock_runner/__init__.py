"""The mock CI runner: speaks the runner protocol like act_runner, runs jobs in host mode, drives artifacts."""

from __future__ import annotations

__all__ = ["VERSION"]

VERSION = "mock-runner-0.1.0"

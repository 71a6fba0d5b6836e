"""What the conformance plugin keeps for one pytest session (the target, the results, the ledger), in a
module of its own so the plugin, its reporting half and the xdist glue can all name it without a circle."""

from __future__ import annotations

import itertools
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from . import __version__
from .capabilities import probe
from .client import HttpClient, Recorder, TokenAuth
from .identities import make_run_prefix
from .ledger import CleanupLedger
from .paths import FEATURES_DIR, SUITE_DIR
from .results import RunResults
from .seeding import new_run_seed
from .target import EmbeddedServer, Target, TargetSettings, resolve_settings

__all__ = ["RunState"]


class RunState:
    """What the plugin keeps for one pytest session."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        option = config.option
        self.report_dir = Path(config.invocation_params.dir, option.conformance_report_dir)
        self.writes_reports = is_conformance_run(config)
        self.keep_data: bool = option.conformance_keep_data
        self.recorder = Recorder()
        self.run_prefix = make_run_prefix()
        given_seed: int | None = option.conformance_seed
        self.seed = new_run_seed() if given_seed is None else given_seed
        self.results = RunResults(kit_version=__version__, run_prefix=self.run_prefix, seed=self.seed)
        self.started = time.monotonic()
        self.results.started = datetime.now(UTC).isoformat(timespec="seconds")
        self.sequence = itertools.count(1)
        self.target: Target | None = None
        self.embedded: EmbeddedServer | None = None
        self.ledger: CleanupLedger | None = None

    def settings(self) -> TargetSettings:
        """The target settings from options, environment and config file."""
        option = self.config.option
        config_file = Path(option.conformance_target_config) if option.conformance_target_config else None
        return resolve_settings(option.conformance_target, option.conformance_token, config_file)

    def supports(self, capability: str) -> bool:
        """Whether the target offers ``capability``; probed once per run."""
        target = self.target
        assert target is not None, "the target fixture must run before capabilities are asked"
        if capability not in target.capabilities:
            admin = HttpClient(target.api_url, TokenAuth(target.admin_token), recorder=Recorder())
            try:
                target.capabilities[capability] = probe(capability, admin)
            finally:
                admin.close()
        return target.capabilities[capability]


def is_conformance_run(config: pytest.Config) -> bool:
    """The suite is being run (its directory or a feature named), or reports were asked for (also before the
    plugin's ``pytest_configure`` has set the report options)."""
    option = config.option
    if getattr(option, "conformance_report_dir_given", option.conformance_report_dir is not None):
        return True
    base = Path(config.invocation_params.dir)
    for argument in config.args:
        path = (base / argument.split("::", 1)[0]).resolve()
        for root in (SUITE_DIR, FEATURES_DIR):
            if path == root or root in path.parents:
                return True
    return False

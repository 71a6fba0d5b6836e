"""Parallel runs with pytest-xdist (``conformance -n auto``): what workers share and what the controller merges.

Under xdist each worker is a pytest session of its own: it starts its own embedded reference server
(the ``target`` session fixture is per worker), keeps its own cleanup ledger and runs a share of the
scenarios. The scenario records, verdicts and the run's facts travel to the controller through
``conformance.reporting`` (report ``user_properties`` and ``workeroutput``); this module adds the rest:

- all workers share the controller's run prefix and seed (so a scenario draws the same data on any
  worker), and a worker's scenario numbers are ``index + 1``,
  then every ``count``-th number, so names stay unique on a shared live target too;
- each worker's embedded server logs to a file of its own, which the controller merges into one
  ``reference-server.log`` (each line prefixed with its worker);
- ``-n auto`` means one and a half workers per core for the suite (:func:`auto_workers`): a worker waits for
  its server about half of the time, and one worker per core left a seventh of the machine idle;
- pytest-bdd's step report rides on the call report (``conformance_bdd_scenario``) and is put back
  on the controller where pytest-bdd's Cucumber JSON writer looks for it.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd.reporting import ReportContext, test_report_context_registry
from xdist import plugin as xdist_plugin

from .state import RunState, is_conformance_run

__all__ = [
    "BDD_PROPERTY",
    "SERVER_LOG",
    "ControllerPlugin",
    "WorkerPlugin",
    "auto_workers",
    "is_controller",
    "is_worker",
    "register",
    "scenario_numbers",
    "server_log_path",
    "worker_id",
]

BDD_PROPERTY = "conformance_bdd_scenario"
PREFIX_INPUT = "conformance_run_prefix"
SEED_INPUT = "conformance_seed"
OUTPUT_KEY = "conformance_server_log"
SERVER_LOG = "reference-server.log"


def worker_id(config: pytest.Config) -> str | None:
    """``gw0``, ``gw1``... on an xdist worker; None in a plain run and on the controller."""
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    return None if workerinput is None else str(workerinput["workerid"])


def is_worker(config: pytest.Config) -> bool:
    """This session is an xdist worker."""
    return worker_id(config) is not None


def is_controller(config: pytest.Config) -> bool:
    """This session hands scenarios out to xdist workers and runs none itself."""
    if is_worker(config) or not config.pluginmanager.hasplugin("xdist"):
        return False
    return bool(getattr(config.option, "numprocesses", None)) and getattr(config.option, "dist", "no") != "no"


def scenario_numbers(config: pytest.Config) -> itertools.count[int]:
    """The scenario numbers of this session: 1, 2, 3... alone; interleaved across workers so none repeats."""
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    if workerinput is None:
        return itertools.count(1)
    index = int(str(workerinput["workerid"]).removeprefix("gw"))
    return itertools.count(index + 1, int(workerinput["workercount"]))


def server_log_path(config: pytest.Config, log_dir: Path) -> Path:
    """Where this session's embedded server logs: one file per worker, merged by the controller."""
    worker = worker_id(config)
    return log_dir / (SERVER_LOG if worker is None else f"reference-server-{worker}.log")


def _property(report: pytest.TestReport, name: str) -> Any:
    for key, value in report.user_properties:
        if key == name:
            return value
    return None


class WorkerPlugin:
    """On a worker: pytest-bdd's step report on the call report, and the server log's path at the end."""

    def __init__(self, state: RunState) -> None:
        self.state = state

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
        """Outermost wrapper: runs after pytest-bdd has filled in its report context."""
        outcome = yield
        report: pytest.TestReport = outcome.get_result()
        context = test_report_context_registry.get(report)
        if context is not None and report.when == "call":
            report.user_properties.append((BDD_PROPERTY, {"scenario": context.scenario, "name": context.name}))

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Hand the worker's server log to the controller."""
        embedded = self.state.embedded
        workeroutput: dict[str, Any] = session.config.workeroutput  # type: ignore[attr-defined]
        workeroutput[OUTPUT_KEY] = str(embedded.log_path) if embedded is not None else None


class ControllerPlugin:
    """On the controller: the shared prefix, the Cucumber step reports, one server log."""

    def __init__(self, state: RunState) -> None:
        self.state = state
        self.logs: dict[str, str] = {}

    def pytest_configure_node(self, node: Any) -> None:
        """Every worker names things with the controller's run prefix and draws data from its seed."""
        node.workerinput[PREFIX_INPUT] = self.state.run_prefix
        node.workerinput[SEED_INPUT] = self.state.seed

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Before pytest-bdd's Cucumber writer sees the report: give it back its step report."""
        bdd = _property(report, BDD_PROPERTY)
        if isinstance(bdd, dict):
            test_report_context_registry[report] = ReportContext(scenario=bdd["scenario"], name=bdd["name"])

    def pytest_testnodedown(self, node: Any, error: object) -> None:
        """Keep the worker's server log (nothing when it crashed)."""
        path = getattr(node, "workeroutput", {}).get(OUTPUT_KEY)
        if isinstance(path, str):
            self.logs[str(node.gateway.id)] = path

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Merge the workers' server logs into one file of the report directory."""
        if self.state.writes_reports and self.logs:
            self._merge_server_logs(self.state.report_dir / SERVER_LOG)

    def _merge_server_logs(self, merged: Path) -> None:
        """One log file: each worker's server log, its lines prefixed with the worker's id."""
        with merged.open("w", encoding="utf-8") as sink:
            for worker, name in sorted(self.logs.items()):
                path = Path(name)
                try:
                    text = path.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    continue
                for line in text.splitlines():
                    sink.write(f"[{worker}] {line}\n")
                if path != merged:
                    path.unlink(missing_ok=True)


def auto_workers(config: pytest.Config) -> int | None:
    """The workers ``-n auto`` starts for the suite: one and a half per core (xdist's count), as a worker spends
    about half of its time waiting for its server; None leaves other runs, and an explicit
    ``PYTEST_XDIST_AUTO_NUM_WORKERS``, to xdist. On two cores, three workers ran the suite in 0.92x the time
    of two, and four in 1.02x (benchmarks/README.md)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") or not is_conformance_run(config):
        return None
    cores = int(xdist_plugin.pytest_xdist_auto_num_workers(config))
    return cores + cores // 2


def register(config: pytest.Config, state: RunState) -> None:
    """Adopt the controller's prefix on a worker and register the side's plugin; nothing in a plain run."""
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    if workerinput is not None:
        prefix = workerinput.get(PREFIX_INPUT)
        if isinstance(prefix, str) and prefix:
            state.run_prefix = prefix
            state.results.run_prefix = prefix
        seed = workerinput.get(SEED_INPUT)
        if isinstance(seed, int):
            state.seed = state.results.seed = seed
        state.sequence = scenario_numbers(config)
        config.pluginmanager.register(WorkerPlugin(state), "conformance-xdist-worker")
    elif is_controller(config):
        config.pluginmanager.register(ControllerPlugin(state), "conformance-xdist-controller")

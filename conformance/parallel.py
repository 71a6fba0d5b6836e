"""Parallel runs with pytest-xdist (``conformance -n auto``): what the workers send, what the controller writes.

Under xdist each worker is a pytest session of its own: it starts its own embedded reference server
(the ``target`` session fixture is per worker), keeps its own cleanup ledger and runs a share of the
scenarios. The controller runs no scenario and has no items, so everything a report needs travels
with the reports and the worker's output:

- every scenario's record (``ScenarioResult``) rides on its teardown report in ``user_properties``
  (``conformance_scenario``), and pytest-bdd's step report on the call report
  (``conformance_bdd_scenario``), which the controller puts back where pytest-bdd's Cucumber JSON
  writer looks for it;
- at the end a worker hands over, in ``config.workeroutput``, its target (URL, version, embedded or
  live), the leaks of its end-of-run sweep and the path of its server's log.

The controller then writes ``results.json``, ``junit.xml`` and ``cucumber.json`` once, and merges the
workers' server logs into one ``reference-server.log`` (each line prefixed with its worker). All
workers share the controller's run prefix; a worker's scenario numbers are ``index + 1``, then every
``count``-th number, so names stay unique on a shared live target too.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Generator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from pytest_bdd.reporting import ReportContext, test_report_context_registry

from .results import NO_AREA, ScenarioResult
from .target import Target

if TYPE_CHECKING:
    from .plugin import RunState

__all__ = [
    "BDD_PROPERTY",
    "RESULT_PROPERTY",
    "SERVER_LOG",
    "ControllerPlugin",
    "WorkerPlugin",
    "is_controller",
    "is_worker",
    "register",
    "result_from_dict",
    "scenario_numbers",
    "server_log_path",
    "worker_id",
]

RESULT_PROPERTY = "conformance_scenario"
BDD_PROPERTY = "conformance_bdd_scenario"
PREFIX_INPUT = "conformance_run_prefix"
OUTPUT_KEY = "conformance"
SERVER_LOG = "reference-server.log"
ResultOf = Callable[[pytest.Item], ScenarioResult | None]


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


def result_from_dict(data: dict[str, Any]) -> ScenarioResult:
    """A scenario record rebuilt from its ``dataclasses.asdict`` form (unknown keys ignored)."""
    names = {item.name for item in dataclasses.fields(ScenarioResult)}
    return ScenarioResult(**{key: value for key, value in data.items() if key in names})


def _property(report: pytest.TestReport, name: str) -> Any:
    for key, value in report.user_properties:
        if key == name:
            return value
    return None


class WorkerPlugin:
    """On a worker: the shared run prefix, and the scenario records attached to the reports."""

    def __init__(self, state: RunState, result_of: ResultOf) -> None:
        self.state = state
        self.result_of = result_of

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
        """Outermost wrapper: runs after the plugin and pytest-bdd have filled in their records."""
        outcome = yield
        report: pytest.TestReport = outcome.get_result()
        context = test_report_context_registry.get(report)
        if context is not None and report.when == "call":
            report.user_properties.append((BDD_PROPERTY, {"scenario": context.scenario, "name": context.name}))
        result = self.result_of(item)
        if result is not None and report.when == "teardown":
            report.user_properties.append((RESULT_PROPERTY, dataclasses.asdict(result)))

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Hand the worker's target, leaks and server log to the controller."""
        state = self.state
        target = state.target
        output: dict[str, Any] = {
            "leaks": list(state.results.leaks),
            "target": None
            if target is None
            else {"url": target.base_url, "version": target.version, "embedded": target.is_embedded},
            "server_log": str(state.embedded.log_path) if state.embedded is not None else None,
        }
        workeroutput: dict[str, Any] = session.config.workeroutput  # type: ignore[attr-defined]
        workeroutput[OUTPUT_KEY] = output


class ControllerPlugin:
    """On the controller: scenario records from the reports, worker outputs, one set of reports."""

    def __init__(self, state: RunState) -> None:
        self.state = state
        self.order: dict[str, int] = {}
        self.results: dict[str, ScenarioResult] = {}
        self.outputs: dict[str, dict[str, Any]] = {}

    def pytest_configure_node(self, node: Any) -> None:
        """Every worker names things with the controller's run prefix."""
        node.workerinput[PREFIX_INPUT] = self.state.run_prefix

    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """Collection order, so results.json lists scenarios as a serial run would."""
        for position, nodeid in enumerate(ids):
            self.order.setdefault(nodeid, position)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Before pytest-bdd's Cucumber writer sees the report: give it back its step report."""
        bdd = _property(report, BDD_PROPERTY)
        if isinstance(bdd, dict):
            test_report_context_registry[report] = ReportContext(scenario=bdd["scenario"], name=bdd["name"])
        data = _property(report, RESULT_PROPERTY)
        if isinstance(data, dict):
            self.results[report.nodeid] = result_from_dict(data)
        elif report.failed and report.nodeid not in self.results and report.when != "teardown":
            self.results[report.nodeid] = self._lost(report)

    @staticmethod
    def _lost(report: pytest.TestReport) -> ScenarioResult:
        """A scenario whose worker died before the teardown report: an error with xdist's message."""
        message = str(report.longrepr)[:2000] if report.longrepr else "the worker running it stopped"
        return ScenarioResult(
            id=report.nodeid,
            feature="",
            feature_file=report.location[0] if report.location else "",
            name=report.nodeid.rsplit("::", 1)[-1],
            area=NO_AREA,
            tags=[],
            clauses=[],
            outcome="error",
            duration=report.duration,
            message=message,
        )

    def pytest_testnodedown(self, node: Any, error: object) -> None:
        """Keep what the worker handed over (nothing when it crashed)."""
        output = getattr(node, "workeroutput", {}).get(OUTPUT_KEY)
        if isinstance(output, dict):
            self.outputs[str(node.gateway.id)] = output

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Before results.json is written: the records in collection order, targets, leaks, one server log."""
        state = self.state
        end = len(self.order)
        state.collected = sorted(self.results.values(), key=lambda result: self.order.get(result.id, end))
        targets = [output["target"] for _, output in sorted(self.outputs.items()) if output.get("target")]
        if targets:
            first = targets[0]
            urls = sorted({str(target["url"]) for target in targets})
            state.target = Target(
                base_url=", ".join(urls), admin_token="", is_embedded=bool(first["embedded"]), version=first["version"]
            )
            state.results.target_url = urls[0] if len(urls) == 1 else ", ".join(urls)
            state.results.target_version = str(first["version"])
            state.results.target_embedded = bool(first["embedded"])
        state.results.leaks = [leak for _, output in sorted(self.outputs.items()) for leak in output.get("leaks", [])]
        if state.writes_reports:
            self._merge_server_logs(state.report_dir / SERVER_LOG)

    def _merge_server_logs(self, merged: Path) -> None:
        """One log file: each worker's server log, its lines prefixed with the worker's id."""
        logs = [
            (worker, Path(output["server_log"]))
            for worker, output in sorted(self.outputs.items())
            if output.get("server_log")
        ]
        if not logs:
            return
        with merged.open("w", encoding="utf-8") as sink:
            for worker, path in logs:
                try:
                    text = path.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    continue
                for line in text.splitlines():
                    sink.write(f"[{worker}] {line}\n")
                if path != merged:
                    path.unlink(missing_ok=True)


def register(config: pytest.Config, state: RunState, result_of: ResultOf) -> None:
    """Adopt the controller's prefix on a worker and register the side's plugin; nothing in a plain run."""
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    if workerinput is not None:
        prefix = workerinput.get(PREFIX_INPUT)
        if isinstance(prefix, str) and prefix:
            state.run_prefix = prefix
            state.results.run_prefix = prefix
        state.sequence = scenario_numbers(config)
        config.pluginmanager.register(WorkerPlugin(state, result_of), "conformance-xdist-worker")
    elif is_controller(config):
        config.pluginmanager.register(ControllerPlugin(state), "conformance-xdist-controller")

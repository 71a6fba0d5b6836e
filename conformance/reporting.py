"""The reporting half of the plugin: profile, expectations, verdicts, and the reports, safe under pytest-xdist.

Two roles, which are one process in a serial run:

* the **runner** (a serial run, or each xdist worker) collects the scenarios, applies the profile
  (scenarios it leaves out are deselected and reported as disabled), follows the Gherkin steps,
  decides each phase's verdict where pytest makes its report (expected failures become xfail,
  a 501 in a ``@capability_*`` scenario becomes an "unsupported" skip) and attaches what the report
  needs to ``report.user_properties``: the scenario's identity, its verdict, steps, masked
  transcript and the requests it made. What only the runner knows about the whole run (the target,
  every collected scenario, the API description) travels in ``config.workeroutput``;
* the **writer** (a serial run, or the xdist controller) folds the reports it receives in
  ``pytest_runtest_logreport`` into one record per scenario and, at the end (also after Ctrl-C),
  writes ``results.json`` and ``report.html`` and prints the summary.
"""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests
from pytest_bdd.exceptions import GherkinParseError

from .client import HttpClient, Recorder
from .comparison import BaselineError, compare, load_baseline
from .expectations import ExpectationError, Expectations, load_expectations
from .paths import FEATURES_DIR
from .profiles import DEFAULT_PROFILE, Profile, ProfileError, known_tags, load_profile, pick_profile_name
from .report_html import render_report
from .results import (
    UNPARSABLE_FEATURE,
    RunRecords,
    ScenarioResult,
    add_contract_totals,
    assemble,
    scenario_info,
    summary_lines,
    write_atomically,
)
from .scenario_ids import feature_scenario_ids
from .state import RunState
from .target import TargetError
from .target_check import check_live_target
from .verdicts import (
    DISABLED,
    ERROR,
    EXPECTED_FAILURE,
    FAILED,
    PASSED,
    UNSUPPORTED,
    FailureInfo,
    attach_transcript,
    classify_failure,
    short_message,
    skip_reason,
    unsupported_by_501,
)

__all__ = ["BAD_PROFILE_EXIT", "INFO_KEY", "ReportingPlugin"]

BAD_PROFILE_EXIT = 6
PROPERTY_SCENARIO = "conformance.scenario"
PROPERTY_VERDICT = "conformance.verdict"
PROPERTY_TRAFFIC = "conformance.traffic"
WORKER_OUTPUT = "conformance"
INFO_KEY = pytest.StashKey[ScenarioResult]()
STEPS_KEY = pytest.StashKey[list[dict[str, str]]]()
STEP_FAILURE_KEY = pytest.StashKey[tuple[str, str]]()
EXAMPLE_PARAMETER = "_pytest_bdd_example"


class ReportingPlugin:
    """Profile, expectations, verdicts and reports for one pytest process (see the module docstring)."""

    def __init__(self, config: pytest.Config, state: RunState) -> None:
        self.config = config
        self.state = state
        self.is_worker = hasattr(config, "workerinput")
        self.aborted = False
        self.profile, chosen_by = self._resolve_profile()
        self.profile_chosen_by = chosen_by
        self.expectations = self._resolve_expectations()
        self.baseline = None if self.is_worker else self._resolve_baseline()
        if not self.is_worker and getattr(config.option, "numprocesses", None):
            self._check_ids_before_distribution()
        self.today = dt.date.today()
        # runner side
        self.inventory: list[ScenarioResult] = []
        self.disabled: dict[str, str] = {}
        self.description_ops: list[list[str]] | None = None
        self._description_tried = False
        # writer side
        self.records: dict[str, ScenarioResult] = {}
        self.order: list[str] = []
        self.traffic: dict[str, list[tuple[str, str]]] = {}
        self.worker_outputs: list[dict[str, Any]] = []

    # -- set-up: the profile and the expectations, checked before anything runs -------------------

    def _bad_file(self, message: str) -> None:
        self.aborted = True
        pytest.exit(f"conformance: {message}", returncode=BAD_PROFILE_EXIT)

    def _resolve_profile(self) -> tuple[Profile, str]:
        option = self.config.option
        try:
            if option.conformance_profile:
                profile, chosen_by = load_profile(option.conformance_profile), "--profile"
            else:
                name, chosen_by = self._auto_profile()
                profile = load_profile(name)
        except ProfileError as error:
            self._bad_file(str(error))
            raise
        tags, capabilities = known_tags(self.config)
        unknown = profile.unknown_names(tags, capabilities)
        if unknown:
            self._bad_file(f"profile {profile.name} names what the kit does not know: {', '.join(unknown)}")
        return profile, chosen_by

    def _auto_profile(self) -> tuple[str, str]:
        """The rule of :mod:`conformance.profiles`: the embedded server is ``reference``, else by version."""
        if not self.state.writes_reports:
            return DEFAULT_PROFILE, "default"
        try:
            settings = self.state.settings()
        except TargetError:
            return DEFAULT_PROFILE, "default"
        if settings.url is None:
            return DEFAULT_PROFILE, "default for the embedded reference server"
        version = check_live_target(settings.url, settings.token or "")
        name = pick_profile_name(version, embedded=False)
        return name, f"picked for the target's version {version or '(unknown)'}"

    def _resolve_expectations(self) -> Expectations | None:
        option = self.config.option
        path = Path(option.conformance_expectations) if option.conformance_expectations else self.profile.expectations
        if path is None:
            return None
        try:
            return load_expectations(path)
        except ExpectationError as error:
            self._bad_file(str(error))
            raise

    def _resolve_baseline(self) -> dict[str, Any] | None:
        """The ``--baseline`` document, read before anything runs (it may be the results.json this run rewrites)."""
        given = self.config.option.conformance_baseline
        if not given:
            return None
        try:
            return load_baseline(Path(self.config.invocation_params.dir, given))
        except BaselineError as error:
            self._bad_file(str(error))
            raise

    def _check_ids_before_distribution(self) -> None:
        """The xdist controller collects nothing: check the files' scenario ids against the parsed features."""
        root = self.config.rootpath
        if FEATURES_DIR.is_relative_to(root) or root == FEATURES_DIR:
            files = sorted(FEATURES_DIR.rglob("*.feature"))
        else:
            files = sorted(path for path in root.rglob("*.feature") if not any(p.startswith(".") for p in path.parts))
        try:
            ids = feature_scenario_ids(files, root)
        except GherkinParseError:  # a feature that does not parse is reported as its own failed scenario
            return
        self._check_ids(sorted(ids))

    def _check_ids(self, ids: list[str]) -> None:
        """Stop the run (exit status 6) when the profile or the expectations name scenarios that do not exist."""
        unknown = self.profile.unknown_scenarios(ids)
        if unknown:
            self._bad_file(f"profile {self.profile.name} names unknown scenarios: {'; '.join(unknown)}")
        if self.expectations is not None:
            unknown = self.expectations.unknown(ids)
            if unknown:
                self._bad_file(f"{self.expectations.path} names unknown scenarios: {'; '.join(unknown)}")

    # -- runner side: collection, steps, verdicts ------------------------------------------------

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        """Identify every scenario, check the files' ids against them, and leave out what the profile does not cover."""
        kept: list[pytest.Item] = []
        removed: list[pytest.Item] = []
        for item in items:
            info = scenario_info(item)
            if info is None:
                kept.append(item)
                continue
            item.stash[INFO_KEY] = info
            self.inventory.append(info)
            unparsable = getattr(getattr(item, "function", None), UNPARSABLE_FEATURE, None) is not None
            reason = None if unparsable else self.profile.excludes(info.id, info.tags, info.capabilities)
            if reason is None:
                kept.append(item)
            else:
                self.disabled[info.id] = reason
                removed.append(item)
        self._check_ids([info.id for info in self.inventory])
        if removed:
            config.hook.pytest_deselected(items=removed)
            items[:] = kept

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """Scenarios collected but not selected (``-m``, ``-k``, node ids) are disabled by the user."""
        selected = {item.stash[INFO_KEY].id for item in session.items if INFO_KEY in item.stash}
        for info in self.inventory:
            if info.id not in selected and info.id not in self.disabled:
                self.disabled[info.id] = "disabled: not selected (-m, -k or the scenarios named)"

    def pytest_bdd_before_scenario(self, request: pytest.FixtureRequest, feature: Any, scenario: Any) -> None:
        """Keep the scenario's rendered steps, to show which one failed."""
        request.node.stash[STEPS_KEY] = [
            {"keyword": step.keyword, "text": step.name, "type": step.type, "status": "not run"}
            for step in scenario.steps
        ]

    def _step(self, request: pytest.FixtureRequest, step: Any) -> dict[str, str] | None:
        entries: list[dict[str, str]] = request.node.stash.get(STEPS_KEY, [])
        for entry in entries:
            if entry["status"] == "not run" and entry["text"] == step.name:
                return entry
        return None

    def pytest_bdd_after_step(self, request: pytest.FixtureRequest, step: Any) -> None:
        """A step passed."""
        entry = self._step(request, step)
        if entry is not None:
            entry["status"] = "passed"

    def pytest_bdd_step_error(self, request: pytest.FixtureRequest, step: Any, exception: Exception) -> None:
        """A step raised: remember its kind (Given, When, Then) and the exception's class."""
        entry = self._step(request, step)
        if entry is not None:
            entry["status"] = "failed"
        request.node.stash[STEP_FAILURE_KEY] = (step.type, type(exception).__name__)

    def pytest_bdd_step_func_lookup_error(
        self, request: pytest.FixtureRequest, step: Any, exception: Exception
    ) -> None:
        """A step has no definition: the harness is at fault."""
        entry = self._step(request, step)
        if entry is not None:
            entry["status"] = "undefined"
        request.node.stash[STEP_FAILURE_KEY] = (step.type, "StepDefinitionNotFoundError")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
        """Decide the phase's verdict and attach what the writer needs to the report."""
        outcome = yield
        report: pytest.TestReport = outcome.get_result()
        info = item.stash.get(INFO_KEY, None)
        if info is None:
            return
        if report.when == "setup":
            report.user_properties.append((PROPERTY_SCENARIO, info.info()))
        if report.when == "call" or (report.when == "setup" and not report.passed):
            report.user_properties.append((PROPERTY_TRAFFIC, self._traffic()))
        verdict = self._phase_verdict(item, call, report, info)
        if verdict is not None:
            report.user_properties.append((PROPERTY_VERDICT, verdict))

    def _traffic(self) -> list[list[str]]:
        """The scenario's REST requests so far, as ``[method, path under /api/v1]`` pairs."""
        target = self.state.target
        if target is None:
            return []
        self._fetch_description(target.base_url, target.is_embedded or target.version.endswith("+reference"))
        prefix = urlsplit(target.api_url).path
        seen: dict[tuple[str, str], None] = {}
        for method, url in self.state.recorder.requests_made():
            path = urlsplit(url).path
            if path.startswith(prefix):
                seen[(method, "/" + path[len(prefix) :])] = None
        return [[method, path] for method, path in seen]

    def _fetch_description(self, base_url: str, is_reference: bool) -> None:
        """The API description the reference target serves, fetched once per process."""
        if self._description_tried or not is_reference:
            return
        self._description_tried = True
        client = HttpClient(base_url, recorder=Recorder(), timeout=15)
        try:
            answer = client.get("swagger.v1.json")
            document = answer.json() if answer.status_code == 200 else {}
        except (requests.RequestException, ValueError):
            document = {}
        finally:
            client.close()
        paths = document.get("paths") if isinstance(document, dict) else None
        if isinstance(paths, dict):
            self.description_ops = [
                [method.upper(), path, str(operation.get("operationId", "")), _first_tag(operation)]
                for path, methods in paths.items()
                for method, operation in methods.items()
                if isinstance(operation, dict)
            ]

    def _phase_verdict(
        self, item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport, info: ScenarioResult
    ) -> dict[str, Any] | None:
        """The verdict of one phase; turns expected failures into xfail and 501s into unsupported skips."""
        entry = self.expectations.for_scenario(info.id) if self.expectations is not None else None
        if report.passed:
            if report.when != "call":
                return None
            return {"verdict": PASSED, "expectation": "fixed" if entry is not None else ""}
        if report.skipped:
            reason = skip_reason(report)
            if hasattr(report, "wasxfail"):
                return {"verdict": EXPECTED_FAILURE, "message": str(report.wasxfail), "expectation": ""}
            verdict = UNSUPPORTED if reason.startswith("unsupported:") else DISABLED
            return {"verdict": verdict, "message": reason, "expectation": ""}
        exchanges = self.state.recorder.page()
        step_type, exception = item.stash.get(STEP_FAILURE_KEY, ("", ""))
        if not exception and call.excinfo is not None:
            exception = call.excinfo.typename
        kind = classify_failure(FailureInfo(report.when, exception, step_type))
        message = short_message(report)
        steps = item.stash.get(STEPS_KEY, [])
        if kind == FAILED:
            capability = unsupported_by_501(info.tags, (exchange.status for exchange in exchanges))
            if capability is not None:
                reason = f"unsupported: {capability} (the target answered 501 Not Implemented)"
                report.outcome = "skipped"
                report.longrepr = (str(item.path), None, reason)  # type: ignore[assignment]
                return {"verdict": UNSUPPORTED, "message": reason, "expectation": ""}
            if entry is not None and not entry.expired(self.today):
                report.outcome = "skipped"
                report.wasxfail = f"expected failure: {entry.reason}"
                return {
                    "verdict": EXPECTED_FAILURE,
                    "message": f"{entry.reason} (it failed: {message})",
                    "expectation": "expected-failure",
                }
            if entry is not None:
                message = f"the expectations entry expired on {entry.expires}: {entry.reason}; it failed: {message}"
        if exchanges:
            attach_transcript(report, "\n\n".join(exchange.render() for exchange in exchanges))
        return {
            "verdict": kind if kind == FAILED else ERROR,
            "message": message,
            "expectation": "expired" if entry is not None and kind == FAILED else "",
            "steps": steps,
            "transcript": [exchange.as_dict() for exchange in exchanges],
        }

    def runner_output(self) -> dict[str, Any]:
        """The target, every collected scenario, the disabled ones, the API description and the leaks."""
        target = self.state.target
        contract = self.state.recorder.contract
        return {
            "contract": contract.totals() if contract is not None else None,
            "leaks": self.state.results.leaks,
            "target": None
            if target is None
            else {"url": target.base_url, "version": target.version, "embedded": target.is_embedded},
            "inventory": [info.info() for info in self.inventory],
            "disabled": self.disabled,
            "description": self.description_ops,
        }

    # -- writer side: folding the reports ---------------------------------------------------------

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Fold one phase report into its scenario's record (reports of xdist workers arrive here too)."""
        properties = dict(report.user_properties)
        record = self.records.get(report.nodeid)
        if record is None:
            info = properties.get(PROPERTY_SCENARIO)
            if not isinstance(info, dict):
                return
            record = self.records[report.nodeid] = ScenarioResult.from_info(info)
            self.order.append(report.nodeid)
        record.duration += report.duration
        traffic = properties.get(PROPERTY_TRAFFIC)
        if isinstance(traffic, list):
            self.traffic[record.id] = [(str(method), str(path)) for method, path in traffic]
        verdict = properties.get(PROPERTY_VERDICT)
        if not isinstance(verdict, dict):
            return
        if verdict["verdict"] == PASSED:
            if record.outcome == "":
                record.outcome = PASSED
                record.expectation = str(verdict.get("expectation", ""))
            return
        if record.outcome in ("", PASSED):
            record.outcome = str(verdict["verdict"])
            record.message = str(verdict.get("message", ""))
            record.expectation = str(verdict.get("expectation", ""))
            record.steps = list(verdict.get("steps", []))
            record.transcript = list(verdict.get("transcript", []))

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        """An xdist worker finished: keep what it knew about the run."""
        output = getattr(node, "workeroutput", {}).get(WORKER_OUTPUT)
        if isinstance(output, dict):
            self.worker_outputs.append(output)

    # -- writer side: the end of the run ----------------------------------------------------------

    def _runner_output(self) -> dict[str, Any]:
        """What the runners knew: this process's own in a serial run, the workers' under xdist."""
        if not self.worker_outputs:
            return self.runner_output()
        merged: dict[str, Any] = {
            "target": None,
            "inventory": [],
            "disabled": {},
            "description": None,
            "leaks": [],
            "contract": None,
        }
        for output in self.worker_outputs:
            merged["contract"] = add_contract_totals(merged["contract"], output.get("contract"))
            merged["target"] = merged["target"] or output.get("target")
            merged["inventory"] = merged["inventory"] or output.get("inventory", [])
            merged["description"] = merged["description"] or output.get("description")
            merged["disabled"].update(output.get("disabled", {}))
            merged["leaks"] += output.get("leaks", [])
        return merged

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        """Write results.json and report.html (also after Ctrl-C or ``-x``: what ran is reported).

        Last, so that the session fixtures (cleanup ledger, embedded server) were torn down and the
        leaks are known; a worker hands its part to the controller instead (xdist sends it after this).
        """
        if self.aborted:
            return
        if self.is_worker:
            self.config.workeroutput[WORKER_OUTPUT] = self.runner_output()  # type: ignore[attr-defined]
            return
        results = self.state.results
        results.duration = time.monotonic() - self.state.started
        stopped = bool(session.shouldstop) or bool(session.shouldfail) or int(exitstatus) == 2
        runner = self._runner_output()
        position = {str(info.get("nodeid")): index for index, info in enumerate(runner.get("inventory", []))}
        order = sorted(self.order, key=lambda nodeid: position.get(nodeid, len(position)))  # as a serial run lists them
        gathered = RunRecords(
            records=[self.records[nodeid] for nodeid in order],
            traffic=self.traffic,
            runner=runner,
            from_workers=bool(self.worker_outputs),
        )
        profile = {
            "name": self.profile.name,
            "chosen_by": self.profile_chosen_by,
            "description": self.profile.description,
            "file": str(self.profile.path) if self.profile.path else None,
        }
        # session.exitstatus: what the run exits with, after any plugin's say (an empty shard is not an empty selection)
        assemble(results, gathered, profile, self.expectations, exit_status=int(session.exitstatus), stopped=stopped)
        if self.baseline is not None:
            results.comparison = compare(results.as_dict(), self.baseline)
        if self.state.writes_reports and results.scenarios:
            results.write(self.state.report_dir / "results.json")
            write_atomically(self.state.report_dir / "report.html", render_report(results.as_dict()))

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """The profile, the per-area and per-capability tables, expectations to act on, leaks, the reports."""
        if self.is_worker:
            return
        lines = summary_lines(self.state.results, self.state.report_dir if self.state.writes_reports else None)
        if lines:
            terminalreporter.section("conformance")
        for text, markup in lines:
            terminalreporter.write_line(text, **markup)


def _first_tag(operation: dict[str, Any]) -> str:
    """The first tag of an operation of a served description ('' when it has none)."""
    tags = operation.get("tags")
    return str(tags[0]) if isinstance(tags, list) and tags else ""

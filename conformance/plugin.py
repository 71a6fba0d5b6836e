"""The pytest plugin: options, markers, the run's fixtures, capability skips and the reports.

Loaded from the kit's root ``conftest.py``. One switch picks the target (``--target``/``--token``,
``CONFORMANCE_TARGET``/``CONFORMANCE_TOKEN``, or ``--target-config FILE``); without one, the
reference server is started as a subprocess for the run. A conformance run (the suite, or any run
given ``--report-dir``) writes ``junit.xml``, ``cucumber.json``, ``results.json`` and the embedded
server's log into the report directory.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd.scenario import scenario_wrapper_template_registry
from pytest_bdd.utils import registry_get_safe

from . import feature_cache, parallel, step_lookup
from .api import ForgeApi
from .capabilities import CAPABILITY_PREFIX, PROBES, missing_capability, unsupported_reason
from .clauses import load_catalogue
from .client import HttpClient, TokenAuth
from .context import ScenarioContext
from .contract import Contract, ContractViolation
from .identities import IdentityFactory
from .ledger import CleanupLedger
from .paths import FEATURES_DIR
from .profiles import shipped_capabilities
from .reporting import INFO_KEY, ReportingPlugin
from .seeding import SeededData, scenario_seed
from .sharding import ShardError, ShardPlugin, parse_shard
from .state import RunState
from .tags import AREAS, SOURCES, SPECIAL_TAGS
from .target import EmbeddedServer, Target, TargetError
from .target_check import TARGET_UNUSABLE_EXIT, check_live_target, check_target, unusable

__all__ = ["TARGET_UNUSABLE_EXIT", "RunState", "check_live_target"]  # RunState lives in .state

DESTRUCTIVE_TAG = "destructive"
DESTRUCTIVE_REASON = (
    "disabled: destructive (changes instance-wide state or the admin's own credentials); "
    "runs against a live target only with --allow-destructive"
)
STATE_KEY = pytest.StashKey["RunState"]()
PRELOADED_KEY = pytest.StashKey[int]()
"""How many parsed feature files came from :mod:`.feature_cache`."""


def pytest_addoption(parser: pytest.Parser) -> None:
    """The conformance options."""
    group = parser.getgroup("conformance", "forge conformance kit")
    group.addoption("--target", dest="conformance_target", metavar="URL", help="base URL of the forge under test")
    group.addoption("--token", dest="conformance_token", metavar="TOKEN", help="admin token of the forge under test")
    group.addoption(
        "--target-config",
        dest="conformance_target_config",
        metavar="FILE",
        help="YAML file with the keys target and token",
    )
    group.addoption(
        "--report-dir",
        dest="conformance_report_dir",
        default=None,
        metavar="DIR",
        help="where reports are written (default reports/)",
    )
    group.addoption(
        "--keep-data",
        dest="conformance_keep_data",
        action="store_true",
        help="keep what the run created and the embedded server's data directory",
    )
    group.addoption(
        "--seed",
        dest="conformance_seed",
        type=int,
        default=None,
        metavar="N",
        help="seed of the incidental data scenarios draw (names, texts, file contents); replays a run's data",
    )
    group.addoption(
        "--allow-destructive",
        dest="conformance_allow_destructive",
        action="store_true",
        help="run @destructive scenarios against a live target too (always run against the embedded server)",
    )
    _add_reporting_options(group)
    _add_shard_options(group)


def _add_shard_options(group: pytest.OptionGroup) -> None:
    """Sharding (``conformance.sharding``): the user's CI runs the shards, ``conformance merge`` joins them."""
    group.addoption(
        "--shard",
        dest="conformance_shard",
        metavar="K/N",
        help="run only shard K of N of the selected scenarios (deterministic, disjoint; merge with conformance merge)",
    )
    group.addoption(
        "--durations-from",
        dest="conformance_durations_from",
        metavar="FILE",
        help="balance --shard by the scenario durations of this results.json (else by count)",
    )


def _add_reporting_options(group: pytest.OptionGroup) -> None:
    """Profiles and expectations (``conformance.profiles``, ``conformance.expectations``)."""
    group.addoption(
        "--profile",
        dest="conformance_profile",
        metavar="NAME|FILE",
        help="what the target is expected to meet: reference, spec, gitea-1.26, gitea-1.27 or a YAML file",
    )
    group.addoption(
        "--expectations",
        dest="conformance_expectations",
        metavar="FILE",
        help="YAML file of scenarios expected to fail (default: the profile's own, if it names one)",
    )
    group.addoption(
        "--baseline",
        dest="conformance_baseline",
        metavar="FILE",
        help="a results.json to compare this run with: newly failing/passing, added/removed, coverage deltas",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` for the suite: :func:`conformance.parallel.auto_workers`."""
    return parallel.auto_workers(config)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Register every marker a feature can carry, and point the report options at the report dir."""
    for area in AREAS:
        config.addinivalue_line("markers", f"{area}: scenarios of the {area} area")
    for name, meaning in {**SOURCES, **SPECIAL_TAGS}.items():
        config.addinivalue_line("markers", f"{name}: {meaning}")
    for capability in sorted(set(PROBES) | shipped_capabilities()):  # a profile may name one no probe detects
        config.addinivalue_line("markers", f"{CAPABILITY_PREFIX}{capability}: needs the {capability} capability")
    for clause in load_catalogue().values():
        config.addinivalue_line("markers", f"{clause.tag}: specification {clause.section}, {clause.id}")
    option = config.option
    option.conformance_report_dir_given = option.conformance_report_dir is not None
    if option.conformance_report_dir is None:
        option.conformance_report_dir = "reports"
    state = RunState(config)
    config.stash[STATE_KEY] = state
    parallel.register(config, state)
    step_lookup.install()
    config.stash[PRELOADED_KEY] = feature_cache.preload(FEATURES_DIR)
    if state.writes_reports:
        try:
            state.settings()
        except TargetError as error:
            raise pytest.UsageError(f"conformance: {error}") from None
    reporting = ReportingPlugin(config, state)
    config.pluginmanager.register(reporting, "conformance-reporting")
    _register_shard(config, state, reporting)
    if state.writes_reports:
        state.report_dir.mkdir(parents=True, exist_ok=True)
        if not getattr(option, "xmlpath", None):
            option.xmlpath = str(state.report_dir / "junit.xml")
        if not getattr(option, "cucumber_json_path", None):
            option.cucumber_json_path = str(state.report_dir / "cucumber.json")


def _register_shard(config: pytest.Config, state: RunState, reporting: ReportingPlugin) -> None:
    """With ``--shard K/N``: keep this shard's scenarios (a bad value is a usage error, exit status 4)."""
    option = config.option
    if option.conformance_shard is None:
        if option.conformance_durations_from is not None:
            raise pytest.UsageError("conformance: --durations-from balances --shard K/N; give --shard too")
        return
    try:
        spec = parse_shard(option.conformance_shard)
        durations = option.conformance_durations_from
        resolved = None if durations is None else str(Path(config.invocation_params.dir, durations))
        plugin = ShardPlugin(spec, resolved, state, reporting.disabled)
    except ShardError as error:
        raise pytest.UsageError(f"conformance: {error}") from None
    config.pluginmanager.register(plugin, "conformance-shard")


def _state(config: pytest.Config) -> RunState:
    return config.stash[STATE_KEY]


def _connect(state: RunState) -> Target:
    """Resolve, start if embedded, and check the target: version answered, admin token accepted."""
    try:
        settings = state.settings()
    except TargetError as error:
        unusable(str(error))
    if settings.url is None:
        log_dir = state.report_dir if state.writes_reports else Path(tempfile.mkdtemp(prefix="conformance-log-"))
        state.embedded = EmbeddedServer(parallel.server_log_path(state.config, log_dir), keep_data=state.keep_data)
        try:
            base_url = state.embedded.start()
        except TargetError as error:
            unusable(str(error))
        target = Target(base_url=base_url, admin_token=state.embedded.admin_token, is_embedded=True)
    else:
        assert settings.token is not None
        target = Target(base_url=settings.url, admin_token=settings.token, is_embedded=False)
    target.version = check_target(target)
    state.target = target
    state.results.target_url = target.base_url
    state.results.target_version = target.version
    state.results.target_embedded = target.is_embedded
    return target


def pytest_collection_finish(session: pytest.Session) -> None:
    """Keep the parsed feature files for the next run when some had to be parsed (by one process of a run)."""
    if parallel.is_worker(session.config):
        return
    if feature_cache.parsed_count(FEATURES_DIR) > session.config.stash.get(PRELOADED_KEY, 0):
        feature_cache.store(FEATURES_DIR)


def pytest_report_header(config: pytest.Config) -> str | None:
    """The run id, so the leftovers of a crashed run can be found: ``conformance janitor --run-id ID``."""
    if parallel.is_worker(config):
        return None
    state = _state(config)
    return (
        f"conformance run id: {state.run_prefix} (every name this run creates starts with it); "
        f"seed: {state.seed} (--seed {state.seed} replays the scenarios' data)"
    )


@pytest.fixture(scope="session")
def run_prefix(pytestconfig: pytest.Config) -> str:
    """The run's unique name prefix (``ck`` and six base-36 characters)."""
    return _state(pytestconfig).run_prefix


@pytest.fixture(scope="session")
def target(pytestconfig: pytest.Config) -> Iterator[Target]:
    """The forge under test, started (embedded) or checked (live) once per run."""
    state = _state(pytestconfig)
    connected = _connect(state)
    yield connected
    if state.embedded is not None:
        state.embedded.stop()
        if state.keep_data:
            print(f"\nconformance: the embedded server's data is kept in {state.embedded.data_dir}")


@pytest.fixture(scope="session")
def forge_api(target: Target, pytestconfig: pytest.Config) -> Iterator[ForgeApi]:
    """The admin's facade; its traffic is part of each scenario's transcript."""
    state = _state(pytestconfig)
    state.recorder.add_secret(target.admin_token, run_wide=True)
    state.recorder.contract = Contract(target.api_url)
    http = HttpClient(target.api_url, TokenAuth(target.admin_token), recorder=state.recorder)
    yield ForgeApi(http, target.base_url)
    http.close()


@pytest.fixture(scope="session")
def ledger(forge_api: ForgeApi, pytestconfig: pytest.Config) -> Iterator[CleanupLedger]:
    """The cleanup ledger: each scenario's things are deleted when it ends, leftovers at the end of the run."""
    state = _state(pytestconfig)
    state.ledger = CleanupLedger(forge_api)
    yield state.ledger
    if not state.keep_data:
        state.ledger.cleanup()
    state.results.leaks = [leak.as_dict() for leak in state.ledger.leaks]


@pytest.fixture
def ctx(forge_api: ForgeApi, pytestconfig: pytest.Config) -> ScenarioContext:
    """The scenario's state, fresh for each scenario."""
    state = _state(pytestconfig)
    return ScenarioContext(run_prefix=state.run_prefix, sequence=next(state.sequence), admin=forge_api)


@pytest.fixture
def fake(request: pytest.FixtureRequest) -> SeededData:
    """The scenario's incidental data, drawn from the run's seed and the scenario's id (as collection named it)."""
    info = request.node.stash.get(INFO_KEY, None)
    scenario = info.id if info is not None else request.node.nodeid
    return SeededData(scenario_seed(_state(request.config).seed, scenario))


@pytest.fixture
def identities(
    ctx: ScenarioContext, forge_api: ForgeApi, ledger: CleanupLedger, target: Target, fake: SeededData
) -> IdentityFactory:
    """Creates the scenario's users, tokens, organizations and repositories."""
    return IdentityFactory(ctx, forge_api, ledger, target.api_url, fake)


def _scenario_tags(item: pytest.Item) -> tuple[Any, set[str]] | None:
    function = getattr(item, "function", None)
    template = registry_get_safe(scenario_wrapper_template_registry, function)
    if template is None:
        return None
    tags = set(template.tags) | set(template.feature.tags)
    if template.rule is not None:
        tags |= set(template.rule.tags)
    return template, tags


@pytest.fixture(autouse=True)
def _capability_gate(request: pytest.FixtureRequest) -> None:
    """Skip a scenario whose capability the target lacks, with the reason ``unsupported: <name>``."""
    found = _scenario_tags(request.node) if isinstance(request.node, pytest.Item) else None
    if found is None:
        return
    _, tags = found
    if not any(tag == "reference_only" or tag.startswith(CAPABILITY_PREFIX) for tag in tags):
        return
    request.getfixturevalue("target")
    state = _state(request.config)
    missing = missing_capability(tags, state.supports)
    if missing is not None:
        pytest.skip(unsupported_reason(missing))


@pytest.fixture(autouse=True)
def _destructive_gate(request: pytest.FixtureRequest) -> None:
    """Disable a ``@destructive`` scenario against a live target unless ``--allow-destructive`` was given."""
    node = request.node
    if not isinstance(node, pytest.Item) or node.get_closest_marker(DESTRUCTIVE_TAG) is None:
        return  # a scenario's tags, and its Examples' tags, are its marks
    if request.config.option.conformance_allow_destructive:
        return
    if _state(request.config).settings().url is not None:
        pytest.skip(DESTRUCTIVE_REASON)


@pytest.fixture(autouse=True)
def _scenario_cleanup(pytestconfig: pytest.Config) -> Iterator[None]:
    """After each scenario, delete what it created; what cannot be deleted now is retried at the end of the run."""
    yield
    state = _state(pytestconfig)
    if state.ledger is not None and not state.keep_data:
        state.ledger.cleanup_scenario()
    violations = state.recorder.take_violations()
    if violations:
        raise ContractViolation(violations)


@pytest.hookimpl(tryfirst=True)
def pytest_bdd_after_step(  # noqa: PLR0917 - pluggy passes hook arguments positionally
    request: pytest.FixtureRequest, feature: Any, scenario: Any, step: Any, step_func: Any, step_func_args: Any
) -> None:
    """A step whose traffic broke the API contract fails, even when the step itself only wanted the status."""
    violations = _state(request.config).recorder.take_violations()
    if not violations:
        return
    error = ContractViolation(violations)
    request.config.hook.pytest_bdd_step_error(
        request=request,
        feature=feature,
        scenario=scenario,
        step=step,
        step_func=step_func,
        step_func_args=step_func_args,
        exception=error,
    )
    raise error


def pytest_bdd_step_error(request: pytest.FixtureRequest, exception: Exception) -> None:
    """A step that failed for its own reason also says how its traffic broke the contract, if it did."""
    violations = _state(request.config).recorder.take_violations()
    if violations and not isinstance(exception, ContractViolation):
        exception.add_note(str(ContractViolation(violations)))


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Open a fresh transcript page for the scenario."""
    _state(item.config).recorder.start_page()

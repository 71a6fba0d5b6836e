"""Seeded incidental data: the same seed gives the same values, in any scenario order, and every value
passes a forge's validation; the run's seed reaches workers, reports and the command line."""

from __future__ import annotations

import re
import unicodedata
from types import SimpleNamespace
from typing import Any

from conformance.cli import pytest_arguments
from conformance.parallel import register
from conformance.results import RunResults
from conformance.schemas import validate
from conformance.seeding import LOCALES, MAX_FULL_NAME, SeededData, scenario_seed

# Gitea's own check of an e-mail address (the reference server uses the same pattern).
GITEA_EMAIL = re.compile(
    r"^[a-zA-Z0-9.!#$%&'*+\-/=?^_`{|}~]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
    r"(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$"
)


def _draws(seed: int) -> list[Any]:
    data = SeededData(seed)
    return [
        data.full_name(),
        data.email("ckabc123-7-alice"),
        data.company(),
        data.sentence(),
        data.paragraph(),
        data.text(),
        data.data(16),
    ]


def test_a_seed_gives_the_same_values_every_time() -> None:
    assert _draws(42) == _draws(42)
    assert _draws(42) != _draws(43)


def test_a_scenario_draws_the_same_whatever_ran_before_it() -> None:
    """Workers run scenarios in any order: interleaving another scenario's draws changes nothing."""
    alone = _draws(scenario_seed(7, "issues/issues::A title"))
    _draws(scenario_seed(7, "pulls/reviews::Another"))
    again = _draws(scenario_seed(7, "issues/issues::A title"))
    assert alone == again


def test_scenario_seeds_depend_on_the_run_seed_and_the_scenario() -> None:
    first = scenario_seed(7, "a::b")
    assert first == scenario_seed(7, "a::b")
    assert first != scenario_seed(8, "a::b")
    assert first != scenario_seed(7, "a::c")


def test_e_mail_addresses_are_ascii_and_valid_for_gitea() -> None:
    for seed in range(200):
        address = SeededData(seed).email("ckabc123-12-alice")
        assert address.isascii() and GITEA_EMAIL.match(address), address
        assert address.split("@", 1)[0].endswith(".ckabc123-12-alice"), "the unique part keeps addresses apart"


def test_names_stay_within_gitea_limits_and_vary_in_script() -> None:
    scripts: set[str] = set()
    for seed in range(200):
        data = SeededData(seed)
        name, company = data.full_name(), data.company()
        assert 0 < len(name) <= MAX_FULL_NAME and 0 < len(company) <= MAX_FULL_NAME
        scripts |= {unicodedata.name(char).split()[0] for char in name if char.isalpha()}
    assert {"LATIN", "CYRILLIC", "ARABIC", "CJK"} <= scripts, scripts


def test_texts_come_in_every_locale() -> None:
    data = SeededData(1)
    for locale in LOCALES:
        assert data.paragraph(locale).strip(), locale
        assert data.text(locale).endswith("\n"), locale


def test_binary_contents_have_the_size_asked() -> None:
    assert len(SeededData(3).data(1024 * 1024)) == 1024 * 1024


def test_a_worker_adopts_the_controllers_seed() -> None:
    pluginmanager = SimpleNamespace(register=lambda plugin, name: None)
    workerinput = {"workerid": "gw1", "workercount": 2, "conformance_run_prefix": "ckabc123", "conformance_seed": 99}
    config: Any = SimpleNamespace(workerinput=workerinput, pluginmanager=pluginmanager)
    state: Any = SimpleNamespace(run_prefix="ckzzzzzz", seed=1, results=RunResults(), sequence=None)
    register(config, state)
    assert (state.seed, state.results.seed, state.run_prefix) == (99, 99, "ckabc123")


def test_the_seed_is_in_results_json() -> None:
    results = RunResults(kit_version="1", run_prefix="ckabc123", seed=123456, started="2026-01-01T00:00:00+00:00")
    results.profile = {"name": "reference", "chosen_by": "default", "description": "", "file": None}
    document = results.as_dict()
    assert document["seed"] == 123456
    validate(document, "results.schema")


def test_the_command_passes_the_seed_to_pytest() -> None:
    arguments = pytest_arguments(["--seed", "31337"])
    assert arguments[arguments.index("--seed") + 1] == "31337"

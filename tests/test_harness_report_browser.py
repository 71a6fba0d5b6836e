"""report.html in a real browser (headless Chromium): the filters hide the right rows, from the URL hash and from
the form, with no server (``file://``).

Chromium is driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``: JSON messages
ending in NUL on file descriptors 3 and 4), so no extra package is needed. Without Chromium the tests
skip, except when ``CONFORMANCE_REQUIRE_CHROMIUM`` is set (``.ci/run``), where its absence fails.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance.comparison import compare
from conformance.report_html import render_report
from conformance.results import RunResults, ScenarioResult

CHROMIUM = next(
    (path for name in ("chromium", "chromium-browser", "google-chrome") if (path := shutil.which(name))), None
)
REQUIRE_VARIABLE = "CONFORMANCE_REQUIRE_CHROMIUM"

if CHROMIUM is None and os.environ.get(REQUIRE_VARIABLE):
    pytest.fail(f"{REQUIRE_VARIABLE} is set but no chromium is on the PATH", pytrace=False)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="headless Chromium is not installed (apt-get install chromium)"
)


class Browser:
    """One headless Chromium page, driven over the DevTools protocol on a pipe."""

    def __init__(self, profile_dir: Path) -> None:
        to_browser_read, self._to_browser = os.pipe()
        self._from_browser, from_browser_write = os.pipe()

        def plumb() -> None:
            """In the child: the pipe ends onto descriptors 3 and 4 (inheritable), wherever they were."""
            reading = fcntl.fcntl(to_browser_read, fcntl.F_DUPFD, 10)  # above 4 first: the ends may be 3 or 4
            writing = fcntl.fcntl(from_browser_write, fcntl.F_DUPFD, 10)
            os.dup2(reading, 3)
            os.dup2(writing, 4)

        assert CHROMIUM is not None
        self.process = subprocess.Popen(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--remote-debugging-pipe",
                f"--user-data-dir={profile_dir}",
                "about:blank",
            ],
            preexec_fn=plumb,  # noqa: PLW1509 (no threads are started before it runs)
            close_fds=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._buffer = b""
        self._next_id = 0
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(target for target in targets if target["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]

    def call(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        """Send one command and wait for its answer (events in between are dropped)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            while b"\0" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\0", 1)
                answer = json.loads(raw)
                if answer.get("id") == self._next_id:
                    if "error" in answer:
                        raise RuntimeError(f"{method}: {answer['error']}")
                    result: dict[str, Any] = answer["result"]
                    return result
            chunk = os.read(self._from_browser, 65536)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self._buffer += chunk
        raise TimeoutError(method)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        answer = self.call(
            "Runtime.evaluate", session=self.session, expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in answer:
            raise RuntimeError(f"{expression}: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    def open(self, url: str) -> None:
        """Load a page and wait until its script ran."""
        self.call("Page.navigate", session=self.session, url=url)
        deadline = time.monotonic() + 20
        while self.evaluate("document.readyState") != "complete" or self.evaluate("location.href") != url:
            if time.monotonic() > deadline:
                raise TimeoutError(url)
            time.sleep(0.05)

    def visible(self) -> list[str]:
        """The ids of the scenario rows shown."""
        ids: list[str] = self.evaluate(
            "Array.from(document.querySelectorAll('tr[data-sid]')).filter(r => !r.hidden && r.offsetParent)"
            ".map(r => r.dataset.sid)"
        )
        return ids

    def close(self) -> None:
        """End the browser (closing its pipe makes it quit) and reap it."""
        os.close(self._to_browser)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._from_browser)


def _scenario(sid: str, outcome: str, area: str, tags: list[str], message: str = "") -> ScenarioResult:
    return ScenarioResult(
        id=sid,
        feature="F",
        feature_file=f"{area}/f.feature",
        name=sid.split("::")[1],
        area=area,
        tags=sorted([area, *tags]),
        clauses=[],
        outcome=outcome,
        duration=0.2,
        message=message,
    )


SCENARIOS = [
    _scenario("users/a::Create a user", "passed", "users", ["gitea"]),
    _scenario("users/a::Delete a user", "failed", "users", ["spec", "clause_S9_1"], "expected status 204, got 500"),
    _scenario("users/a::Rename a user", "error", "users", ["gitea"], "ConnectionError: refused"),
    _scenario("pins/p::Pin an issue", "failed", "pins", ["gitea"], "expected 201, got 422"),
    _scenario("pins/p::Unpin an issue", "passed", "pins", ["spec", "clause_S9_10"]),
    _scenario("activitypub/a::Actor", "unsupported", "activitypub", ["reference", "capability_activitypub"]),
    _scenario("tokens/t::Token with scopes", "passed", "tokens", ["gitea"]),
    _scenario("tokens/t::Old token", "disabled", "tokens", ["gitea", "slow"], "disabled: not selected"),
]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A report of eight scenarios over four areas, compared with a baseline."""
    results = RunResults(target_url="http://forge.test/", target_version="1.27.3", started="2026-11-28T09:00:00+00:00")
    results.profile = {"name": "gitea-1.27", "chosen_by": "--profile", "description": "", "file": None}
    results.scenarios = SCENARIOS
    document = results.as_dict()
    baseline = {**document, "scenarios": [{**s, "outcome": "passed"} for s in document["scenarios"]]}
    document["comparison"] = compare(document, baseline)
    path = tmp_path_factory.mktemp("report") / "report.html"
    path.write_text(render_report(document), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """One headless Chromium for the module."""
    opened = Browser(tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield opened
    finally:
        opened.close()


ALL = [s.id for s in SCENARIOS]
RAN = [s.id for s in SCENARIOS if s.outcome != "disabled"]


@pytest.mark.parametrize(
    ("fragment", "shown"),
    [
        ("", RAN),
        ("#outcome=all", ALL),
        ("#outcome=disabled", ["tokens/t::Old token"]),
        ("#outcome=failed", ["users/a::Delete a user", "pins/p::Pin an issue"]),
        ("#area=pins", ["pins/p::Pin an issue", "pins/p::Unpin an issue"]),
        ("#tag=spec", ["users/a::Delete a user", "pins/p::Unpin an issue"]),
        ("#tag=clause_S9_1", ["users/a::Delete a user"]),
        ("#capability=activitypub", ["activitypub/a::Actor"]),
        ("#q=got%20500", ["users/a::Delete a user"]),
        ("#q=TOKEN", ["tokens/t::Token with scopes"]),
        ("#outcome=all&q=TOKEN", ["tokens/t::Token with scopes", "tokens/t::Old token"]),
        ("#area=no%20such%20area", []),
        ("#outcome=passed&area=users", ["users/a::Create a user"]),
        ("#outcome=failed&area=tokens", []),
    ],
)
def test_a_filter_in_the_address_shows_only_the_matching_rows(
    browser: Browser, report: Path, fragment: str, shown: list[str]
) -> None:
    browser.open(report.as_uri() + fragment)
    assert browser.visible() == shown
    status = browser.evaluate("document.getElementById('filter-status').textContent")
    assert status.startswith(f"Showing {len(shown)} of {len(ALL)} scenarios"), status


def test_choosing_in_the_form_filters_and_keeps_the_state_in_the_address(browser: Browser, report: Path) -> None:
    browser.open(report.as_uri())
    assert browser.evaluate("document.getElementById('filters').hidden") is False, "the script reveals the form"
    browser.evaluate(
        "(() => { const s = document.querySelector('#filters select[name=outcome]');"
        " s.value = 'failed'; s.dispatchEvent(new Event('change', {bubbles: true})); })()"
    )
    assert browser.visible() == ["users/a::Delete a user", "pins/p::Pin an issue"]
    failures = browser.evaluate(
        "Array.from(document.querySelectorAll('div.failure')).filter(d => !d.hidden).map(d => d.dataset.sid)"
    )
    assert failures == ["users/a::Delete a user", "pins/p::Pin an issue"], "the failure blocks follow the filter"
    browser.evaluate(
        "(() => { const q = document.querySelector('#filters input[name=q]');"
        " q.value = 'pin'; q.dispatchEvent(new Event('input', {bubbles: true})); })()"
    )
    assert browser.visible() == ["pins/p::Pin an issue"]
    assert browser.evaluate("location.hash") == "#outcome=failed&q=pin"
    status = browser.evaluate("document.getElementById('filter-status').textContent")
    assert status == "Showing 1 of 8 scenarios: 1 failed."
    browser.evaluate("document.querySelector('#filters button[type=reset]').click()")
    browser.evaluate("new Promise(r => setTimeout(r, 50))")
    assert browser.visible() == RAN and browser.evaluate("location.hash") == ""


def test_a_bar_of_the_area_chart_filters_the_list(browser: Browser, report: Path) -> None:
    browser.open(report.as_uri())
    link = browser.evaluate("document.querySelector('svg a[href=\"#area=users&outcome=error\"]') !== null")
    assert link, "each segment links to its area and outcome"
    browser.evaluate("(() => { location.hash = 'area=users&outcome=error'; })()")
    browser.evaluate("new Promise(r => setTimeout(r, 100))")
    assert browser.visible() == ["users/a::Rename a user"]
    assert browser.evaluate("document.querySelector('#filters select[name=area]').value") == "users"

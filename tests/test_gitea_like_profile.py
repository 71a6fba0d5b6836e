"""A target that answers as Gitea 1.27.3 does where the specification differs gets no failure under its profile.

The target is the reference server behind a WSGI middleware that answers the recorded differences as
Gitea does: the version ``1.27.3``, the plain application version as the description's ``info.version``,
400 for a signature that cannot be decoded, 404 for a raw zip URL whose signature does not match, no
legacy GET registration-token routes, the legacy count headers on the commit list, connect-go's
plain-text 404 for a procedure the runner service lacks, and 404 under /activitypub and for /nodeinfo
(federation disabled, Gitea's default).
The conformance command, given only the URL, must pick ``gitea-1.27`` and report every difference as
an expected failure, not a failure.
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest
from waitress.server import create_server

from conformance.expectations import load_expectations
from conformance.profiles import EXPECTATIONS_DIR
from reference_server.app import create_app
from reference_server.config import Config
from reference_server.passwords import FAST_COST

GITEA_VERSION = "1.27.3"
ADMIN_TOKEN = "5d1e0c4b3a29f8e7d6c5b4a3928170f6e5d4c3b2"
ARTIFACT_SERVICE = "/twirp/github.actions.results.api.v1.ArtifactService/"
RUNNER_SERVICE = "/api/actions/runner.v1.RunnerService/"
RUNNER_PROCEDURES = frozenset({"Register", "Declare", "FetchTask", "UpdateTask", "UpdateLog"})
LEGACY_REGISTRATION = re.compile(
    r"^/api/v1/(admin|user|orgs/[^/]+|repos/[^/]+/[^/]+)(/actions)?/runners/registration-token$"
)
RAW_ZIP = re.compile(r"^/api/v1/repos/[^/]+/[^/]+/actions/artifacts/\d+/zip/raw$")
COMMIT_LIST = re.compile(r"^/api/v1/repos/[^/]+/[^/]+/commits$")
# Go's base64.RawURLEncoding (lenient about the last character's padding bits): its alphabet, no '=',
# and never a length that leaves one character alone in its group of four.
GO_RAW_URL_BASE64 = re.compile(r"^[A-Za-z0-9_-]*$")

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def _go_decodes(sig: str) -> bool:
    """Whether Go's ``base64.RawURLEncoding.DecodeString`` accepts ``sig``."""
    return bool(GO_RAW_URL_BASE64.match(sig)) and len(sig) % 4 != 1


def _is_int64(text: str) -> bool:
    return bool(re.fullmatch(r"[+-]?\d{1,19}", text))


class GiteaLike:
    """WSGI middleware: the reference, answering the recorded differences as Gitea 1.27.3 does."""

    def __init__(self, inner: WsgiApp) -> None:
        self.inner = inner

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        path, method = environ.get("PATH_INFO", ""), environ["REQUEST_METHOD"]
        if path == "/api/v1/version" and method == "GET":
            return self._json(start_response, 200, {"version": GITEA_VERSION})
        if path in ("/swagger.v1.json", "/openapi3.v1.json") and method == "GET":
            return self._plain_info_version(environ, start_response)
        if path.startswith(ARTIFACT_SERVICE) and path.endswith(("/UploadArtifact", "/DownloadArtifact")):
            query = parse_qs(environ.get("QUERY_STRING", ""), keep_blank_values=True)
            sig = query.get("sig", [""])[0]
            ids = (query.get("taskID", [""])[0], query.get("artifactID", [""])[0])
            if not _go_decodes(sig) or not all(_is_int64(value) for value in ids):
                return self._text(start_response, 400, "Error decoding signature values\n")
        if path.startswith("/api/v1/activitypub/") or path == "/api/v1/nodeinfo":
            return self._forward(environ, start_response, "/api/v1/federation-disabled")
        if method == "GET" and LEGACY_REGISTRATION.match(path):
            return self._forward(environ, start_response, path + "-removed-in-1.26")
        if path.startswith(RUNNER_SERVICE) and path.removeprefix(RUNNER_SERVICE) not in RUNNER_PROCEDURES:
            return self._text(start_response, 404, "404 page not found\n")
        if method == "GET" and RAW_ZIP.match(path):
            return self._raw_zip(environ, start_response)
        if method == "GET" and COMMIT_LIST.match(path):
            return self._legacy_count_headers(environ, start_response)
        return self.inner(environ, start_response)

    @staticmethod
    def _json(start_response: StartResponse, status: int, body: Any) -> list[bytes]:
        data = json.dumps(body).encode()
        start_response(f"{status} X", [("Content-Type", "application/json"), ("Content-Length", str(len(data)))])
        return [data]

    @staticmethod
    def _text(start_response: StartResponse, status: int, text: str) -> list[bytes]:
        data = text.encode()
        headers = [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(data)))]
        start_response(f"{status} X", headers)
        return [data]

    def _captured(self, environ: dict[str, Any]) -> tuple[str, list[tuple[str, str]], bytes]:
        """The inner app's whole answer: status line, headers, body."""
        seen: dict[str, Any] = {}

        def capture(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
            seen["status"], seen["headers"] = status, headers

        body = b"".join(self.inner(environ, capture))
        return seen["status"], seen["headers"], body

    def _forward(self, environ: dict[str, Any], start_response: StartResponse, path: str) -> Iterable[bytes]:
        """The reference's own answer for ``path`` (a route it does not have: its 404 body)."""
        return self.inner({**environ, "PATH_INFO": path}, start_response)

    def _plain_info_version(self, environ: dict[str, Any], start_response: StartResponse) -> list[bytes]:
        status, headers, body = self._captured(environ)
        document = json.loads(body)
        document["info"]["version"] = GITEA_VERSION
        data = json.dumps(document).encode()
        kept = [(key, value) for key, value in headers if key.lower() not in ("content-length", "etag")]
        start_response(status, [*kept, ("Content-Length", str(len(data)))])
        return [data]

    def _raw_zip(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        """Gitea checks the raw zip's signature first (#39049): a bad one is 404, only an expired link 401."""
        status, headers, body = self._captured(environ)
        expires = parse_qs(environ.get("QUERY_STRING", "")).get("expires", [""])[0]
        if status.startswith("401") and not (expires.isdigit() and int(expires) < time.time()):
            return self._forward(environ, start_response, "/api/v1/signature-not-matched")
        start_response(status, headers)
        return [body]

    def _legacy_count_headers(self, environ: dict[str, Any], start_response: StartResponse) -> list[bytes]:
        status, headers, body = self._captured(environ)
        total = dict((key.lower(), value) for key, value in headers).get("x-total-count")
        extra = [("X-Total", total), ("X-HasMore", "false")] if total is not None else []
        start_response(status, [*headers, *extra])
        return [body]


@contextlib.contextmanager
def gitea_like_forge(data_dir: Path) -> Iterator[str]:
    """The reference behind :class:`GiteaLike` on a free port; yields its base URL."""
    config = Config(data_dir=data_dir, base_url="http://127.0.0.1:1/", admin_token=ADMIN_TOKEN, password_cost=FAST_COST)
    app = create_app(config)
    server = create_server(GiteaLike(app), host="127.0.0.1", port=0, threads=8)
    config.base_url = f"http://127.0.0.1:{server.effective_port}/"

    def serve() -> None:
        with contextlib.suppress(OSError, ValueError):
            server.run()

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield config.base_url
    finally:
        server.close()
        app.extensions["forge"].db.close()


# The scenarios where the reference and Gitea differ, and a few neighbours that must pass on both.
AREAS = "api_description or artifacts or runners or commits or activitypub"
NAMES = (
    "application_version or url_that_was_changed or raw_zip_url or legacy_get or never_sends or further_count_header"
    " or procedure or the_version_is_public or 501 or activitypub_scope or zip_endpoint_redirects"
)


SIGNED_URL = "artifacts/signed_urls::A signed download URL that was changed is refused with 401"
PLAYED = (
    "api_description/description::The description's info.version carries the application version",
    f"{SIGNED_URL}[a truncated signature]",
    f"{SIGNED_URL}[a padded signature]",
    "runners/registration_tokens::The legacy GET still gives a registration token",
    "commits/commit_list::The commit list gives its total in X-Total-Count and never sends X-Total",
    "artifacts/rest_artifacts::The raw zip URL without its signature is refused with 401",
    "artifacts/signed_urls::A signed REST zip URL that was changed is refused with 401[a changed expiry]",
    "activitypub/not_implemented::The nodeinfo answers 501",
    "activitypub/not_implemented::A signed-in user gets 501 as well",
)


@pytest.mark.parametrize(("text", "decodes"), [("", True), ("abcd_-", True), ("abcde", False), ("ab=", False)])
def test_go_raw_url_decoding_is_modelled(text: str, decodes: bool) -> None:
    assert _go_decodes(text) is decodes


@pytest.mark.slow
def test_a_gitea_like_target_gets_its_profile_and_no_failure(tmp_path: Path) -> None:
    with gitea_like_forge(tmp_path / "forge") as url:
        command = [sys.executable, "-m", "conformance.cli", "-n", "1", "--report-dir", "reports"]
        completed = subprocess.run(
            [*command, "--target", url, "--token", ADMIN_TOKEN, "-m", AREAS, "-k", NAMES],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
    results = json.loads((tmp_path / "reports" / "results.json").read_text(encoding="utf-8"))
    outcomes = {scenario["id"]: scenario["outcome"] for scenario in results["scenarios"]}
    ran = {scenario_id: outcome for scenario_id, outcome in outcomes.items() if outcome != "disabled"}
    assert results["profile"]["name"] == "gitea-1.27", results["profile"]
    assert results["target"]["version"] == GITEA_VERSION
    failed = sorted(scenario_id for scenario_id, outcome in ran.items() if outcome in ("failed", "error"))
    assert not failed, f"{failed}\n{completed.stdout[-3000:]}"
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-2000:]
    expected = sorted(scenario_id for scenario_id, outcome in ran.items() if outcome == "expected-failure")
    entries = load_expectations(EXPECTATIONS_DIR / "gitea-1.27.yaml")
    # every difference the middleware plays was run, failed as the entry says, and nothing else was excused
    assert expected == sorted(scenario_id for scenario_id in ran if entries.for_scenario(scenario_id)), expected
    assert set(PLAYED) <= set(expected), sorted(set(PLAYED) - set(expected))
    assert "runners/runner_protocol::A procedure the runner service does not have is unimplemented" in ran
    assert ran["runners/runner_protocol::A procedure the runner service does not have is unimplemented"] == "passed"
    assert sum(outcome == "passed" for outcome in ran.values()) >= 6, ran

"""Licenses family: the classifier, the license file names, and recomputation on the events that matter."""

from __future__ import annotations

import base64
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from reference_server.events import DefaultBranchChangedEvent, PushEvent, RepoCreatedEvent
from reference_server.licenses import classifier, models
from reference_server.templates.models import spdx_licenses

API = "/api/v1"


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    return {key: license.text for key, license in spdx_licenses().items()}


def test_classifier_finds_each_common_license(texts: dict[str, str]) -> None:
    for key in ("MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "ISC", "MPL-2.0", "Unlicense", "0BSD"):
        assert classifier.classify(texts[key]) == [key], key


def test_a_filled_in_copyright_line_does_not_matter(texts: dict[str, str]) -> None:
    filled = texts["MIT"].replace("<year>", "2031").replace("<copyright holders>", "Example Corp")
    assert classifier.classify(filled) == ["MIT"]


def test_a_file_with_two_licenses_reports_both_sorted(texts: dict[str, str]) -> None:
    assert classifier.classify(texts["MIT"] + "\n\n" + texts["Apache-2.0"]) == ["Apache-2.0", "MIT"]


def test_identical_texts_report_the_first_current_identifier(texts: dict[str, str]) -> None:
    assert classifier.classify(texts["GPL-3.0-or-later"]) == ["GPL-3.0-only"]


def test_no_license_and_a_fragment_give_nothing(texts: dict[str, str]) -> None:
    assert classifier.classify("") == []
    assert classifier.classify("All rights reserved. Do not copy.") == []
    half = texts["Apache-2.0"][: len(texts["Apache-2.0"]) // 2]
    assert classifier.classify(half) == []


def test_classifying_is_fast_once_the_index_is_built(texts: dict[str, str]) -> None:
    classifier.classify(texts["MIT"])
    started = time.perf_counter()
    for _ in range(20):
        classifier.classify(texts["GPL-3.0-only"])
    assert (time.perf_counter() - started) / 20 < 0.1


@pytest.mark.parametrize(
    ("name", "counts"),
    [
        ("LICENSE", True),
        ("license.md", True),
        ("LICENCE.txt", True),
        ("COPYING", True),
        ("UNLICENSE.rst", True),
        ("LICENSE.html", False),
        ("MY-LICENSE", False),
        ("README.md", False),
    ],
)
def test_license_file_names(name: str, counts: bool) -> None:
    assert models.is_license_file(name) is counts


@pytest.fixture
def repo_path(client: FlaskClient, admin_headers: dict[str, str]) -> Iterator[str]:
    created = client.post(f"{API}/user/repos", headers=admin_headers, json={"name": "lic", "auto_init": True})
    assert created.status_code == 201 and created.json is not None
    yield f"{API}/repos/{created.json['full_name']}"


def _commit(client: FlaskClient, headers: dict[str, str], path: str, text: str, **extra: str) -> None:
    body = {"content": base64.b64encode(text.encode()).decode(), **extra}
    response = client.post(path, headers=headers, json=body)
    assert response.status_code == 201, response.json


def test_pushes_to_the_default_branch_and_deletion_recompute(
    client: FlaskClient, admin_headers: dict[str, str], repo_path: str, texts: dict[str, str]
) -> None:
    assert client.get(f"{repo_path}/licenses", headers=admin_headers).json == []
    _commit(client, admin_headers, f"{repo_path}/contents/LICENSE", texts["MIT"])
    assert client.get(f"{repo_path}/licenses", headers=admin_headers).json == ["MIT"]
    assert (client.get(repo_path, headers=admin_headers).json or {})["licenses"] == ["MIT"]
    sha = (client.get(f"{repo_path}/contents/LICENSE", headers=admin_headers).json or {})["sha"]
    deleted = client.delete(f"{repo_path}/contents/LICENSE", headers=admin_headers, json={"sha": sha})
    assert deleted.status_code == 200
    assert client.get(f"{repo_path}/licenses", headers=admin_headers).json == []


def test_other_branches_do_not_count_until_they_become_the_default(
    app: Flask, client: FlaskClient, admin_headers: dict[str, str], repo_path: str, texts: dict[str, str]
) -> None:
    _commit(client, admin_headers, f"{repo_path}/contents/COPYING", texts["ISC"], new_branch="dev")
    assert client.get(f"{repo_path}/licenses", headers=admin_headers).json == []
    with app.test_request_context():
        from reference_server.repos.models import get_repo_by_id, set_default_branch

        forge = app.extensions["forge"]
        repo_id = int(forge.db.scalar("SELECT id FROM repos WHERE lower_name = 'lic'"))
        set_default_branch(get_repo_by_id(repo_id), "dev")
        forge.events.publish(DefaultBranchChangedEvent(repo_id, "main", "dev"))
        assert models.repo_licenses(repo_id) == ["ISC"]


def test_a_commit_that_touches_no_license_file_moves_the_commit_without_reading_the_tree(
    app: Flask,
    client: FlaskClient,
    *,
    admin_headers: dict[str, str],
    repo_path: str,
    texts: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _commit(client, admin_headers, f"{repo_path}/contents/LICENSE", texts["MIT"])
    detections: list[object] = []
    original = models._detect

    def counting(*args: Any) -> list[str]:
        detections.append(args)
        return original(*args)

    monkeypatch.setattr(models, "_detect", counting)
    _commit(client, admin_headers, f"{repo_path}/contents/docs/LICENSE", texts["ISC"])  # not at the root
    assert detections == [] and client.get(f"{repo_path}/licenses", headers=admin_headers).json == ["MIT"]
    head = (client.get(f"{repo_path}/branches/main", headers=admin_headers).json or {})["commit"]["id"]
    with app.test_request_context():
        forge = app.extensions["forge"]
        stored = forge.db.scalar("SELECT commit_sha FROM repo_license WHERE licenses = 'MIT'")
        assert stored == head, "the stored licenses describe the new head"
        repo_id = int(forge.db.scalar("SELECT id FROM repos WHERE lower_name = 'lic'"))
        forge.events.publish(PushEvent(repo_id, "refs/heads/main", head, head, 1))  # a push: paths unknown
    assert len(detections) == 1, "a push whose paths are not known is examined"
    _commit(client, admin_headers, f"{repo_path}/contents/COPYING", texts["ISC"])
    assert len(detections) == 2 and client.get(f"{repo_path}/licenses", headers=admin_headers).json == ["ISC", "MIT"]


def test_events_for_a_vanished_repository_are_ignored(app: Flask) -> None:
    with app.test_request_context():
        events = app.extensions["forge"].events
        events.publish(PushEvent(999, "refs/heads/main", "0" * 40, "1" * 40, 1))
        events.publish(RepoCreatedEvent(999, "mirror"))
        assert models.repo_licenses(999) == []


def test_results_are_cached_per_blob(
    app: Flask, client: FlaskClient, admin_headers: dict[str, str], repo_path: str, texts: dict[str, str]
) -> None:
    _commit(client, admin_headers, f"{repo_path}/contents/LICENSE", texts["MIT"])
    cache = app.extensions["license_blob_cache"]
    assert isinstance(cache, models.BlobLicenseCache)
    sha = (client.get(f"{repo_path}/contents/LICENSE", headers=admin_headers).json or {})["sha"]
    assert cache.get(sha) == ("MIT",)


def test_the_cache_drops_the_least_recently_used() -> None:
    cache = models.BlobLicenseCache(size=2)
    cache.put("a", ("MIT",))
    cache.put("b", ())
    assert cache.get("a") == ("MIT",)
    cache.put("c", ("ISC",))
    assert cache.get("b") is None and cache.get("a") == ("MIT",) and cache.get("c") == ("ISC",)


def test_private_repository_licenses_are_hidden(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    body = {"name": "secret", "auto_init": True, "license": "MIT", "private": True}
    created = client.post(f"{API}/user/repos", headers=admin_headers, json=body)
    assert created.status_code == 201 and created.json is not None
    assert created.json["licenses"] == ["MIT"]
    assert client.get(f"{API}/repos/{created.json['full_name']}/licenses").status_code == 404

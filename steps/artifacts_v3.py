"""Steps of the legacy artifact protocol (v3, ``@actions/artifact`` 1.x) of a running job.

Given steps upload through the same raw operations the When steps send (``conformance.api.artifacts_v3``),
each checking that the forge accepted them; When steps send one request and keep its response; Then steps
read it (a Then step may fetch what the server holds now, without changing anything). The refusals on these
routes are plain text, as Gitea writes them, so they have their own Then step instead of the REST error check.
"""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
import requests
from pytest_bdd import given, then, when

from conformance.api.artifacts_v3 import LegacyArtifactApi, artifact_hash
from conformance.capabilities import register_probe
from conformance.client import HttpClient, json_of
from conformance.context import ScenarioContext
from conformance.schemas import validate
from steps.artifacts import ArtifactWorld, expand_controls
from steps.parsing import phrase

__all__ = ["LegacyWorld"]

PROBE_PATH = "api/actions_pipeline/_apis/pipelines/workflows/0/artifacts?api-version=6.0-preview"
DOWNLOAD_ID = re.compile(r"/artifacts/(\d+)/download$")


@register_probe("artifacts_v3")
def _artifacts_v3_probe(admin: HttpClient) -> bool:
    """A forge serving the v3 protocol refuses an unauthenticated container request (401); one without it
    has no such route (404)."""
    site = admin.base_url.rstrip("/").removesuffix("/api/v1") + "/"
    try:
        response = admin.with_auth(None).post(site + PROBE_PATH, json={"Type": "actions_storage", "Name": "probe"})
    except requests.RequestException:
        return False
    return response.status_code not in (404, 405, 501)


@dataclass
class LegacyWorld:
    """The v3 steps' state: each artifact's upload URL, and the file ids the item listings gave."""

    artifacts: ArtifactWorld
    upload_urls: dict[str, str] = field(default_factory=dict)
    file_urls: dict[tuple[str, str], str] = field(default_factory=dict)

    def api(self, who: str = "job") -> LegacyArtifactApi:
        """Raw v3 calls of the job, recorded in the scenario's transcript (its token masked)."""
        job = self.artifacts.job(who)
        recorder = self.artifacts.ctx.admin.http.recorder
        recorder.add_secret(job.runtime_token)
        http = HttpClient(self.artifacts.ctx.admin.site_url, None, recorder=recorder)
        return LegacyArtifactApi(http, job.runtime_token, job.run_id)

    def upload_url(self, name: str) -> str:
        """The container URL of ``name``, created on first use."""
        if name not in self.upload_urls:
            response = self.api().create(name)
            body = _ok(response, "creating the v3 container")
            validate(body, "legacy_artifact_container")
            self.upload_urls[name] = str(body["fileContainerResourceUrl"])
        return self.upload_urls[name]

    def file_url(self, name: str, path: str) -> str:
        """The download URL of one confirmed file, from the artifact's item listing."""
        if (name, path) not in self.file_urls:
            body = _ok(self.api().items(name), f'listing the files of "{name}"')
            validate(body, "legacy_artifact_items")
            for item in body["value"]:
                self.file_urls[(name, str(item["path"]).removeprefix(name + "/"))] = str(item["contentLocation"])
        url = self.file_urls.get((name, path))
        assert url is not None, f'the v3 artifact "{name}" has no file "{path}": {sorted(self.file_urls)}'
        return url


@pytest.fixture
def legacy(artifacts: ArtifactWorld) -> LegacyWorld:
    """The scenario's v3 artifact state."""
    return LegacyWorld(artifacts)


def _ok(response: requests.Response, what: str) -> Any:
    assert response.status_code == 200, f"{what} answered {response.status_code}: {response.text[:300]}"
    return json_of(response)


def _put(legacy: LegacyWorld, name: str, path: str, data: bytes, content_range: str, **options: Any) -> None:
    response = legacy.api().put_chunk(legacy.upload_url(name), f"{name}/{path}", data, content_range, **options)
    body = _ok(response, f"uploading {name}/{path}")
    validate(body, "legacy_artifact_message")


# ---------------------------------------------------------------- Given


@given(phrase('the job has uploaded the file "{path}" holding "{text}" to the v3 artifact "{name}"'))
def given_file(legacy: LegacyWorld, path: str, text: str, name: str) -> None:
    """One file in one chunk, as the v3 client sends a small file it could not shrink."""
    data = text.encode("utf-8")
    _put(legacy, name, path, data, f"bytes 0-{len(data) - 1}/{len(data)}" if data else "bytes 0--1/0")


@given(phrase('the job has uploaded the file "{path}" holding "{text}" gzip\'ed to the v3 artifact "{name}"'))
def given_gzipped_file(legacy: LegacyWorld, path: str, text: str, name: str) -> None:
    """One file sent gzip'ed (``Content-Encoding: gzip``, ``x-tfs-filelength`` the original size)."""
    original = text.encode("utf-8")
    packed = gzip.compress(original, mtime=0)
    _put(legacy, name, path, packed, f"bytes 0-{len(packed) - 1}/{len(packed)}", gzipped_from=len(original))


@given(
    phrase(
        'the job has uploaded "{text}" as bytes {start:d} to {end:d} of {total:d}'
        ' of "{path}" in the v3 artifact "{name}"'
    )
)
def given_chunk(legacy: LegacyWorld, *, text: str, start: int, end: int, total: int, path: str, name: str) -> None:
    """One chunk of a file, as the v3 client sends files over 8 MiB (in any order, concurrently)."""
    _put(legacy, name, path, text.encode("utf-8"), f"bytes {start}-{end}/{total}")


@given(phrase('the job has confirmed the v3 artifact "{name}"'))
def given_confirmed(legacy: LegacyWorld, name: str) -> None:
    """The size PATCH, which merges the chunks."""
    validate(_ok(legacy.api().confirm(name), f'confirming "{name}"'), "legacy_artifact_message")


@given(phrase('the REST id of the v3 file "{path}" of "{name}" is known as "{label}"'))
def given_rest_id(legacy: LegacyWorld, path: str, name: str, label: str) -> None:
    """A v3 file's database id (from its download URL), for the REST steps that take an artifact by name."""
    match = DOWNLOAD_ID.search(legacy.file_url(name, path))
    assert match is not None, f"the download URL of {name}/{path} carries no id: {legacy.file_url(name, path)}"
    legacy.artifacts.notes().ids[label] = int(match.group(1))


# ---------------------------------------------------------------- When


@when(phrase('the job creates the v3 artifact "{name}"'))
def create(ctx: ScenarioContext, legacy: LegacyWorld, name: str) -> None:
    ctx.response = legacy.api().create(name)


@when(phrase('the job creates the v3 artifact "{name}" under another run id'))
def create_elsewhere(ctx: ScenarioContext, legacy: LegacyWorld, name: str) -> None:
    ctx.response = legacy.api().create(name, run_id=legacy.artifacts.job().run_id + 1)


@when(phrase('the job creates the v3 artifact "{name}" without a token'))
def create_anonymous(ctx: ScenarioContext, legacy: LegacyWorld, name: str) -> None:
    ctx.response = legacy.api().create(name, authorization="")


@when(phrase('the job creates the v3 artifact "{name}" with a forged token'))
def create_forged(ctx: ScenarioContext, legacy: LegacyWorld, name: str) -> None:
    token = legacy.artifacts.job().runtime_token
    forged = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    ctx.response = legacy.api().create(name, authorization=f"Bearer {forged}")


@when(phrase('the job creates the v3 artifact "{name}" without the api-version'))
def create_unversioned(ctx: ScenarioContext, legacy: LegacyWorld, name: str) -> None:
    ctx.response = legacy.api().create(name, api_version=False)


@when(
    phrase(
        'the job uploads "{text}" to "{item_path}" of the v3 artifact "{name}" with the Content-Range "{content_range}"'
    )
)
def upload_range(
    ctx: ScenarioContext, legacy: LegacyWorld, *, text: str, item_path: str, name: str, content_range: str
) -> None:
    """One PUT with exactly this item path and Content-Range ({EMPTY}: no Content-Range header)."""
    header = expand_controls(content_range)
    ctx.response = legacy.api().put_chunk(
        legacy.upload_url(name), expand_controls(item_path), text.encode("utf-8"), header or None
    )


@when(phrase('the job uploads "{text}" as "{path}" to the upload URL of the v3 artifact "{other}"'))
def upload_wrong_hash(ctx: ScenarioContext, legacy: LegacyWorld, text: str, path: str, other: str) -> None:
    """A PUT whose itemPath names another artifact than the URL's MD5 segment."""
    data = text.encode("utf-8")
    ctx.response = legacy.api().put_chunk(legacy.upload_url(other), path, data, f"bytes 0-{len(data) - 1}/{len(data)}")


@when(phrase('the job confirms the v3 artifact "{name}"'))
def confirm(ctx: ScenarioContext, legacy: LegacyWorld, name: str) -> None:
    ctx.response = legacy.api().confirm(name)


@when(phrase("the job lists its run's v3 artifacts"))
def list_artifacts(ctx: ScenarioContext, legacy: LegacyWorld) -> None:
    ctx.response = legacy.api().list()


@when(phrase('the job lists the files of the v3 artifact "{name}"'))
def list_files(ctx: ScenarioContext, legacy: LegacyWorld, name: str) -> None:
    ctx.response = legacy.api().items(name)


@when(phrase('the job downloads the file "{path}" of the v3 artifact "{name}"'))
def download(ctx: ScenarioContext, legacy: LegacyWorld, path: str, name: str) -> None:
    ctx.response = legacy.api().fetch(legacy.file_url(name, path))


# ---------------------------------------------------------------- Then


@then(phrase('the v3 refusal reads "{message}"'))
def then_refusal(ctx: ScenarioContext, message: str) -> None:
    """Gitea's plain-text refusal (``http.Error``): the message and a newline."""
    response = ctx.last_response()
    assert 400 <= response.status_code < 500, f"expected a refusal, got {response.status_code}"
    assert response.text.strip() == message, f"the refusal reads {response.text.strip()!r}, expected {message!r}"


@then(phrase("the v3 call is refused with status {status:d}"))
def then_refused(ctx: ScenarioContext, status: int) -> None:
    """The status, and a non-empty explanation in the body (never a traceback)."""
    response = ctx.last_response()
    assert response.status_code == status, f"expected {status}, got {response.status_code}: {response.text[:200]}"
    assert response.text.strip(), "the refusal has an empty body"
    assert "Traceback" not in response.text, "the refusal shows a traceback"


@then(phrase('the v3 artifact list holds exactly "{names}"'))
def then_list(ctx: ScenarioContext, names: str) -> None:
    """The names, each once, with the URL listing its files (by the MD5 of the name)."""
    body = _ok(ctx.last_response(), "listing the v3 artifacts")
    validate(body, "legacy_artifact_list")
    listed = [str(item["name"]) for item in body["value"]]
    expected = sorted(name.strip() for name in names.split(","))
    assert sorted(listed) == expected, f"listed {listed}, expected {expected}"
    assert body["count"] == len(expected), f"count is {body['count']}, expected {len(expected)}"
    for item in body["value"]:
        url = str(item["fileContainerResourceUrl"])
        assert url.endswith(f"/{artifact_hash(item['name'])}/download_url"), f"unexpected URL {url}"


@then(phrase('the v3 artifact\'s files are exactly "{paths}"'))
def then_files(ctx: ScenarioContext, paths: str) -> None:
    """The item paths (``<artifact>/<file>``), each a file."""
    body = _ok(ctx.last_response(), "listing the files")
    validate(body, "legacy_artifact_items")
    listed = sorted(str(item["path"]) for item in body["value"])
    assert listed == sorted(path.strip() for path in paths.split(",")), f"listed {listed}"
    assert {item["itemType"] for item in body["value"]} == {"file"}


@then(phrase('the v3 download holds "{text}"'))
def then_download(ctx: ScenarioContext, text: str) -> None:
    """The bytes as the client ends up with them (a gzip'ed answer inflated)."""
    response = ctx.last_response()
    assert response.status_code == 200, f"the download answered {response.status_code}: {response.text[:200]}"
    assert response.content == text.encode("utf-8"), f"downloaded {response.content[:100]!r}"


@then(phrase("the v3 download is sent gzip'ed"))
def then_gzipped(ctx: ScenarioContext) -> None:
    """``Content-Encoding: gzip``: the file is served as it was uploaded, for the client to inflate."""
    encoding = ctx.last_response().headers.get("Content-Encoding", "")
    assert encoding.lower() == "gzip", f"Content-Encoding is {encoding!r}"


@then(phrase('the file "{path}" of the v3 artifact "{name}" downloads as "{text}"'))
def then_file_content(legacy: LegacyWorld, path: str, name: str, text: str) -> None:
    """Fetch the confirmed file now and compare its bytes."""
    response = legacy.api().fetch(legacy.file_url(name, path))
    assert response.status_code == 200, f"the download answered {response.status_code}: {response.text[:200]}"
    assert response.content == text.encode("utf-8"), f"downloaded {response.content[:100]!r}"


@then(phrase("the job's run lists no v3 artifacts"))
def then_none(legacy: LegacyWorld) -> None:
    """Gitea answers an empty run's list with 404."""
    response = legacy.api().list()
    assert response.status_code == 404, f"expected 404 (no artifacts), got {response.status_code}: {response.text}"

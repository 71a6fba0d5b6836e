"""No value from a request reaches the file system outside the data directory.

The app's data directory is ``<tmp>/data``; ``<tmp>`` also holds a sentinel file, and every hostile
value aims at ``<tmp>`` (``../``, ``../../``, absolute paths into it, NUL bytes, ``refs/../..``,
encoded dots). Each request must be refused with a 4xx and a message, and afterwards ``<tmp>`` must
hold exactly what it held before, and no file named after a hostile value may exist anywhere.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_server_artifacts_support import FakeActions, actions, app_context, block_id
from werkzeug.test import TestResponse

__all__ = ["actions", "app_context"]

API = "/api/v1"
BASE64 = re.compile(r"[A-Za-z0-9+/_-]+={0,2}")
ESCAPE = "escaped-by-test"
"""Every hostile value names this, so a file created by one is found by name afterwards."""


def hostile_names(root: Path) -> list[str]:
    """Names and paths that try to leave a directory, by every trick that applies to a single name."""
    return [
        f"../{ESCAPE}",
        f"../../{ESCAPE}",
        f"../../../{ESCAPE}",
        f"a/../../{ESCAPE}",
        str(root / ESCAPE),
        f"{ESCAPE}\x00.txt",
        "..",
        ".",
        f"..\\..\\{ESCAPE}",
        f"%2e%2e/{ESCAPE}",
    ]


def hostile_refs(root: Path) -> list[str]:
    """Ref names: the path tricks (a literal ``%2e%2e`` is a valid ref name, so it is left out) and Git's own."""
    tricks = [name for name in hostile_names(root) if not name.startswith("%")]
    return [*tricks, f"refs/../../{ESCAPE}", f"refs/heads/../../../{ESCAPE}", f"{ESCAPE}.lock", "-x", "a@{1}"]


def in_url(names: list[str]) -> list[str]:
    """The names that can reach a handler through a URL path: a leading ``/`` is merged away by the router."""
    return [name for name in names if not name.startswith("/")]


def _snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` outside its data directory, with its content."""
    data = root / "data"
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in root.rglob("*")
        if path.is_file() and data not in path.parents
    }


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@pytest.fixture
def root(app: Flask, tmp_path: Path) -> Path:
    """``<tmp>`` with a sentinel beside the data directory."""
    assert app.extensions["forge"].config.data_dir == tmp_path / "data"
    (tmp_path / "sentinel.txt").write_text("untouched")
    return tmp_path


@pytest.fixture
def admin_repo(client: FlaskClient, admin_headers: dict[str, str]) -> str:
    created = client.post(f"{API}/user/repos", headers=admin_headers, json={"name": "demo", "auto_init": True})
    assert created.status_code == 201, created.get_data(as_text=True)
    return f"{API}/repos/{created.get_json()['full_name']}"


def _refused(answer: TestResponse, what: str) -> None:
    body = answer.get_data(as_text=True)
    assert 400 <= answer.status_code < 500, f"{what}: {answer.status_code} {body[:200]}"
    assert body.strip(), f"{what}: a refusal carries a message"


class Probe:
    """Sends hostile requests and counts them; checks the directory around the data directory after each."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.before = _snapshot(root)
        self.count = 0

    def expect_refused(self, what: str, send: Callable[[], TestResponse]) -> None:
        self.count += 1
        _refused(send(), what)

    def check_untouched(self) -> None:
        assert _snapshot(self.root) == self.before, "something outside the data directory changed"
        escaped = [path for path in self.root.rglob(f"*{ESCAPE}*")]
        assert not escaped, f"files named after hostile values exist: {escaped}"


@pytest.fixture
def probe(root: Path) -> Probe:
    return Probe(root)


def test_artifact_names_and_block_ids(actions: FakeActions, probe: Probe) -> None:
    job = actions.start_job()
    for name in hostile_names(probe.root):
        probe.expect_refused(f"artifact name {name!r}", lambda n=name: job.call("CreateArtifact", {"name": n}))  # type: ignore[misc]
    url = job.create("fine")
    for ident in [name for name in hostile_names(probe.root) if not BASE64.fullmatch(name)]:
        probe.expect_refused(f"block id {ident!r}", lambda i=ident: job.put_block(url, i, b"data"))  # type: ignore[misc]
    probe.expect_refused(
        "block list", lambda: job.put_block_list(url, f"<BlockList><Latest>../{ESCAPE}</Latest></BlockList>".encode())
    )
    # Block ids are base64, whose alphabet has "/": such ids are valid, and stored under their SHA-256. The
    # absolute path is padded to a whole number of base64 quads (its length depends on pytest's temporary
    # directory, which differs between serial and parallel runs).
    absolute = str(probe.root / "Zm9v")
    for ident in [absolute + "A" * (-len(absolute) % 4), "Li4v/Li4v/Li4v/ZXNj", "////"]:
        probe.count += 1
        assert job.put_block(url, ident, b"data").status_code == 201, ident
    staged = [path for path in (probe.root / "data").rglob("*") if path.is_file() and "staging" in path.parts]
    assert staged and all(re.fullmatch(r"[0-9a-f]{64}", path.name) for path in staged), staged
    assert job.put_block(url, block_id(0), b"data").status_code == 201
    probe.check_untouched()


def test_file_paths_of_the_contents_api(
    client: FlaskClient, admin_headers: dict[str, str], admin_repo: str, probe: Probe
) -> None:
    body = {"content": _b64("hostile"), "message": "m"}
    # A backslash is an ordinary character of a Git tree path (Gitea takes it too): stored in the tree as
    # text, never used as a file system path by the server; the check below proves nothing escaped.
    # So is a literal "%2e%2e" in a JSON body; in a URL it is decoded to ".." by the router, and refused.
    literal = [path for path in hostile_names(probe.root) if "\\" in path or "%" in path]
    for path in literal:
        probe.count += 1
        client.post(
            f"{admin_repo}/contents",
            headers=admin_headers,
            json={"files": [{"operation": "create", "path": path, "content": _b64("x")}]},
        )
    for path in in_url([name for name in hostile_names(probe.root) if "\\" not in name]):
        quoted = path.replace("\x00", "%00")
        probe.expect_refused(
            f"create {path!r}",
            lambda p=quoted: client.post(f"{admin_repo}/contents/{p}", headers=admin_headers, json=body),  # type: ignore[misc]
        )
    for path in [name for name in hostile_names(probe.root) if name not in literal]:
        files = {"files": [{"operation": "create", "path": path, "content": _b64("x")}], "message": "m"}
        probe.expect_refused(
            f"change files {path!r}",
            lambda f=files: client.post(f"{admin_repo}/contents", headers=admin_headers, json=f),  # type: ignore[misc]
        )
        rename = {**body, "sha": "0" * 40, "from_path": path}
        probe.expect_refused(
            f"rename from {path!r}",
            lambda r=rename: client.put(f"{admin_repo}/contents/README.md", headers=admin_headers, json=r),  # type: ignore[misc]
        )
    for path in (".git/config", f".git/hooks/{ESCAPE}", "a//b"):
        probe.expect_refused(
            f"create {path!r}",
            lambda p=path: client.post(f"{admin_repo}/contents/{p}", headers=admin_headers, json=body),  # type: ignore[misc]
        )
    probe.check_untouched()


def test_branch_and_ref_names(
    client: FlaskClient, admin_headers: dict[str, str], admin_repo: str, probe: Probe
) -> None:
    for ref in hostile_refs(probe.root):
        probe.expect_refused(
            f"create branch {ref!r}",
            lambda r=ref: client.post(f"{admin_repo}/branches", headers=admin_headers, json={"new_branch_name": r}),  # type: ignore[misc]
        )
        probe.expect_refused(
            f"rename to {ref!r}",
            lambda r=ref: client.patch(f"{admin_repo}/branches/main", headers=admin_headers, json={"name": r}),  # type: ignore[misc]
        )
        body = {"content": _b64("x"), "new_branch": ref}
        probe.expect_refused(
            f"commit to new branch {ref!r}",
            lambda b=body: client.post(f"{admin_repo}/contents/{ESCAPE}.txt", headers=admin_headers, json=b),  # type: ignore[misc]
        )
        probe.expect_refused(
            f"read at ref {ref!r}",
            lambda r=ref: client.get(
                f"{admin_repo}/contents/README.md", headers=admin_headers, query_string={"ref": r}
            ),  # type: ignore[misc]
        )
    probe.check_untouched()


def test_lfs_object_ids(client: FlaskClient, admin_repo: str, probe: Probe) -> None:
    token = "0123456789abcdef0123456789abcdef01234567"
    auth = {"Authorization": "Basic " + _b64(f"forge_admin:{token}")}
    lfs = {**auth, "Accept": "application/vnd.git-lfs+json", "Content-Type": "application/vnd.git-lfs+json"}
    git = admin_repo.replace(f"{API}/repos/", "/") + ".git/info/lfs"
    for oid in [*hostile_names(probe.root), "A" * 64, "a" * 63, "a" * 65]:
        request = {"operation": "upload", "objects": [{"oid": oid, "size": 4}]}
        answer = client.post(f"{git}/objects/batch", headers=lfs, json=request)
        probe.count += 1
        if answer.status_code == 200:  # the batch API answers per object, as Git LFS does
            [entry] = answer.get_json()["objects"]
            assert entry.get("error", {}).get("code") == 422, f"batch oid {oid!r}: {entry}"
        else:
            _refused(answer, f"batch oid {oid!r}")
        quoted = oid.replace("%", "%25").replace("/", "%2F").replace("\x00", "%00").replace("\\", "%5C")
        probe.expect_refused(
            f"upload oid {oid!r}",
            lambda q=quoted: client.put(f"{git}/objects/{q}/4", headers=auth, data=b"data"),  # type: ignore[misc]
        )
        probe.expect_refused(f"download oid {oid!r}", lambda q=quoted: client.get(f"{git}/objects/{q}", headers=auth))  # type: ignore[misc]
    probe.check_untouched()


def test_avatar_names(client: FlaskClient, probe: Probe) -> None:
    for name in [*hostile_names(probe.root), "..%2F..%2Fsentinel.txt", "%2e%2e%2fsentinel.txt", "1-..%2F..%2Fsentinel"]:
        quoted = name.replace("\x00", "%00")
        probe.expect_refused(f"avatar {name!r}", lambda q=quoted: client.get(f"/avatars/{q}"))  # type: ignore[misc]
        probe.expect_refused(f"repo avatar {name!r}", lambda q=quoted: client.get(f"/repo-avatars/{q}"))  # type: ignore[misc]
    probe.check_untouched()


def test_owner_and_repository_names(
    client: FlaskClient, admin_headers: dict[str, str], admin_repo: str, probe: Probe
) -> None:
    for name in [f"{ESCAPE}.git", f"{ESCAPE}.wiki"]:
        probe.expect_refused(
            f"repository {name!r}",
            lambda n=name: client.post(f"{API}/user/repos", headers=admin_headers, json={"name": n}),  # type: ignore[misc]
        )
    for name in [*hostile_names(probe.root), "a/b"]:
        probe.expect_refused(
            f"repository {name!r}",
            lambda n=name: client.post(f"{API}/user/repos", headers=admin_headers, json={"name": n}),  # type: ignore[misc]
        )
        user = {"username": name, "email": "e@example.com", "password": "long-enough-password"}
        probe.expect_refused(
            f"user {name!r}",
            lambda u=user: client.post(f"{API}/admin/users", headers=admin_headers, json=u),  # type: ignore[misc]
        )
        probe.expect_refused(
            f"organization {name!r}",
            lambda n=name: client.post(f"{API}/orgs", headers=admin_headers, json={"username": n}),  # type: ignore[misc]
        )
        probe.expect_refused(
            f"rename repository to {name!r}",
            lambda n=name: client.patch(admin_repo, headers=admin_headers, json={"name": n}),  # type: ignore[misc]
        )
        probe.expect_refused(
            f"fork as {name!r}",
            lambda n=name: client.post(f"{admin_repo}/forks", headers=admin_headers, json={"name": n}),  # type: ignore[misc]
        )
    for name in in_url(hostile_names(probe.root)):
        quoted = name.replace("%", "%25").replace("\x00", "%00")
        probe.expect_refused(
            f"git path {name!r}",
            lambda q=quoted: client.get(f"/{q}/demo.git/info/refs?service=git-upload-pack"),  # type: ignore[misc]
        )
    for address in (
        f"file://{probe.root}",
        str(probe.root),
        f"{probe.root}/data/git/forge_admin/demo.git",
        "ext::sh -c x",
    ):
        migrate = {"clone_addr": address, "repo_name": ESCAPE}
        probe.expect_refused(
            f"migrate from {address!r}",
            lambda m=migrate: client.post(f"{API}/repos/migrate", headers=admin_headers, json=m),  # type: ignore[misc]
        )
    probe.check_untouched()

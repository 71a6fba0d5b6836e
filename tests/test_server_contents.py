"""The single-file contents API: reads at refs, and commits that create, update, rename and delete files."""

from __future__ import annotations

import base64
import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from reference_server.events import PushEvent
from reference_server.gitcli import ZERO_SHA, Git
from reference_server.repos.contents import validate_path
from reference_server.repos.errors import InvalidPath

PASSWORD = "correct-horse-battery"
API = "/api/v1/repos/ann/code"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


@pytest.fixture
def ann(client: FlaskClient, admin_headers: dict[str, str]) -> dict[str, str]:
    """User ``ann`` with an empty public repository ``ann/code``; her token headers."""
    body = {"username": "ann", "email": "ann@example.com", "password": PASSWORD}
    assert client.post("/api/v1/admin/users", headers=admin_headers, json=body).status_code == 201
    basic = {"Authorization": "Basic " + base64.b64encode(f"ann:{PASSWORD}".encode()).decode()}
    token = client.post("/api/v1/users/ann/tokens", headers=basic, json={"name": "t", "scopes": ["all"]})
    assert token.json is not None
    headers = {"Authorization": f"token {token.json['sha1']}"}
    assert client.post("/api/v1/user/repos", headers=headers, json={"name": "code"}).status_code == 201
    return headers


@pytest.fixture
def pushes(app: Flask) -> list[PushEvent]:
    seen: list[PushEvent] = []
    app.extensions["forge"].events.subscribe(PushEvent, seen.append)
    return seen


def create(client: FlaskClient, headers: dict[str, str], path: str, data: bytes, **extra: Any) -> dict[str, Any]:
    response = client.post(f"{API}/contents/{path}", headers=headers, json={"content": b64(data), **extra})
    assert response.status_code == 201, response.json
    body = response.json
    assert isinstance(body, dict)
    return body


def assert_error(response: Any, status: int, contains: str = "") -> None:
    assert response.status_code == status, (response.status_code, response.data)
    assert set(response.json) == {"message", "url"}
    assert contains.lower() in response.json["message"].lower(), response.json["message"]


def test_create_in_an_empty_repository_and_read_back(
    client: FlaskClient, ann: dict[str, str], pushes: list[PushEvent]
) -> None:
    assert client.get(f"{API}/contents", headers=ann).json == []
    body = create(client, ann, "docs/hello.txt", b"hi\n", message="add hello")
    content, commit = body["content"], body["commit"]
    assert content["name"] == "hello.txt" and content["path"] == "docs/hello.txt" and content["type"] == "file"
    assert content["size"] == 3 and content["encoding"] == "base64" and base64.b64decode(content["content"]) == b"hi\n"
    assert content["last_commit_sha"] == commit["sha"]
    assert content["download_url"] == "http://forge.test/ann/code/raw/branch/main/docs/hello.txt"
    assert content["_links"]["self"] == content["url"]
    assert commit["message"] == "add hello\n" and commit["parents"] == []
    assert commit["author"]["name"] == "ann" and commit["author"]["email"] == "ann@example.com"
    assert body["verification"]["verified"] is False
    assert pushes == [
        PushEvent(
            pushes[0].repo_id,
            "refs/heads/main",
            ZERO_SHA,
            commit["sha"],
            pushes[0].pusher_id,
            changed_paths=("docs/hello.txt",),
        )
    ]
    read = client.get(f"{API}/contents/docs/hello.txt")
    assert read.status_code == 200 and read.json == content
    listing = client.get(f"{API}/contents/docs")
    assert listing.status_code == 200 and listing.json is not None
    assert [(e["name"], e["type"], e["content"], e["encoding"]) for e in listing.json] == [
        ("hello.txt", "file", None, None)
    ]
    root = client.get(f"{API}/contents")
    assert root.json is not None and [(e["name"], e["type"], e["download_url"]) for e in root.json] == [
        ("docs", "dir", None)
    ]
    repo = client.get(API).json
    assert repo is not None and repo["empty"] is False


def test_update_with_sha_then_delete(client: FlaskClient, ann: dict[str, str], pushes: list[PushEvent]) -> None:
    first = create(client, ann, "a.txt", b"one")
    old_sha = first["content"]["sha"]
    updated = client.put(f"{API}/contents/a.txt", headers=ann, json={"content": b64(b"two"), "sha": old_sha})
    assert updated.status_code == 200 and updated.json is not None
    assert base64.b64decode(updated.json["content"]["content"]) == b"two"
    assert updated.json["commit"]["parents"][0]["sha"] == first["commit"]["sha"]
    assert updated.json["commit"]["message"] == "Update a.txt\n"
    assert pushes[-1].before == first["commit"]["sha"] and pushes[-1].after == updated.json["commit"]["sha"]
    mismatch = client.put(f"{API}/contents/a.txt", headers=ann, json={"content": b64(b"3"), "sha": old_sha})
    new_sha = updated.json["content"]["sha"]
    assert_error(mismatch, 422, f"sha does not match [given: {old_sha}, expected: {new_sha}]")
    assert_error(client.delete(f"{API}/contents/a.txt", headers=ann, json={"sha": old_sha}), 422, "sha does not match")
    assert_error(client.delete(f"{API}/contents/a.txt", headers=ann, json={}), 422, "[Sha]: Required")
    deleted = client.delete(f"{API}/contents/a.txt", headers=ann, json={"sha": new_sha})
    assert deleted.status_code == 200 and deleted.json is not None
    assert deleted.json["content"] is None and deleted.json["commit"]["message"] == "Delete a.txt\n"
    assert_error(client.get(f"{API}/contents/a.txt"), 404)
    assert_error(client.delete(f"{API}/contents/a.txt", headers=ann, json={"sha": new_sha}), 404)
    assert len(pushes) == 3


def test_put_without_sha_creates_and_refuses_existing(client: FlaskClient, ann: dict[str, str]) -> None:
    created = client.put(f"{API}/contents/new.txt", headers=ann, json={"content": b64(b"n")})
    assert created.status_code == 201 and created.json is not None
    assert created.json["commit"]["message"] == "Add new.txt\n"
    again = client.put(f"{API}/contents/new.txt", headers=ann, json={"content": b64(b"n")})
    assert_error(again, 422, "already exists")


def test_rename_with_from_path(client: FlaskClient, ann: dict[str, str]) -> None:
    first = create(client, ann, "old/name.txt", b"data")
    moved = client.put(
        f"{API}/contents/new/name.txt",
        headers=ann,
        json={"content": b64(b"data2"), "sha": first["content"]["sha"], "from_path": "old/name.txt"},
    )
    assert moved.status_code == 200 and moved.json is not None
    assert moved.json["content"]["path"] == "new/name.txt"
    assert_error(client.get(f"{API}/contents/old/name.txt"), 404)
    read = client.get(f"{API}/contents/new/name.txt").json
    assert read is not None and base64.b64decode(read["content"]) == b"data2"


def test_create_errors_leave_the_branch_untouched(
    client: FlaskClient, ann: dict[str, str], pushes: list[PushEvent]
) -> None:
    base = create(client, ann, "file", b"x")
    head = base["commit"]["sha"]
    cases = [
        ("file", {"content": b64(b"y")}, 422, "already exists"),
        ("file/child", {"content": b64(b"y")}, 422, "subdirectory"),
        ("f2", {"content": "!!!not base64"}, 422, "base64"),
        ("f2", {"content": 12}, 422, "Content"),
        ("f2", {}, 422, "[Content]: Required"),
        ("f2", {"content": b64(b"y"), "branch": "nope"}, 404, "branch does not exist"),
        ("f2", {"content": b64(b"y"), "new_branch": "bad..name"}, 422, "invalid branch name"),
        ("f2", {"content": b64(b"y"), "author": {"name": "x"}}, 422, "author"),
        ("f2", {"content": b64(b"y"), "author": "me"}, 422, "author"),
        ("f2", {"content": b64(b"y"), "dates": {"author": "yesterday"}}, 422, "Dates.author"),
        ("f2", {"content": b64(b"y"), "dates": {"author": "2024-01-01T00:00:00"}}, 422, "time zone"),
        ("f2", {"content": b64(b"y"), "message": ["m"]}, 422, "message"),
        (".git/config", {"content": b64(b"y")}, 422, ".git"),
        ("a/.GIT/x", {"content": b64(b"y")}, 422, ".git"),
        ("a/../b", {"content": b64(b"y")}, 422, "malformed path component"),
        ("a/./b", {"content": b64(b"y")}, 422, "malformed path component"),
        ("tab%09name", {"content": b64(b"y")}, 422, "control"),
    ]
    for path, body, status, message in cases:
        assert_error(client.post(f"{API}/contents/{path}", headers=ann, json=body), status, message)
    assert branch_head(client, ann) == head
    assert len(pushes) == 1


def branch_head(client: FlaskClient, headers: dict[str, str]) -> str:
    """The newest commit on main, as the root listing reports it."""
    listing = client.get(f"{API}/contents?ref=main", headers=headers).json
    assert listing is not None
    return str(listing[0]["last_commit_sha"])


def test_author_committer_dates_signoff_and_new_branch(
    client: FlaskClient, ann: dict[str, str], pushes: list[PushEvent]
) -> None:
    create(client, ann, "base", b"b")
    body = create(
        client,
        ann,
        "feature.txt",
        b"f",
        branch="main",
        new_branch="feature/one",
        message="Feature",
        author={"name": "Writer", "email": "writer@example.com"},
        committer={"name": "Bot", "email": "bot@example.com"},
        dates={"author": "2024-05-01T10:00:00Z", "committer": "2024-05-02T12:30:00+02:00"},
        signoff=True,
    )
    commit = body["commit"]
    assert commit["author"] == {"name": "Writer", "email": "writer@example.com", "date": "2024-05-01T10:00:00+00:00"}
    assert commit["committer"] == {"name": "Bot", "email": "bot@example.com", "date": "2024-05-02T10:30:00+00:00"}
    assert commit["message"] == "Feature\n\nSigned-off-by: Bot <bot@example.com>\n"
    assert pushes[-1].ref == "refs/heads/feature/one" and pushes[-1].before == ZERO_SHA
    assert body["content"]["url"].endswith("?ref=feature%2Fone")
    assert_error(client.get(f"{API}/contents/feature.txt"), 404)  # not on main
    on_branch = client.get(f"{API}/contents/feature.txt?ref=feature/one")
    assert on_branch.status_code == 200
    only_author = create(client, ann, "g", b"g", author={"name": "Solo", "email": "solo@example.com"})
    assert only_author["commit"]["committer"]["name"] == "Solo"


def test_force_push_replaces_an_existing_new_branch(
    client: FlaskClient, ann: dict[str, str], pushes: list[PushEvent]
) -> None:
    base = create(client, ann, "a", b"a")
    side = create(client, ann, "b", b"b", new_branch="side")
    forced = create(client, ann, "c", b"c", branch="main", new_branch="side", force_push=True)
    assert forced["commit"]["parents"][0]["sha"] == base["commit"]["sha"]  # built on main, not on side
    assert pushes[-1].ref == "refs/heads/side"
    assert (pushes[-1].before, pushes[-1].after) == (side["commit"]["sha"], forced["commit"]["sha"])
    assert_error(client.get(f"{API}/contents/b?ref=side"), 404)  # side's own commit was replaced
    assert_error(
        client.post(f"{API}/contents/a", headers=ann, json={"content": b64(b"x"), "new_branch": "side"}), 422, "branch"
    )


def test_a_directory_path_is_not_a_file(client: FlaskClient, ann: dict[str, str]) -> None:
    create(client, ann, "docs/readme.md", b"r")
    assert_error(client.post(f"{API}/contents/docs", headers=ann, json={"content": b64(b"x")}), 422, "directory exists")
    sha = client.get(f"{API}/contents").json[0]["sha"]  # type: ignore[index]
    body = {"content": b64(b"x"), "sha": sha}
    assert_error(client.put(f"{API}/contents/docs", headers=ann, json=body), 404, "file does not exist")
    assert_error(client.delete(f"{API}/contents/docs", headers=ann, json={"sha": sha}), 404, "file does not exist")


def test_reads_at_tags_and_commits(app: Flask, client: FlaskClient, ann: dict[str, str]) -> None:
    first = create(client, ann, "v.txt", b"1")
    sha = first["content"]["sha"]
    client.put(f"{API}/contents/v.txt", headers=ann, json={"content": b64(b"2"), "sha": sha})
    data_dir = app.extensions["forge"].config.data_dir
    Git(data_dir / "git" / "ann" / "code.git").run("tag", "v1", first["commit"]["sha"])
    at_tag = client.get(f"{API}/contents/v.txt?ref=v1").json
    assert at_tag is not None and base64.b64decode(at_tag["content"]) == b"1"
    assert at_tag["html_url"] == "http://forge.test/ann/code/src/tag/v1/v.txt"
    at_commit = client.get(f"{API}/contents/v.txt?ref={first['commit']['sha']}").json
    assert at_commit is not None and base64.b64decode(at_commit["content"]) == b"1"
    assert "/src/commit/" in at_commit["html_url"]
    latest = client.get(f"{API}/contents/v.txt").json
    assert latest is not None and base64.b64decode(latest["content"]) == b"2"
    assert_error(client.get(f"{API}/contents/v.txt?ref=nope"), 404)
    assert_error(client.get(f"{API}/contents/missing.txt"), 404)
    assert_error(client.get(f"{API}/contents/v.txt?ref=--help"), 404)


def test_permissions_and_scopes(client: FlaskClient, admin_headers: dict[str, str], ann: dict[str, str]) -> None:
    create(client, ann, "p.txt", b"p")
    body = {"username": "bob", "email": "bob@example.com", "password": PASSWORD}
    client.post("/api/v1/admin/users", headers=admin_headers, json=body)
    bob = {"Authorization": "Basic " + base64.b64encode(f"bob:{PASSWORD}".encode()).decode()}
    assert client.get(f"{API}/contents/p.txt", headers=bob).status_code == 200
    assert_error(client.post(f"{API}/contents/q.txt", headers=bob, json={"content": b64(b"q")}), 403, "write")
    assert_error(client.post(f"{API}/contents/q.txt", json={"content": b64(b"q")}), 401)
    reader = client.post(
        "/api/v1/users/bob/tokens", headers=bob, json={"name": "r", "scopes": ["read:repository"]}
    ).json
    assert reader is not None
    read_token = {"Authorization": f"token {reader['sha1']}"}
    missing_repo = "/api/v1/repos/nobody/none/contents/x"
    assert_error(client.post(missing_repo, headers=read_token, json={"content": b64(b"q")}), 403, "write:repository")
    client.post("/api/v1/user/repos", headers=ann, json={"name": "private", "private": True})
    assert_error(client.get("/api/v1/repos/ann/private/contents", headers=bob), 404)
    assert client.post(
        "/api/v1/repos/ann/private/contents/x", headers=admin_headers, json={"content": b64(b"a")}
    ).status_code == 201  # fmt: skip


def test_empty_repository_accepts_create_on_another_branch_which_becomes_default(
    client: FlaskClient, ann: dict[str, str]
) -> None:
    create(client, ann, "x", b"x", branch="develop")
    repo = client.get(API).json
    assert repo is not None and repo["default_branch"] == "develop"
    assert client.get(f"{API}/contents/x").status_code == 200
    assert_error(client.get(f"{API}/contents/x?ref=main"), 404)


def test_concurrent_creates_are_serialised(app: Flask, ann: dict[str, str], pushes: list[PushEvent]) -> None:
    results: list[int] = []

    def write(index: int) -> None:
        response = app.test_client().post(f"{API}/contents/f{index}", headers=ann, json={"content": b64(b"x")})
        results.append(response.status_code)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [201] * 6
    listing = app.test_client().get(f"{API}/contents").json
    assert listing is not None and sorted(e["name"] for e in listing) == [f"f{i}" for i in range(6)]
    chain = {event.before: event.after for event in pushes}
    assert len(chain) == 6  # every commit built on the previous one: one linear history


@pytest.mark.parametrize(
    ("path", "allow_root", "clean"),
    [("a/b.txt", False, "a/b.txt"), ("", True, ""), ("dir/", True, "dir"), ("ünï/ç", False, "ünï/ç")],
)
def test_validate_path_accepts(path: str, allow_root: bool, clean: str) -> None:
    assert validate_path(path, allow_root=allow_root) == clean


@pytest.mark.parametrize("path", ["", "/abs", "a//b", "a/../b", "..", ".", "a/.git/b", ".Git", "nul\x00", "x\ud800"])
def test_validate_path_refuses(path: str) -> None:
    with pytest.raises(InvalidPath):
        validate_path(path)


def _fake_task(token: str, repo_id: int, status: int) -> dict[str, object]:
    import hashlib

    return {
        "id": 77, "job_id": 1, "run_id": 1, "repo_id": repo_id, "owner_id": 0, "runner_id": 1, "attempt": 1,
        "status": status, "token_hash": hashlib.sha256(token.encode()).hexdigest(), "token_last_eight": token[-8:],
        "log_length": 0, "log_closed": 0, "created": 0, "updated": 0, "started": 0, "stopped": 0,
    }  # fmt: skip


def test_running_task_job_token_reads_and_writes_its_own_repository_only(
    client: FlaskClient, ann: dict[str, str], monkeypatch: pytest.MonkeyPatch, pushes: list[PushEvent]
) -> None:
    from reference_server.actions import runner_store
    from reference_server.actions.status import Status

    client.post("/api/v1/user/repos", headers=ann, json={"name": "other", "private": True, "auto_init": True})
    own = client.post("/api/v1/user/repos", headers=ann, json={"name": "mine", "private": True, "auto_init": True})
    assert own.json is not None
    job_token = "f" * 40
    status = {"value": int(Status.RUNNING)}

    def lookup(digest: str) -> dict[str, object] | None:
        row = _fake_task(job_token, own.json["id"], status["value"])  # type: ignore[index]
        return row if digest == row["token_hash"] else None

    monkeypatch.setattr(runner_store, "task_row_by_token_hash", lookup)
    as_job = {"Authorization": "Basic " + base64.b64encode(f"x-access-token:{job_token}".encode()).decode()}
    readme = client.get("/api/v1/repos/ann/mine/contents/README.md", headers=as_job)
    assert readme.status_code == 200
    assert_error(client.get("/api/v1/repos/ann/other/contents/README.md", headers=as_job), 404)
    written = client.post("/api/v1/repos/ann/mine/contents/out.txt", headers=as_job, json={"content": b64(b"o")})
    assert written.status_code == 201 and written.json is not None
    assert written.json["commit"]["author"] == {
        "name": "gitea-actions", "email": "teabot@gitea.io", "date": written.json["commit"]["author"]["date"]
    }  # fmt: skip
    assert pushes[-1].pusher_id == -2
    me = client.get("/api/v1/user", headers=as_job).json
    assert me is not None and (me["id"], me["login"]) == (-2, "gitea-actions")
    assert_error(client.post("/api/v1/user/repos", headers=as_job, json={"name": "own"}), 403, "own repository")
    assert_error(client.post("/api/v1/orgs", headers=as_job, json={"username": "actions-org"}), 403)
    assert_error(client.delete("/api/v1/repos/ann/mine", headers=as_job), 403)
    status["value"] = int(Status.SUCCESS)  # a finished task's token no longer works
    assert_error(client.get("/api/v1/repos/ann/mine/contents/README.md", headers=as_job), 401)


def _described_as_read(client: FlaskClient, path: str, commit: str) -> dict[str, Any]:
    read = client.get(f"{API}/contents/{path}", query_string={"ref": commit})
    assert read.status_code == 200 and isinstance(read.json, dict)
    return read.json


@pytest.mark.parametrize("content", [b"one", b"two"], ids=["the same content", "new content"])
def test_a_write_describes_the_file_as_a_read_of_its_commit(
    client: FlaskClient, ann: dict[str, str], content: bytes
) -> None:
    """The write's answer is built from what it stored (no git asked); a read at the new commit asks git.
    A file written with the content it had keeps its older last commit, as ``git log -- path`` says."""
    first = create(client, ann, "a.txt", b"one")
    create(client, ann, "b.txt", b"other")
    body = {"content": b64(content), "sha": first["content"]["sha"]}
    written = client.put(f"{API}/contents/a.txt", headers=ann, json=body).json
    assert written is not None
    read = _described_as_read(client, "a.txt", written["commit"]["sha"])
    compared = ("sha", "size", "type", "content", "encoding", "last_commit_sha", "last_committer_date")
    assert {key: written["content"][key] for key in compared} == {key: read[key] for key in compared}
    changed = content != b"one"
    assert (written["content"]["last_commit_sha"] == written["commit"]["sha"]) is changed
    assert base64.b64decode(written["content"]["content"]) == content


def test_a_rename_that_keeps_the_blob_describes_it_from_git(client: FlaskClient, ann: dict[str, str]) -> None:
    first = create(client, ann, "old.txt", b"kept bytes")
    operation = {"operation": "rename", "path": "new.txt", "from_path": "old.txt", "sha": first["content"]["sha"]}
    moved = client.post(f"{API}/contents", headers=ann, json={"files": [operation]})
    assert moved.status_code == 201 and moved.json is not None
    [described] = moved.json["files"]
    read = _described_as_read(client, "new.txt", moved.json["commit"]["sha"])
    assert described["sha"] == read["sha"] == first["content"]["sha"] and described["size"] == read["size"] == 10
    assert described["last_commit_sha"] == read["last_commit_sha"] == moved.json["commit"]["sha"]

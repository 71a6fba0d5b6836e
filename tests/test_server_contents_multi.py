"""The multi-file change, file-contents, contents-ext and diff patch: shapes, Gitea's errors, and refs left
untouched by every refused change."""

from __future__ import annotations

import base64
import json
from typing import Any

from flask import Flask
from test_server_contents import API, PASSWORD, ann, assert_error, b64, create, pushes

from reference_server.events import PushEvent
from reference_server.gitcli import Git

Client = Any
"""The Flask test client, loosely typed: its ``.json`` is read as the JSON the server sent."""

__all__ = ["ann", "pushes"]


def git_of(app: Flask) -> Git:
    return Git(app.extensions["forge"].config.data_dir / "git" / "ann" / "code.git")


def change(client: Client, headers: dict[str, str], files: list[dict[str, Any]], **extra: Any) -> Any:
    return client.post(f"{API}/contents", headers=headers, json={"files": files, **extra})


def test_one_commit_for_every_operation(
    app: Flask, client: Client, ann: dict[str, str], pushes: list[PushEvent]
) -> None:
    first = create(client, ann, "keep.txt", b"keep")
    old = create(client, ann, "old.txt", b"old")
    gone = create(client, ann, "gone.txt", b"bye")
    head = gone["commit"]["sha"]
    files = [
        {"operation": "create", "path": "new/a.txt", "content": b64(b"A")},
        {"operation": "update", "path": "keep.txt", "content": b64(b"kept"), "sha": first["content"]["sha"]},
        {"operation": "rename", "path": "moved.txt", "from_path": "old.txt", "sha": old["content"]["sha"]},
        {"operation": "delete", "path": "gone.txt", "sha": gone["content"]["sha"]},
        {"operation": "upload", "path": "up.bin", "content": b64(b"\x00\x01")},
    ]
    response = change(client, ann, files)
    assert response.status_code == 201, response.json
    body = response.json
    assert [entry and entry["path"] for entry in body["files"]] == [
        "new/a.txt",
        "keep.txt",
        "moved.txt",
        None,
        "up.bin",
    ]
    assert base64.b64decode(body["files"][2]["content"]) == b"old"
    assert body["commit"]["parents"][0]["sha"] == head
    assert body["commit"]["message"] == "Add new/a.txt\nUpdate keep.txt, moved.txt, up.bin\nDelete gone.txt\n"
    git = git_of(app)
    assert git.branches()["main"] == body["commit"]["sha"]
    assert git.read_blob("main", "old.txt") is None and git.read_blob("main", "gone.txt") is None
    assert git.commit_info("main").parents == (head,)
    assert pushes[-1].before == head and pushes[-1].after == body["commit"]["sha"]


def test_refused_changes_leave_every_ref_alone(app: Flask, client: Client, ann: dict[str, str]) -> None:
    made = create(client, ann, "a.txt", b"a")
    create(client, ann, "dir/b.txt", b"b")
    sha = made["content"]["sha"]
    git = git_of(app)
    refs = git.ref_commits()
    cases: list[tuple[list[dict[str, Any]], dict[str, Any], int, str]] = [
        (
            [{"operation": "update", "path": "a.txt", "content": b64(b"x"), "sha": "0" * 40}],
            {},
            422,
            "sha does not match",
        ),
        ([{"operation": "update", "path": "a.txt", "content": b64(b"x")}], {}, 422, "SHA or commit ID"),
        ([{"operation": "delete", "path": "a.txt"}], {}, 422, "SHA or commit ID"),
        ([{"operation": "create", "path": "a.txt", "content": b64(b"x")}], {}, 422, "already exists"),
        ([{"operation": "create", "path": "a.txt/x", "content": b64(b"x")}], {}, 422, "subdirectory"),
        ([{"operation": "create", "path": "dir", "content": b64(b"x")}], {}, 422, "directory exists"),
        ([{"operation": "delete", "path": "nope.txt", "sha": sha}], {}, 404, "file does not exist"),
        ([{"operation": "create", "path": "c.txt", "content": "%%%"}], {}, 422, "base64"),
        ([{"operation": "create", "path": "../c.txt", "content": b64(b"x")}], {}, 422, "malformed"),
        ([{"operation": "create", "path": "c\x00.txt", "content": b64(b"x")}], {}, 422, "NUL"),
        ([{"operation": "create", "path": "/c.txt", "content": b64(b"x")}], {}, 422, "relative"),
        ([{"operation": "create", "path": "x/.git/c", "content": b64(b"x")}], {}, 422, ".git"),
        ([{"operation": "chmod", "path": "c.txt"}], {}, 422, "Operation"),
        ([{"operation": "create", "path": "c.txt", "content": b64(b"x")}], {"branch": "nope"}, 404, "branch"),
        (
            [
                {"operation": "create", "path": "c.txt", "content": b64(b"x")},
                {"operation": "update", "path": "a.txt", "content": b64(b"x"), "sha": "1" * 40},
            ],
            {},
            422,
            "sha does not match",
        ),
        ([], {}, 422, "Files"),
    ]
    for files, extra, status, message in cases:
        assert_error(change(client, ann, files, **extra), status, message)
    assert git.ref_commits() == refs
    assert git.read_blob("main", "c.txt") is None


def test_new_branch_and_force_push(app: Flask, client: Client, ann: dict[str, str]) -> None:
    create(client, ann, "a.txt", b"a")
    files = [{"operation": "create", "path": "b.txt", "content": b64(b"b")}]
    assert change(client, ann, files, new_branch="topic").status_code == 201
    git = git_of(app)
    topic = git.branches()["topic"]
    again = [{"operation": "create", "path": "c.txt", "content": b64(b"c")}]
    assert_error(change(client, ann, again, new_branch="topic"), 422, "branch already exists [name: topic]")
    assert git.branches()["topic"] == topic
    forced = change(client, ann, again, new_branch="topic", force_push=True)
    assert forced.status_code == 201
    assert git.branches()["topic"] == forced.json["commit"]["sha"]
    assert git.read_blob("topic", "b.txt") is None and git.read_blob("topic", "c.txt") == b"c"


def test_file_contents_in_one_call(client: Client, ann: dict[str, str]) -> None:
    create(client, ann, "a.txt", b"alpha")
    create(client, ann, "d/b.txt", b"beta")
    paths = ["a.txt", "missing", "d", "d/b.txt", "a.txt/x"]
    posted = client.post(f"{API}/file-contents", headers=ann, json={"files": paths})
    assert posted.status_code == 200, posted.json
    answer = posted.json
    assert [entry and entry["path"] for entry in answer] == ["a.txt", None, "d", "d/b.txt", None]
    assert base64.b64decode(answer[0]["content"]) == b"alpha" and answer[2]["type"] == "dir"
    assert answer[3]["last_commit_sha"]
    query = json.dumps({"files": paths})
    got = client.get(f"{API}/file-contents", headers=ann, query_string={"body": query})
    assert got.json == answer
    assert_error(client.get(f"{API}/file-contents", headers=ann, query_string={"body": "{"}), 400, "invalid body")
    assert_error(client.get(f"{API}/file-contents", headers=ann), 400, "invalid body parameter")
    assert_error(client.post(f"{API}/file-contents?ref=nope", headers=ann, json={"files": ["a.txt"]}), 404, "")
    assert_error(client.post(f"{API}/file-contents", headers=ann, json={"files": ["../x"]}), 422, "malformed")


def test_file_contents_stop_at_the_page_size(client: Client, ann: dict[str, str]) -> None:
    create(client, ann, "a.txt", b"a")
    answer = client.post(f"{API}/file-contents", headers=ann, json={"files": ["a.txt"] * 40}).json
    assert len(answer) == 30


def test_file_contents_post_needs_a_write_token(client: Client, ann: dict[str, str]) -> None:
    create(client, ann, "a.txt", b"a")
    basic = {"Authorization": "Basic " + base64.b64encode(f"ann:{PASSWORD}".encode()).decode()}
    token = client.post("/api/v1/users/ann/tokens", headers=basic, json={"name": "r", "scopes": ["read:repository"]})
    assert token.status_code == 201, token.json
    reader = {"Authorization": f"token {token.json['sha1']}"}
    assert_error(client.post(f"{API}/file-contents", headers=reader, json={"files": ["a.txt"]}), 403, "write")
    ok = client.get(f"{API}/file-contents", headers=reader, query_string={"body": '{"files":["a.txt"]}'})
    assert ok.status_code == 200


def test_contents_ext_includes(client: Client, ann: dict[str, str]) -> None:
    create(client, ann, "d/a.txt", b"alpha", message="add alpha")
    plain = client.get(f"{API}/contents-ext/d/a.txt", headers=ann).json
    assert set(plain) == {"file_contents"}
    entry = plain["file_contents"]
    assert entry["content"] is None and "last_commit_sha" not in entry
    full = client.get(
        f"{API}/contents-ext/d/a.txt",
        headers=ann,
        query_string={"includes": "file_content,commit_metadata,commit_message"},
    ).json["file_contents"]
    assert base64.b64decode(full["content"]) == b"alpha"
    assert full["last_commit_sha"] and full["last_commit_message"] == "add alpha\n"
    for root in ("", "/", "/."):
        listing = client.get(f"{API}/contents-ext{root}", headers=ann)
        assert listing.status_code == 200, (root, listing.json)
        assert [item["name"] for item in listing.json["dir_contents"]] == ["d"]
    assert_error(client.get(f"{API}/contents-ext/d?includes=bogus", headers=ann), 400, 'unknown include option "bogus"')
    assert_error(client.get(f"{API}/contents-ext/d/a.txt/x", headers=ann), 404, "")
    assert_error(client.get(f"{API}/contents-ext/d?ref=nope", headers=ann), 404, "")


def test_lfs_pointer_metadata(client: Client, ann: dict[str, str]) -> None:
    oid = "a" * 64
    create(
        client, ann, "big.bin", f"version https://git-lfs.github.com/spec/v1\noid sha256:{oid}\nsize 12345\n".encode()
    )
    entry = client.get(f"{API}/contents-ext/big.bin?includes=lfs_metadata", headers=ann).json["file_contents"]
    assert entry["lfs_oid"] == oid and entry["lfs_size"] == 12345


def test_diff_patch_applies_or_changes_nothing(
    app: Flask, client: Client, ann: dict[str, str], pushes: list[PushEvent]
) -> None:
    create(client, ann, "hello.txt", b"one\ntwo\n")
    git = git_of(app)
    head = git.branches()["main"]
    patch = "--- a/hello.txt\n+++ b/hello.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+three\n"
    applied = client.post(f"{API}/diffpatch", headers=ann, json={"content": patch})
    assert applied.status_code == 201, applied.json
    assert applied.json["content"] is None and applied.json["commit"]["message"] == "apply-patch\n"
    assert git.read_blob("main", "hello.txt") == b"one\nthree\n"
    assert git.commit_info("main").parents == (head,) and pushes[-1].after == applied.json["commit"]["sha"]
    refs = git.ref_commits()
    assert_error(client.post(f"{API}/diffpatch", headers=ann, json={"content": patch}), 422, "does not apply")
    escape = "--- a/../x\n+++ b/../x\n@@ -0,0 +1 @@\n+x\n"
    assert_error(client.post(f"{API}/diffpatch", headers=ann, json={"content": escape}), 422, "invalid path")
    assert_error(client.post(f"{API}/diffpatch", headers=ann, json={}), 422, "Content")
    bad_branch = {"content": patch, "branch": "nope"}
    assert_error(client.post(f"{API}/diffpatch", headers=ann, json=bad_branch), 404, "branch")
    assert git.ref_commits() == refs


def test_archived_repository_refuses_writes(app: Flask, client: Client, ann: dict[str, str]) -> None:
    made = create(client, ann, "a.txt", b"a")
    assert client.patch(API, headers=ann, json={"archived": True}).status_code == 200
    git = git_of(app)
    refs = git.ref_commits()
    files = [{"operation": "create", "path": "b.txt", "content": b64(b"b")}]
    assert_error(change(client, ann, files), 423, "repo is archived")
    assert_error(client.post(f"{API}/contents/b.txt", headers=ann, json={"content": b64(b"b")}), 423, "archived")
    body = {"sha": made["content"]["sha"]}
    assert_error(client.delete(f"{API}/contents/a.txt", headers=ann, json=body), 423, "archived")
    assert_error(client.post(f"{API}/diffpatch", headers=ann, json={"content": "x"}), 423, "archived")
    assert git.ref_commits() == refs
    assert client.get(f"{API}/contents/a.txt", headers=ann).status_code == 200

"""The Git data API: trees (paging, recursion), blobs, refs, a commit's diff and patch, raw files (ref
inference, media types, LFS pointers) and streamed archives."""

from __future__ import annotations

import base64
import io
import subprocess
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_server_branches_support import API, basic, commit_file, head_of, make_repo, make_user

from reference_server.gitdata.editorconfig import definition_for, parse_editorconfig
from reference_server.gitdata.models import form_bool, tree_page
from reference_server.gitdata.rawserve import sniff_media_type

REPO = f"{API}/repos/ann/code"


@pytest.fixture
def code(client: FlaskClient, admin_headers: dict[str, str]) -> str:
    """``ann/code``: README.md, docs/guide.md and docs/deep/x.txt on main; the head commit's SHA."""
    make_user(client, admin_headers, "ann")
    make_repo(client, "ann", "code")
    commit_file(client, "ann", "code", "docs/guide.md", content="# Guide\n")
    return commit_file(client, "ann", "code", "docs/deep/x.txt", content="deep\n")


def _git_dir(app: Flask) -> Path:
    return Path(app.extensions["forge"].config.data_dir) / "git" / "ann" / "code.git"


def _git(app: Flask, *args: str, stdin: bytes | None = None) -> str:
    completed = subprocess.run(
        ["git", f"--git-dir={_git_dir(app)}", *args], input=stdin, capture_output=True, check=True
    )
    return completed.stdout.decode().strip()


def test_tree_of_a_commit_lists_one_level_and_resolves_to_the_commit(client: FlaskClient, code: str) -> None:
    response = client.get(f"{REPO}/git/trees/{code}", headers=basic("ann"))
    assert response.status_code == 200
    body = response.get_json()
    assert body["sha"] == code  # Gitea's ResolvedID: the commit asked for, not its tree
    assert body["url"].endswith(f"/api/v1/repos/ann/code/git/trees/{code}")
    paths = {entry["path"]: entry for entry in body["tree"]}
    assert set(paths) >= {"README.md", "docs"}
    assert paths["docs"]["type"] == "tree" and paths["docs"]["mode"] == "040000" and paths["docs"]["size"] == 0
    assert paths["docs"]["url"].endswith(f"/git/trees/{paths['docs']['sha']}")
    assert paths["README.md"]["url"].endswith(f"/git/blobs/{paths['README.md']['sha']}")
    assert body["truncated"] is False and body["page"] == 1 and body["total_count"] == len(body["tree"])


def test_tree_by_branch_name_recursive_and_paged(client: FlaskClient, code: str) -> None:
    full = client.get(f"{REPO}/git/trees/main?recursive=true", headers=basic("ann")).get_json()
    paths = [entry["path"] for entry in full["tree"]]
    assert "docs/deep" in paths and "docs/deep/x.txt" in paths
    assert paths.index("docs/deep") < paths.index("docs/deep/x.txt")
    page = client.get(f"{REPO}/git/trees/main?recursive=1&per_page=2&page=2", headers=basic("ann")).get_json()
    assert [entry["path"] for entry in page["tree"]] == paths[2:4]
    assert page["truncated"] is (len(paths) > 4)
    assert page["total_count"] == len(paths)
    past = client.get(f"{REPO}/git/trees/main?per_page=2&page=99", headers=basic("ann")).get_json()
    assert past["tree"] is None and past["truncated"] is False and past["page"] == 99


def test_tree_paging_rules() -> None:
    assert tree_page(5, None, None) == (1, 0, 5, False)
    assert tree_page(5, "0", "2") == (1, 0, 2, True)
    assert tree_page(5, "3", "2") == (3, 4, 5, False)
    assert tree_page(5, "x", "5000") == (1, 0, 5, False)
    assert tree_page(5, "4", "2")[3] is False


def test_unknown_tree_is_400_with_gitea_message(client: FlaskClient, code: str) -> None:
    response = client.get(f"{REPO}/git/trees/{'1' * 40}", headers=basic("ann"))
    assert response.status_code == 400
    assert response.get_json()["message"] == f"sha not found [{'1' * 40}]"
    blob_sha = _git(client.application, "rev-parse", "main:README.md")
    assert client.get(f"{REPO}/git/trees/{blob_sha}", headers=basic("ann")).status_code == 400
    assert client.get(f"{REPO}/git/trees/--output=x", headers=basic("ann")).status_code == 400


def test_blob_in_base64_and_its_refusals(client: FlaskClient, code: str) -> None:
    sha = _git(client.application, "rev-parse", "main:docs/guide.md")
    body = client.get(f"{REPO}/git/blobs/{sha}", headers=basic("ann")).get_json()
    assert base64.b64decode(body["content"]) == b"# Guide\n"
    assert body["encoding"] == "base64" and body["size"] == 8 and body["sha"] == sha
    assert "lfs_oid" not in body
    short = client.get(f"{REPO}/git/blobs/badref", headers=basic("ann"))
    assert short.status_code == 400
    assert short.get_json()["message"] == "length 6 has no matched object format: badref"
    missing = client.get(f"{REPO}/git/blobs/{'2' * 40}", headers=basic("ann"))
    assert missing.status_code == 400
    assert "object does not exist" in missing.get_json()["message"]


def test_blob_of_an_lfs_pointer_names_the_object(client: FlaskClient, code: str) -> None:
    oid = "a" * 64
    pointer = f"version https://git-lfs.github.com/spec/v1\noid sha256:{oid}\nsize 12345\n".encode()
    sha = _git(client.application, "hash-object", "-w", "--stdin", stdin=pointer)
    body = client.get(f"{REPO}/git/blobs/{sha}", headers=basic("ann")).get_json()
    assert body["lfs_oid"] == oid and body["lfs_size"] == 12345


def test_refs_prefix_match_and_always_a_list(client: FlaskClient, code: str) -> None:
    _git(client.application, "tag", "-a", "-m", "release", "v1", "main")
    _git(client.application, "branch", "feature", "main")
    every = client.get(f"{REPO}/git/refs", headers=basic("ann")).get_json()
    names = [ref["ref"] for ref in every]
    assert names == sorted(names) and {"refs/heads/main", "refs/heads/feature", "refs/tags/v1"} <= set(names)
    heads = client.get(f"{REPO}/git/refs/heads", headers=basic("ann")).get_json()
    assert [ref["ref"] for ref in heads] == ["refs/heads/feature", "refs/heads/main"]
    main = client.get(f"{REPO}/git/refs/heads/main", headers=basic("ann")).get_json()
    assert isinstance(main, list) and main[0]["object"] == {
        "type": "commit",
        "sha": code,
        "url": main[0]["object"]["url"],
    }
    assert main[0]["object"]["url"].endswith(f"/git/commits/{code}")
    assert main[0]["url"].endswith("/git/refs/heads/main")
    partial = client.get(f"{REPO}/git/refs/heads/ma", headers=basic("ann")).get_json()
    assert [ref["ref"] for ref in partial] == ["refs/heads/main"]
    tag = client.get(f"{REPO}/git/refs/tags/v1", headers=basic("ann")).get_json()[0]
    assert tag["object"]["type"] == "tag" and tag["object"]["sha"] != code
    assert tag["object"]["url"].endswith(f"/git/tags/{tag['object']['sha']}")
    none = client.get(f"{REPO}/git/refs/heads/nothing", headers=basic("ann"))
    assert none.status_code == 404


def test_commit_diff_and_patch(client: FlaskClient, code: str) -> None:
    diff = client.get(f"{REPO}/git/commits/{code}.diff", headers=basic("ann"))
    assert diff.status_code == 200 and diff.mimetype == "text/plain"
    text = diff.get_data(as_text=True)
    assert text.startswith("diff --git a/docs/deep/x.txt b/docs/deep/x.txt") and "+deep" in text
    patch = client.get(f"{REPO}/git/commits/{code}.patch", headers=basic("ann")).get_data(as_text=True)
    assert patch.startswith(f"From {code} ") and "Subject:" in patch and "+deep" in patch
    root = _git(client.application, "rev-list", "--max-parents=0", "main")
    shown = client.get(f"{REPO}/git/commits/{root}.diff", headers=basic("ann")).get_data(as_text=True)
    assert shown.startswith(f"commit {root}")
    assert client.get(f"{REPO}/git/commits/{'3' * 40}.diff", headers=basic("ann")).status_code == 404
    single = client.get(f"{REPO}/git/commits/{code}", headers=basic("ann"))
    assert single.status_code == 200 and single.get_json()["sha"] == code
    assert client.get(f"{REPO}/git/commits/{code}.txt", headers=basic("ann")).status_code != 200


def test_raw_with_ref_query_path_ref_and_default(client: FlaskClient, code: str) -> None:
    blob = _git(client.application, "rev-parse", "main:docs/guide.md")
    body = {"content": base64.b64encode(b"other\n").decode(), "sha": blob, "new_branch": "feature"}
    assert client.put(f"{REPO}/contents/docs/guide.md", headers=basic("ann"), json=body).status_code == 200
    by_default = client.get(f"{REPO}/raw/docs/guide.md", headers=basic("ann"))
    assert by_default.status_code == 200 and by_default.data == b"# Guide\n"
    assert by_default.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert by_default.headers["X-Content-Type-Options"] == "nosniff"
    assert by_default.headers["Content-Disposition"].startswith('inline; filename="guide.md"')
    assert by_default.headers["X-Gitea-Object-Type"] == "file"
    assert client.get(f"{REPO}/raw/feature/docs/guide.md", headers=basic("ann")).data == b"other\n"
    assert client.get(f"{REPO}/raw/docs/guide.md?ref=feature", headers=basic("ann")).data == b"other\n"
    assert client.get(f"{REPO}/raw/{code}/docs/guide.md", headers=basic("ann")).data == b"# Guide\n"
    assert client.get(f"{REPO}/raw/docs/guide.md?ref=nope", headers=basic("ann")).status_code == 404
    assert client.get(f"{REPO}/raw/docs", headers=basic("ann")).status_code == 404
    assert client.get(f"{REPO}/raw/docs/missing.md", headers=basic("ann")).status_code == 404
    assert client.get(f"{REPO}/raw/docs/../README.md", headers=basic("ann")).status_code == 404


def test_raw_large_file_is_streamed_whole(client: FlaskClient, code: str) -> None:
    data = bytes(range(256)) * 400
    sha = _git(client.application, "hash-object", "-w", "--stdin", stdin=data)
    tree = _git(client.application, "mktree", stdin=f"100644 blob {sha}\tbig.bin\n".encode())
    commit = _git(client.application, "commit-tree", tree, "-p", code, "-m", "big")
    _git(client.application, "update-ref", "refs/heads/main", commit)
    response = client.get(f"{REPO}/raw/big.bin", headers=basic("ann"))
    assert response.status_code == 200 and response.data == data
    assert response.headers["Content-Type"] == "application/octet-stream"
    assert response.headers["Content-Length"] == str(len(data))


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b"<html><script>alert(1)</script></html>", "text/plain; charset=utf-8"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "image/png"),
        (b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>', "image/svg+xml"),
        (b"%PDF-1.7\n", "application/pdf"),
        (b"PK\x03\x04\x00\x01", "application/octet-stream"),
        (b"caf\xe9\n", "text/plain; charset=iso-8859-1"),
    ],
)
def test_media_types_as_serve_blob(head: bytes, expected: str) -> None:
    assert sniff_media_type(head)[0] == expected


def _archive(client: FlaskClient, name: str) -> Any:
    return client.get(f"{REPO}/archive/{name}", headers=basic("ann"))


def test_archives_zip_tar_and_bundle(client: FlaskClient, code: str, tmp_path: Path) -> None:
    zipped = _archive(client, "main.zip")
    assert zipped.status_code == 200
    assert zipped.headers["Content-Disposition"] == 'attachment; filename="code-main.zip"'
    assert f"/archive/{code}.zip?rev={code}" in zipped.headers["Link"]
    names = zipfile.ZipFile(io.BytesIO(zipped.data)).namelist()
    assert "code/docs/guide.md" in names
    tarred = _archive(client, f"{code[:10]}.tar.gz")
    assert tarred.status_code == 200
    with tarfile.open(fileobj=io.BytesIO(tarred.data), mode="r:gz") as archive:
        assert "code/docs/deep/x.txt" in archive.getnames()
    bundle = _archive(client, "main.bundle")
    assert bundle.status_code == 200 and bundle.data.startswith(b"# v2 git bundle")
    path = tmp_path / "b.bundle"
    path.write_bytes(bundle.data)
    heads = subprocess.run(["git", "bundle", "list-heads", str(path)], capture_output=True, check=True).stdout
    assert f"{code} refs/heads/bundle".encode() in heads
    assert f"{code} HEAD".encode() in heads


def test_archive_refusals(client: FlaskClient, code: str) -> None:
    unknown = _archive(client, "main.rar")
    assert unknown.status_code == 400 and unknown.get_json()["message"] == "unknown format: main.rar"
    missing = _archive(client, "nope.zip")
    assert missing.status_code == 404
    assert missing.get_json()["message"] == "unrecognized repository reference: nope"


def test_private_repository_is_hidden(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "ann")
    make_repo(client, "ann", "secret", private=True)
    assert head_of(client, "ann", "secret", "main") is not None
    for path in ("git/refs", "git/trees/main", "raw/README.md", "archive/main.zip"):
        assert client.get(f"{API}/repos/ann/secret/{path}").status_code == 404


def test_note_of_a_commit_with_the_notes_commit(client: FlaskClient, code: str) -> None:
    env_free = ["-c", "user.name=Noter", "-c", "user.email=noter@example.com"]
    git_dir = f"--git-dir={_git_dir(client.application)}"
    subprocess.run(["git", git_dir, *env_free, "notes", "add", "-m", "reviewed", code], check=True)
    notes_head = _git(client.application, "rev-parse", "refs/notes/commits")
    response = client.get(f"{REPO}/git/notes/{code}", headers=basic("ann"))
    assert response.status_code == 200
    body = response.get_json()
    assert body["message"] == "reviewed\n"
    assert body["commit"]["sha"] == notes_head  # Gitea: the notes commit that last changed the note
    assert client.get(f"{REPO}/git/notes/main", headers=basic("ann")).get_json()["message"] == "reviewed\n"
    root = _git(client.application, "rev-list", "--max-parents=0", "main")
    assert client.get(f"{REPO}/git/notes/{root}", headers=basic("ann")).status_code == 404
    assert client.get(f"{REPO}/git/notes/{'4' * 40}", headers=basic("ann")).status_code == 404
    bad = client.get(f"{REPO}/git/notes/a..b", headers=basic("ann"))
    assert bad.status_code == 422 and bad.get_json()["message"] == "no valid ref or sha: a..b"


def test_no_note_ref_is_404(client: FlaskClient, code: str) -> None:
    assert client.get(f"{REPO}/git/notes/{code}", headers=basic("ann")).status_code == 404


def test_signing_keys_are_absent(client: FlaskClient, code: str) -> None:
    for path in (f"{API}/signing-key.gpg", f"{API}/signing-key.pub"):
        response = client.get(path)
        assert response.status_code == 404 and response.get_json()["message"] == "no signing key"
    for name in ("signing-key.gpg", "signing-key.pub"):
        assert client.get(f"{REPO}/{name}").status_code == 404
    assert client.get(f"{API}/repos/ann/none/signing-key.gpg").get_json()["message"] != "no signing key"


def test_git_hooks_are_refused_even_to_the_owner(client: FlaskClient, admin_headers: dict[str, str], code: str) -> None:
    make_user(client, admin_headers, "bob")
    for method, path in (("GET", "hooks/git"), ("GET", "hooks/git/pre-receive"), ("DELETE", "hooks/git/update")):
        owner = client.open(f"{REPO}/{path}", method=method, headers=basic("ann"))
        assert owner.status_code == 403 and owner.get_json()["message"] == "must be allowed to edit Git hooks"
        assert client.open(f"{REPO}/{path}", method=method, headers=admin_headers).status_code == 403
        assert client.open(f"{REPO}/{path}", method=method, headers=basic("bob")).status_code == 403
        assert client.open(f"{REPO}/{path}", method=method).status_code in (401, 404)
    edited = client.patch(f"{REPO}/hooks/git/pre-receive", headers=basic("ann"), json={"content": "#!/bin/sh\n"})
    assert edited.status_code == 403


EDITORCONFIG = """root = true

[*]
indent_style = space
indent_size = 4
insert_final_newline = true
trim_trailing_whitespace = false

[*.{md,txt}]
indent_size = 2

[Makefile]
indent_style = Tab

[lib/**.js]
charset = utf-8

[file{1..3}.c]
end_of_line = LF
"""


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "main.py",
            {
                "indent_style": "space",
                "indent_size": "4",
                "tab_width": 4,
                "trim_trailing_whitespace": False,
                "insert_final_newline": True,
            },
        ),
        ("notes.md", {"indent_style": "space", "indent_size": "2", "tab_width": 2}),
        ("Makefile", {"indent_style": "tab", "indent_size": "4", "tab_width": 4}),
        ("file2.c", {"end_of_line": "lf"}),
        ("file7.c", {}),
        ("lib/a/b.js", {"charset": "utf-8"}),
    ],
)
def test_editorconfig_definitions(name: str, expected: dict[str, Any]) -> None:
    found = definition_for(parse_editorconfig(EDITORCONFIG), name)
    assert {key: found[key] for key in expected} == expected
    if not expected:
        assert set(found) <= {
            "indent_style",
            "indent_size",
            "tab_width",
            "trim_trailing_whitespace",
            "insert_final_newline",
        }


def test_editorconfig_route(client: FlaskClient, code: str) -> None:
    assert client.get(f"{REPO}/editorconfig/main.py", headers=basic("ann")).status_code == 404
    commit_file(client, "ann", "code", ".editorconfig", content=EDITORCONFIG)
    body = client.get(f"{REPO}/editorconfig/notes.md", headers=basic("ann")).get_json()
    assert body["indent_size"] == "2" and body["insert_final_newline"] is True
    assert client.get(f"{REPO}/editorconfig/a.py?ref=nope", headers=basic("ann")).status_code == 404


def test_languages_count_code_and_markup_only(client: FlaskClient, code: str) -> None:
    commit_file(client, "ann", "code", "src/app.py", content="print('hello')\n")
    commit_file(client, "ann", "code", "src/util.py", content="x = 1\n")
    commit_file(client, "ann", "code", "web/index.html", content="<p>hi</p>\n")
    commit_file(client, "ann", "code", "vendor/lib.py", content="vendored = True\n")
    commit_file(client, "ann", "code", "docs/api.py", content="documented = True\n")
    commit_file(client, "ann", "code", "package-lock.json", content="{}\n")
    commit_file(client, "ann", "code", "config.yaml", content="a: 1\n")
    commit_file(client, "ann", "code", ".hidden.py", content="hidden = 1\n")
    body = client.get(f"{REPO}/languages", headers=basic("ann")).get_json()
    assert body == {"Python": len("print('hello')\n") + len("x = 1\n"), "HTML": len("<p>hi</p>\n")}


def test_languages_of_an_empty_repository(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "ann")
    make_repo(client, "ann", "bare", auto_init=False)
    assert client.get(f"{API}/repos/ann/bare/languages", headers=basic("ann")).get_json() == {}


def test_form_bool_as_go_parses_it() -> None:
    assert [form_bool(raw) for raw in ("1", "t", "True", "TRUE", "yes", "0", "x", None)] == [
        True,
        True,
        True,
        True,
        False,
        False,
        False,
        False,
    ]
    assert form_bool(None, default=True) is True and form_bool("", default=True) is True


def test_recursive_that_is_no_boolean_is_not_a_refusal(client: FlaskClient, code: str) -> None:
    response = client.get(f"{REPO}/git/trees/main?recursive=yes", headers=basic("ann"))
    assert response.status_code == 200
    assert "docs/guide.md" not in {entry["path"] for entry in response.get_json()["tree"]}


def test_archive_of_chosen_paths(client: FlaskClient, code: str) -> None:
    zipped = client.get(f"{REPO}/archive/main.zip?path=docs/deep", headers=basic("ann"))
    assert zipped.status_code == 200
    names = zipfile.ZipFile(io.BytesIO(zipped.data)).namelist()
    assert "code/docs/deep/x.txt" in names and "code/README.md" not in names and "code/docs/guide.md" not in names
    assert client.get(f"{REPO}/archive/main.zip?path=../x", headers=basic("ann")).status_code == 400
    assert client.get(f"{REPO}/archive/main.zip?path=nothing", headers=basic("ann")).status_code == 404
    assert client.get(f"{REPO}/archive/main.bundle?path=docs", headers=basic("ann")).status_code == 400

"""Artifact zips as the official actions lay them out, and the native checkout through the contents API."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from test_mock_runner_support import ADMIN_TOKEN, LiveForge, live_forge

from mock_runner.archive import ZipStream, extract_zip, find_files, validate_artifact_name
from mock_runner.checkout import checkout
from mock_runner.jobenv import StepError

__all__ = ["live_forge"]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for name in ["out/a.txt", "out/sub/b.log", "out/.hidden/c.txt", "out/sub/d.txt", "other/e.txt", "top.txt"]:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(name)
    return tmp_path


def names(search_input: str, workspace: Path, **options: bool) -> tuple[list[str], str]:
    search = find_files(search_input, workspace, **options)
    return [search.archive_name(file) for file in search.files], search.root.relative_to(workspace).as_posix()


def test_a_directory_is_the_root_and_hidden_files_are_left_out(tree: Path) -> None:
    assert names("out/", tree) == (["a.txt", "sub/b.log", "sub/d.txt"], "out")
    assert names("out", tree, include_hidden=True)[0] == [".hidden/c.txt", "a.txt", "sub/b.log", "sub/d.txt"]


def test_a_single_file_lands_at_the_root(tree: Path) -> None:
    assert names("out/sub/b.log", tree) == (["b.log"], "out/sub")


def test_globs_keep_the_path_below_their_literal_prefix(tree: Path) -> None:
    assert names("out/**/*.txt", tree) == (["a.txt", "sub/d.txt"], "out")


def test_several_paths_share_their_common_ancestor_and_exclusions_apply(tree: Path) -> None:
    assert names("out/a.txt\nother/\n!other/e.txt\ntop.txt", tree) == (["out/a.txt", "top.txt"], ".")


def test_nothing_found_gives_an_empty_search(tree: Path) -> None:
    assert find_files("missing/*.txt", tree).files == []
    with pytest.raises(StepError, match="names no file"):
        find_files("\n  \n", tree)


@pytest.mark.parametrize("name", ["a/b", "a:b", "a*b", "a\nb", "", "a\\b"])
def test_bad_artifact_names(name: str) -> None:
    with pytest.raises(StepError):
        validate_artifact_name(name)


def test_zip_stream_round_trip_keeps_bytes_and_modes(tree: Path) -> None:
    script = tree / "out" / "run.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o755)
    big = tree / "out" / "big.bin"
    big.write_bytes(bytes(range(256)) * 8192)
    search = find_files("out", tree)
    with ZipStream(search, compression_level=9) as stream:
        data = b"".join(iter(lambda: stream.read(65536), b""))
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert archive.read("big.bin") == big.read_bytes()
    assert sorted(archive.namelist()) == ["a.txt", "big.bin", "run.sh", "sub/b.log", "sub/d.txt"]
    destination = tree / "extracted"
    (tree / "bundle.zip").write_bytes(data)
    extract_zip(tree / "bundle.zip", destination)
    assert (destination / "run.sh").stat().st_mode & 0o100
    assert (destination / "sub" / "d.txt").read_text() == "out/sub/d.txt"


def test_zip_stream_reports_a_file_that_vanished(tree: Path) -> None:
    search = find_files("out", tree)
    (tree / "out" / "sub" / "d.txt").unlink()
    with ZipStream(search) as stream, pytest.raises(StepError, match="cannot zip"):
        while stream.read(65536):
            pass


def test_extraction_refuses_entries_outside_the_destination(tmp_path: Path) -> None:
    bundle = tmp_path / "evil.zip"
    with zipfile.ZipFile(bundle, "w") as archive:
        archive.writestr("../escape.txt", "x")
    with pytest.raises(StepError, match="outside"):
        extract_zip(bundle, tmp_path / "dest")
    assert not (tmp_path / "escape.txt").exists()


def test_extraction_refuses_a_file_that_is_not_a_zip(tmp_path: Path) -> None:
    bundle = tmp_path / "plain.zip"
    bundle.write_text("not a zip")
    with pytest.raises(StepError, match="not a valid zip"):
        extract_zip(bundle, tmp_path / "dest")


@pytest.mark.parametrize("transport", ["contents API", "git over HTTP"])
def test_checkout_copies_the_commit(
    live_forge: LiveForge, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, transport: str
) -> None:
    if transport == "contents API":
        monkeypatch.setattr("mock_runner.checkout._serves_git", lambda *_: False)
    repo = live_forge.create_repo("checkout")
    live_forge.push_file(repo, "docs/intro.md", "# demo\n")
    sha = live_forge.push_file(repo, "src/pkg/data.bin", bytes(range(256)))
    live_forge.push_file(repo, "src/later.txt", "after the checked-out commit")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    lines: list[str] = []
    context = {"repository": repo, "sha": sha, "ref": "refs/heads/main"}
    checkout({"path": "code"}, context=context, instance_url=live_forge.url, workspace=workspace,
             token=ADMIN_TOKEN, log=lines.append)  # fmt: skip
    root = workspace / "code"
    assert (root / "docs" / "intro.md").read_text() == "# demo\n"
    assert (root / "README.md").exists()
    assert (root / "src" / "pkg" / "data.bin").read_bytes() == bytes(range(256))
    assert not (root / "src" / "later.txt").exists()
    assert any(transport in line for line in lines), lines


def test_checkout_refuses_paths_outside_the_workspace(tmp_path: Path) -> None:
    with pytest.raises(StepError, match="outside the workspace"):
        checkout({"path": "../x"}, context={"repository": "a/b", "sha": "1" * 40}, instance_url="http://127.0.0.1:9",
                 workspace=tmp_path, token="t", log=print)  # fmt: skip

"""Commits: the list (filters, paging, count headers), single commits and comparisons."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from git_history import DELTA_DEPTH, fast_import_script, write_linear_history
from test_server_branches_support import API, basic, commit_file, head_of, make_repo, make_user
from test_server_orgs_support import assert_error

from reference_server.commits.compare import parse_basehead
from reference_server.commits.errors import InvalidCompare

COMMITS = f"{API}/repos/ann/code/commits"


@pytest.fixture
def history(client: FlaskClient, admin_headers: dict[str, str]) -> list[str]:
    """``ann/code``: the initial commit and three more on main, oldest first."""
    make_user(client, admin_headers, "ann")
    make_repo(client, "ann", "code")
    shas = [str(head_of(client, "ann", "code", "main"))]
    shas += [commit_file(client, "ann", "code", f"f{number}.txt", content=f"{number}\n") for number in range(1, 4)]
    return shas


def _shas(response: object) -> list[str]:
    return [item["sha"] for item in response.get_json()]  # type: ignore[attr-defined]


def test_list_pages_newest_first_with_the_count_headers(client: FlaskClient, history: list[str]) -> None:
    response = client.get(f"{COMMITS}?limit=3&page=2", headers=basic("ann"))
    assert response.status_code == 200
    assert _shas(response) == [history[0]]
    assert response.headers["X-Total-Count"] == "4"
    assert response.headers["X-PageCount"] == "2"
    assert "X-Total" not in response.headers
    assert 'rel="first"' in response.headers["Link"]
    assert "X-PageCount" in response.headers["Access-Control-Expose-Headers"]


def test_filters(client: FlaskClient, history: list[str]) -> None:
    by_path = client.get(f"{COMMITS}?path=f2.txt", headers=basic("ann"))
    assert _shas(by_path) == [history[2]]
    assert _shas(client.get(f"{COMMITS}?path=/f2.txt", headers=basic("ann"))) == [history[2]]
    assert by_path.headers["X-Total-Count"] == "1"
    excluded = client.get(f"{COMMITS}?not={history[2]}", headers=basic("ann"))
    assert _shas(excluded) == [history[3]]
    start = client.get(f"{COMMITS}?sha={history[1]}", headers=basic("ann"))
    assert _shas(start) == [history[1], history[0]]
    future = client.get(f"{COMMITS}?since=2999-01-01T00:00:00Z", headers=basic("ann"))
    assert future.get_json() == []
    assert future.headers["X-Total-Count"] == "0"
    until = client.get(f"{COMMITS}?until=2000-01-01T00:00:00%2B02:00", headers=basic("ann"))
    assert until.get_json() == []


def test_options_leave_out_stats_files_and_verification(client: FlaskClient, history: list[str]) -> None:
    full = client.get(f"{COMMITS}?limit=1", headers=basic("ann")).get_json()[0]
    assert full["files"] == [{"filename": "f3.txt", "status": "added"}]
    assert full["stats"] == {"total": 1, "additions": 1, "deletions": 0}
    assert full["commit"]["verification"]["verified"] is False
    assert full["author"]["login"] == "ann"
    bare = client.get(f"{COMMITS}?limit=1&stat=false&files=false&verification=false", headers=basic("ann"))
    item = bare.get_json()[0]
    assert item["files"] is None and item["stats"] is None and item["commit"]["verification"] is None


@pytest.mark.parametrize(
    ("query", "status", "fragment"),
    [
        ("since=yesterday", 422, "RFC 3339"),
        ("until=2024-01-01", 422, "RFC 3339"),
        ("sha=nope", 404, "object does not exist"),
        ("not=nope", 404, "object does not exist"),
        ("path=never.txt", 404, "no commit"),
        ("stat=maybe", 400, "stat"),
        ("path=../outside", 422, "malformed path component"),
        ("path=:(exclude)f1.txt", 404, "no commit"),
    ],
)
def test_list_refusals(client: FlaskClient, history: list[str], query: str, status: int, fragment: str) -> None:
    assert_error(client.get(f"{COMMITS}?{query}", headers=basic("ann")), status, fragment)


def test_empty_repository_is_a_conflict(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "ann")
    client.post(f"{API}/user/repos", headers=basic("ann"), json={"name": "void"})
    assert_error(client.get(f"{API}/repos/ann/void/commits", headers=basic("ann")), 409, "Git Repository is empty.")
    assert_error(client.get(f"{API}/repos/ann/void/git/commits/main", headers=basic("ann")), 409)


def test_single_commit(client: FlaskClient, history: list[str]) -> None:
    body = client.get(f"{API}/repos/ann/code/git/commits/{history[2]}", headers=basic("ann")).get_json()
    assert body["sha"] == history[2]
    assert [parent["sha"] for parent in body["parents"]] == [history[1]]
    assert body["files"] == [{"filename": "f2.txt", "status": "added"}]
    assert_error(client.get(f"{API}/repos/ann/code/git/commits/{'e' * 40}", headers=basic("ann")), 404)


@pytest.mark.parametrize(
    ("basehead", "base", "head", "owner", "repo", "direct"),
    [
        ("main...dev", "main", "dev", "", "", False),
        ("main..dev", "main", "dev", "", "", True),
        ("dev", "", "dev", "", "", True),
        ("main...bob:dev", "main", "dev", "bob", "", False),
        ("main...bob/fork:dev", "main", "dev", "bob", "fork", False),
    ],
)
def test_parse_basehead(  # noqa: PLR0917 - parametrized cases
    basehead: str, base: str, head: str, owner: str, repo: str, direct: bool
) -> None:
    parsed = parse_basehead(basehead)
    assert (parsed.base_ref, parsed.head_ref, parsed.head_owner, parsed.head_repo, parsed.direct) == (
        base,
        head,
        owner,
        repo,
        direct,
    )
    assert parse_basehead("main^^...dev").base_carets == 2


@pytest.mark.parametrize("basehead", ["a...b...c", "a..b..c"])
def test_parse_basehead_refuses_two_separators(basehead: str) -> None:
    with pytest.raises(InvalidCompare):
        parse_basehead(basehead)


def test_compare(client: FlaskClient, history: list[str]) -> None:
    base = f"{API}/repos/ann/code/compare"
    body = client.get(f"{base}/{history[1]}...main", headers=basic("ann")).get_json()
    assert body["total_commits"] == 2
    assert [item["sha"] for item in body["commits"]] == [history[3], history[2]]
    parent = client.get(f"{base}/main^...main", headers=basic("ann")).get_json()
    assert [item["sha"] for item in parent["commits"]] == [history[3]]
    diff = client.get(f"{base}/{history[2]}...main?output=diff", headers=basic("ann"))
    assert diff.content_type == "text/plain; charset=utf-8"
    assert "+++ b/f3.txt" in diff.get_data(as_text=True)
    patch = client.get(f"{base}/{history[2]}...main?output=patch", headers=basic("ann")).get_data(as_text=True)
    assert patch.count("Subject: [PATCH") == 1
    assert_error(client.get(f"{base}/main...nope", headers=basic("ann")), 404)
    assert_error(client.get(f"{base}/main...nobody:main", headers=basic("ann")), 404)
    assert_error(client.get(f"{base}/a...b...c", headers=basic("ann")), 400, "invalid compare router")


def test_the_packed_history_is_the_one_git_fast_import_makes(tmp_path: Path) -> None:
    """``write_linear_history`` stands for ``git fast-import`` below: same objects, more than two delta chains."""
    count = 2 * DELTA_DEPTH + 7
    packed, imported = tmp_path / "packed.git", tmp_path / "imported.git"
    for git_dir in (packed, imported):
        subprocess.run(["git", "init", "-q", "--bare", str(git_dir)], check=True)
    head = write_linear_history(packed, count)
    script = fast_import_script(count)
    subprocess.run(["git", f"--git-dir={imported}", "fast-import", "--quiet"], input=script, check=True)
    expected = subprocess.run(
        ["git", f"--git-dir={imported}", "rev-parse", "main"], check=True, capture_output=True, text=True
    )
    assert head == expected.stdout.strip()
    subprocess.run(["git", f"--git-dir={packed}", "fsck", "--strict", "--no-dangling"], check=True, capture_output=True)


def test_counting_and_paging_stay_cheap_on_ten_thousand_commits(
    app: Flask, client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    make_user(client, admin_headers, "ann")
    client.post(f"{API}/user/repos", headers=basic("ann"), json={"name": "big"})
    write_linear_history(app.extensions["forge"].config.data_dir / "git" / "ann" / "big.git", 10_000)
    started = time.monotonic()
    first = client.get(f"{API}/repos/ann/big/commits?limit=50", headers=basic("ann"))
    last = client.get(f"{API}/repos/ann/big/commits?limit=50&page=200", headers=basic("ann"))
    elapsed = time.monotonic() - started
    assert first.headers["X-Total-Count"] == "10000"
    assert last.headers["X-PageCount"] == "200"
    assert last.get_json()[-1]["files"] == [{"filename": "f1.txt", "status": "added"}]
    assert elapsed < 30, f"two pages of a 10,000-commit history took {elapsed:.1f} s"

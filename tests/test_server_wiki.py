"""Wiki family: pages kept as Markdown files of ``<repo>.wiki.git``, named as Gitea names them, readers and writers."""

from __future__ import annotations

import base64

import pytest
from flask.testing import FlaskClient

from reference_server.wiki import paths

API = "/api/v1"
PASSWORD = "correct-horse-battery"
WIKI = f"{API}/repos/ann/demo/wiki"


def _basic(user: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{PASSWORD}".encode()).decode()}


def _user(client: FlaskClient, admin: dict[str, str], name: str) -> dict[str, str]:
    body = {"username": name, "email": f"{name}@example.com", "password": PASSWORD, "must_change_password": False}
    assert client.post(f"{API}/admin/users", headers=admin, json=body).status_code == 201
    return _basic(name)


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@pytest.fixture
def ann(client: FlaskClient, admin_headers: dict[str, str]) -> dict[str, str]:
    """Ann owns ``ann/demo``."""
    headers = _user(client, admin_headers, "ann")
    assert client.post(f"{API}/user/repos", headers=headers, json={"name": "demo"}).status_code == 201
    return headers


@pytest.mark.parametrize(
    ("title", "web", "git"),
    [
        ("Home Page", "Home-Page", "Home-Page.md"),
        ("100% Free", "100%25-Free", "100%25-Free.md"),
        ("2000-01-02 meeting", "2000-01-02+meeting.-", "2000-01-02 meeting.-.md"),
        ("notes.md", "notes.md.-", "notes.md.-.md"),
        ("   ", "unnamed", "unnamed.md"),
        ("a/b", "a%2Fb", "a%2Fb.md"),
    ],
)
def test_titles_become_web_and_git_paths_as_gitea_names_them(title: str, web: str, git: str) -> None:
    assert paths.title_to_web_path(title) == web
    assert paths.web_path_to_git_path(web) == git
    assert paths.git_path_to_web_path(git) == web
    assert paths.web_path_title(web) == (title.strip() or "unnamed")


def test_reserved_names_and_non_pages() -> None:
    assert paths.reserved_segment(paths.title_to_web_path("_pages")) == "_pages"
    assert paths.reserved_segment("Home") is None
    assert paths.git_path_to_web_path("image.png") is None


def test_create_read_list_edit_delete(client: FlaskClient, ann: dict[str, str]) -> None:
    assert client.get(f"{WIKI}/pages", headers=ann).status_code == 404  # no wiki yet
    created = client.post(f"{WIKI}/new", headers=ann, json={"title": "Home Page", "content_base64": _b64("# Hi")})
    assert created.status_code == 201, created.json
    page = created.json or {}
    assert page["title"] == "Home Page" and page["sub_url"] == "Home-Page"
    assert base64.b64decode(page["content_base64"]) == b"# Hi"
    assert page["commit_count"] == 1 and page["sidebar"] == "" and page["footer"] == ""
    assert page["last_commit"]["message"].rstrip("\n") == 'Add "Home Page"'
    assert page["html_url"] == "http://forge.test/ann/demo/wiki/Home-Page"
    client.post(f"{WIKI}/new", headers=ann, json={"title": "_Sidebar", "content_base64": _b64("side")})
    read = client.get(f"{WIKI}/page/Home-Page").json or {}
    assert base64.b64decode(read["sidebar"]) == b"side"
    edited = client.patch(
        f"{WIKI}/page/Home-Page", headers=ann, json={"title": "Home Page", "content_base64": _b64("v2")}
    )
    assert edited.status_code == 200 and (edited.json or {})["commit_count"] == 2
    revisions = client.get(f"{WIKI}/revisions/Home-Page").json or {}
    assert revisions["count"] == 2 and len(revisions["commits"]) == 2
    listed = client.get(f"{WIKI}/pages")
    assert sorted(item["title"] for item in listed.json or []) == ["Home Page", "_Sidebar"]
    assert listed.headers["X-Total-Count"] == "2"
    assert client.delete(f"{WIKI}/page/Home-Page", headers=ann).status_code == 204
    assert client.get(f"{WIKI}/page/Home-Page").status_code == 404
    assert client.delete(f"{WIKI}/page/Home-Page", headers=ann).status_code == 404


def test_refusals(client: FlaskClient, ann: dict[str, str], admin_headers: dict[str, str]) -> None:
    assert client.post(f"{WIKI}/new", headers=ann, json={"title": " ", "content_base64": ""}).status_code == 400
    assert client.post(f"{WIKI}/new", headers=ann, json={"title": "raw", "content_base64": ""}).status_code == 400
    bad = client.post(f"{WIKI}/new", headers=ann, json={"title": "x", "content_base64": "%%%"})
    assert bad.status_code == 400
    assert client.post(f"{WIKI}/new", headers=ann, json={"title": "x", "content_base64": ""}).status_code == 201
    again = client.post(f"{WIKI}/new", headers=ann, json={"title": "x", "content_base64": ""})
    assert again.status_code == 400 and "already exists" in (again.json or {})["message"]
    bob = _user(client, admin_headers, "bob")
    assert client.post(f"{WIKI}/new", headers=bob, json={"title": "y", "content_base64": ""}).status_code == 403
    assert client.get(f"{WIKI}/page/x", headers=bob).status_code == 200


def test_edit_without_title_moves_the_page_to_unnamed(client: FlaskClient, ann: dict[str, str]) -> None:
    client.post(f"{WIKI}/new", headers=ann, json={"title": "Plan", "content_base64": _b64("a")})
    edited = client.patch(f"{WIKI}/page/Plan", headers=ann, json={"content_base64": _b64("b")})
    assert edited.status_code == 200 and (edited.json or {})["sub_url"] == "unnamed"
    assert client.get(f"{WIKI}/page/Plan").status_code == 404


def test_the_wiki_goes_with_its_repository(client: FlaskClient, ann: dict[str, str]) -> None:
    client.post(f"{WIKI}/new", headers=ann, json={"title": "Plan", "content_base64": _b64("a")})
    assert client.delete(f"{API}/repos/ann/demo", headers=ann).status_code == 204
    assert client.post(f"{API}/user/repos", headers=ann, json={"name": "demo"}).status_code == 201
    assert client.get(f"{WIKI}/pages").status_code == 404


def test_the_wiki_follows_a_renamed_repository(client: FlaskClient, ann: dict[str, str]) -> None:
    client.post(f"{WIKI}/new", headers=ann, json={"title": "Plan", "content_base64": _b64("a")})
    assert client.patch(f"{API}/repos/ann/demo", headers=ann, json={"name": "renamed"}).status_code == 200
    moved = client.get(f"{API}/repos/ann/renamed/wiki/page/Plan")
    assert moved.status_code == 200 and moved.get_json()["html_url"].endswith("/ann/renamed/wiki/Plan")


def test_a_page_is_named_by_its_raw_path_segment(client: FlaskClient, ann: dict[str, str]) -> None:
    created = client.post(f"{WIKI}/new", headers=ann, json={"title": "a/b", "content_base64": _b64("slash")})
    assert created.get_json()["sub_url"] == "a%2Fb"
    read = client.get(f"{WIKI}/page/a%2Fb")
    assert read.status_code == 200 and base64.b64decode(read.get_json()["content_base64"]) == b"slash"
    assert client.get(f"{WIKI}/page/a/b").status_code == 404  # a real slash names no page
    client.post(f"{WIKI}/new", headers=ann, json={"title": "Home Page", "content_base64": _b64("h")})
    assert client.get(f"{WIKI}/page/Home%20Page").get_json()["sub_url"] == "Home%20Page"

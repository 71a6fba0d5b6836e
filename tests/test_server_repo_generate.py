"""Generating a repository from a template: the checks, the copied items, the expanded content."""

from __future__ import annotations

import base64
import io
from typing import Any

from flask.testing import FlaskClient
from PIL import Image
from test_server_orgs_support import API, assert_error, basic, make_org, make_user

GENERATE = f"{API}/repos/olga/tpl/generate"


def put_file(client: FlaskClient, path: str, text: str) -> None:
    body = {"content": base64.b64encode(text.encode()).decode(), "message": f"add {path}"}
    assert client.post(f"{API}/repos/olga/tpl/contents/{path}", headers=basic("olga"), json=body).status_code == 201


def setup(client: FlaskClient, admin: dict[str, str]) -> None:
    for name in ("olga", "pete"):
        make_user(client, admin, name)
    body = {"name": "tpl", "auto_init": True, "description": "the template", "issue_labels": "Default"}
    assert client.post(f"{API}/user/repos", headers=basic("olga"), json=body).status_code == 201
    put_file(client, ".gitea/template", "# expanded files\n*.md\nsrc/**\n")
    put_file(client, "src/$REPO_NAME.txt", "owner: ${REPO_OWNER}, from $TEMPLATE_NAME\n")
    put_file(client, "keep.txt", "$REPO_NAME stays\n")
    client.put(f"{API}/repos/olga/tpl/topics/starter", headers=basic("olga"))


def make_template(client: FlaskClient) -> None:
    assert client.patch(f"{API}/repos/olga/tpl", headers=basic("olga"), json={"template": True}).status_code == 200


def read(client: FlaskClient, repo: str, path: str, who: str = "olga") -> Any:
    return client.get(f"{API}/repos/{repo}/contents/{path}", headers=basic(who))


def test_refusals(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    body = {"owner": "olga", "name": "copy", "git_content": True}
    assert_error(client.post(GENERATE, headers=basic("olga"), json=body), 422, "this is not a template repo")
    make_template(client)
    assert_error(
        client.post(GENERATE, headers=basic("olga"), json={"owner": "olga", "name": "copy"}), 422, "at least one"
    )
    assert_error(client.post(GENERATE, headers=basic("olga"), json={"owner": "olga", "git_content": True}), 422)
    assert_error(client.post(GENERATE, headers=basic("pete"), json={**body, "owner": "olga"}), 403, "Only admin")
    assert_error(client.post(GENERATE, headers=basic("pete"), json={**body, "owner": "nobody"}), 404, "nobody")
    make_org(client, "olga", "guild")
    assert_error(client.post(GENERATE, headers=basic("pete"), json={**body, "owner": "guild"}), 403, "not allowed")
    assert_error(client.post(GENERATE, json=body), 401)
    assert client.post(GENERATE, headers=basic("olga"), json=body).status_code == 201
    assert_error(client.post(GENERATE, headers=basic("olga"), json=body), 409, "already exists")


def test_git_content_is_one_expanded_commit(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    make_template(client)
    body = {"owner": "pete", "name": "fresh", "git_content": True, "topics": True, "labels": True, "private": True}
    created = client.post(GENERATE, headers=basic("pete"), json=body)
    assert created.status_code == 201, created.get_data(as_text=True)
    repo = created.get_json()
    assert (repo["full_name"], repo["template"], repo["private"], repo["empty"]) == ("pete/fresh", False, True, False)
    assert repo["topics"] == ["starter"]
    expanded = read(client, "pete/fresh", "src/fresh.txt", "pete").get_json()
    assert base64.b64decode(expanded["content"]).decode() == "owner: pete, from tpl\n"
    kept = read(client, "pete/fresh", "keep.txt", "pete").get_json()
    assert base64.b64decode(kept["content"]).decode() == "$REPO_NAME stays\n"
    assert read(client, "pete/fresh", ".gitea/template", "pete").status_code == 404
    commits = client.get(f"{API}/repos/pete/fresh/commits", headers=basic("pete")).get_json()
    assert len(commits) == 1 and commits[0]["commit"]["message"].strip() == "Initial commit"
    assert commits[0]["commit"]["author"]["name"] == "pete"
    labels = client.get(f"{API}/repos/pete/fresh/labels", headers=basic("pete")).get_json()
    assert len(labels) > 0


def test_without_content_the_repository_is_empty(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    make_template(client)
    created = client.post(GENERATE, headers=basic("olga"), json={"owner": "olga", "name": "bare", "topics": True})
    assert created.status_code == 201
    body = created.get_json()
    assert body["empty"] is True and body["topics"] == ["starter"]
    assert client.get(f"{API}/repos/olga/bare/labels", headers=basic("olga")).get_json() == []


def test_webhooks_protections_and_avatar_are_copied(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    make_template(client)
    hook = {"type": "gitea", "config": {"url": "http://127.0.0.1:9/h", "content_type": "json"}, "events": ["push"]}
    assert client.post(f"{API}/repos/olga/tpl/hooks", headers=basic("olga"), json=hook).status_code == 201
    rule = {"rule_name": "main", "enable_push": False}
    assert client.post(f"{API}/repos/olga/tpl/branch_protections", headers=basic("olga"), json=rule).status_code == 201
    out = io.BytesIO()
    Image.new("RGB", (16, 16), (10, 200, 30)).save(out, format="PNG")
    image = {"image": base64.b64encode(out.getvalue()).decode()}
    assert client.post(f"{API}/repos/olga/tpl/avatar", headers=basic("olga"), json=image).status_code == 204
    body = {"owner": "olga", "name": "all", "webhooks": True, "protected_branch": True, "avatar": True}
    created = client.post(GENERATE, headers=basic("olga"), json=body)
    assert created.status_code == 201, created.get_data(as_text=True)
    assert created.get_json()["avatar_url"] != ""
    hooks = client.get(f"{API}/repos/olga/all/hooks", headers=basic("olga")).get_json()
    assert [item["config"]["url"] for item in hooks] == ["http://127.0.0.1:9/h"] and hooks[0]["events"] == ["push"]
    rules = client.get(f"{API}/repos/olga/all/branch_protections", headers=basic("olga")).get_json()
    assert [(item["rule_name"], item["enable_push"]) for item in rules] == [("main", False)]

"""Repositories of the reference server: creation over bare Git, visibility, permissions, deletion."""

from __future__ import annotations

import base64
import os
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import make_server

from reference_server.auth import Principal
from reference_server.events import PushEvent, RepoDeletedEvent
from reference_server.gitcli import ZERO_SHA
from reference_server.permissions import Permission, permission, require_repo
from reference_server.repos import models as repos
from reference_server.repos.errors import RepoNotFound, RepoPermissionDenied

PASSWORD = "correct-horse-battery"


def basic(user: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{PASSWORD}".encode()).decode()}


def make_user(client: FlaskClient, admin: dict[str, str], name: str) -> dict[str, str]:
    """Create a user and return basic-auth headers for it."""
    body = {"username": name, "email": f"{name}@example.com", "password": PASSWORD, "must_change_password": False}
    assert client.post("/api/v1/admin/users", headers=admin, json=body).status_code == 201
    return basic(name)


def create_repo(client: FlaskClient, headers: dict[str, str], **body: Any) -> dict[str, Any]:
    response = client.post("/api/v1/user/repos", headers=headers, json=body)
    assert response.status_code == 201, response.json
    created = response.json
    assert isinstance(created, dict)
    return created


def assert_error(response: Any, status: int, contains: str = "") -> None:
    assert response.status_code == status, (response.status_code, response.data)
    assert set(response.json) == {"message", "url"}
    assert contains.lower() in response.json["message"].lower(), response.json["message"]


def test_create_repository_makes_a_bare_git_repository(
    app: Flask, client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    alice = make_user(client, admin_headers, "Alice")
    repo = create_repo(client, alice, name="My-Repo", description="d")
    git_dir = Path(app.extensions["forge"].config.data_dir)
    bare = git_dir / "git" / "alice" / "my-repo.git"
    assert bare.is_dir()
    out = subprocess.run(
        ["git", f"--git-dir={bare}", "rev-parse", "--is-bare-repository"], capture_output=True, check=True
    )
    assert out.stdout.strip() == b"true"
    head = subprocess.run(["git", f"--git-dir={bare}", "symbolic-ref", "HEAD"], capture_output=True, check=True)
    assert head.stdout.strip() == b"refs/heads/main"
    assert repo["name"] == "My-Repo" and repo["full_name"] == "Alice/My-Repo"
    assert repo["owner"]["login"] == "Alice"
    assert repo["empty"] is True and repo["private"] is False and repo["fork"] is False
    assert repo["default_branch"] == "main"
    assert repo["description"] == "d"
    assert repo["html_url"] == "http://forge.test/Alice/My-Repo"
    assert repo["clone_url"] == "http://forge.test/Alice/My-Repo.git"
    assert repo["url"] == "http://forge.test/api/v1/repos/Alice/My-Repo"
    assert repo["permissions"] == {"admin": True, "push": True, "pull": True}
    assert repo["created_at"].endswith("+00:00")
    assert not [p for p in bare.parent.iterdir() if p.name.startswith(".tmp-")]


def test_auto_init_commits_a_readme_on_the_chosen_default_branch(
    client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    bob = make_user(client, admin_headers, "bob")
    repo = create_repo(client, bob, name="init", auto_init=True, default_branch="trunk", description="About")
    assert repo["empty"] is False and repo["default_branch"] == "trunk" and repo["branch_count"] == 1
    readme = client.get("/api/v1/repos/bob/init/contents/README.md", headers=bob)
    assert readme.status_code == 200 and readme.json is not None
    assert base64.b64decode(readme.json["content"]) == b"# init\n\nAbout\n"
    assert readme.json["url"].endswith("?ref=trunk")


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({}, 422, "[Name]: Required"),
        ({"name": ""}, 422, "[Name]: Required"),
        ({"name": "a b"}, 422, "[Name]"),
        ({"name": "a/b"}, 422, "[Name]"),
        ({"name": "."}, 422, "reserved"),
        ({"name": ".."}, 422, "reserved"),
        ({"name": "x.git"}, 422, "*.git"),
        ({"name": "X.GIT"}, 422, "*.git"),
        ({"name": "r" * 101}, 422, "MaxSize"),
        ({"name": "ok", "private": "yes"}, 422, "[Private]"),
        ({"name": "ok", "default_branch": "bad..name"}, 422, "DefaultBranch"),
        ({"name": "ok", "auto_init": True, "readme": "Fancy"}, 400, "readme"),
        ({"name": "ok", "license": "No-Such-License"}, 422, "license"),
        ({"name": "ok", "object_format_name": "sha256"}, 422, "ObjectFormatName"),
    ],
)
def test_create_repository_refuses_bad_input(
    app: Flask, admin_headers: dict[str, str], body: dict[str, Any], status: int, message: str
) -> None:
    client = app.test_client()
    carol = make_user(client, admin_headers, "carol")
    assert_error(client.post("/api/v1/user/repos", headers=carol, json=body), status, message)
    data_dir = app.extensions["forge"].config.data_dir
    assert not (data_dir / "git" / "carol").exists() or not any((data_dir / "git" / "carol").iterdir())


def test_existing_name_is_a_conflict(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    dave = make_user(client, admin_headers, "dave")
    create_repo(client, dave, name="twice", auto_init=True)
    response = client.post("/api/v1/user/repos", headers=dave, json={"name": "TWICE"})
    assert_error(response, 409, "same name already exists")
    assert client.get("/api/v1/repos/dave/twice", headers=dave).json["empty"] is False  # type: ignore[index]


def test_create_needs_credentials_and_both_scopes(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    erin = make_user(client, admin_headers, "erin")
    assert_error(client.post("/api/v1/user/repos", json={"name": "r"}), 401)
    only_repo = client.post(
        "/api/v1/users/erin/tokens", headers=erin, json={"name": "r", "scopes": ["write:repository"]}
    )
    assert only_repo.json is not None
    headers = {"Authorization": f"token {only_repo.json['sha1']}"}
    assert_error(client.post("/api/v1/user/repos", headers=headers, json={"name": "r"}), 403, "write:user")


def test_private_repository_visibility(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    frank = make_user(client, admin_headers, "frank")
    grace = make_user(client, admin_headers, "grace")
    create_repo(client, frank, name="hidden", private=True)
    create_repo(client, frank, name="open")
    assert client.get("/api/v1/repos/frank/hidden", headers=frank).status_code == 200
    assert client.get("/api/v1/repos/frank/hidden", headers=admin_headers).status_code == 200
    assert_error(client.get("/api/v1/repos/frank/hidden"), 404)
    assert_error(client.get("/api/v1/repos/frank/hidden", headers=grace), 404)
    public = client.get("/api/v1/repos/frank/open")
    assert public.status_code == 200 and public.json is not None
    assert public.json["permissions"] == {"admin": False, "push": False, "pull": True}
    assert_error(client.get("/api/v1/repos/frank/missing", headers=frank), 404)
    assert_error(client.get("/api/v1/repos/nobody/missing"), 404)


def test_delete_repository_publishes_event_and_removes_git_data(
    app: Flask, client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    heidi = make_user(client, admin_headers, "heidi")
    ivan = make_user(client, admin_headers, "ivan")
    repo = create_repo(client, heidi, name="gone", auto_init=True)
    seen: list[tuple[int, bool]] = []
    forge = app.extensions["forge"]

    def on_deleted(event: RepoDeletedEvent) -> None:
        row = forge.db.one("SELECT id FROM repos WHERE id = ?", (event.repo_id,))
        seen.append((event.repo_id, row is not None))

    forge.events.subscribe(RepoDeletedEvent, on_deleted)
    assert_error(client.delete("/api/v1/repos/heidi/gone", headers=ivan), 403, "owner")
    assert_error(client.delete("/api/v1/repos/heidi/gone"), 401)
    assert seen == []
    assert client.delete("/api/v1/repos/heidi/gone", headers=heidi).status_code == 204
    assert seen == [(repo["id"], True)]  # announced while the row still existed
    assert_error(client.get("/api/v1/repos/heidi/gone", headers=heidi), 404)
    assert not (forge.config.data_dir / "git" / "heidi" / "gone.git").exists()
    assert_error(client.delete("/api/v1/repos/heidi/gone", headers=heidi), 404)
    create_repo(client, heidi, name="gone")  # the name is free again


def test_admin_may_delete_any_repository(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    judy = make_user(client, admin_headers, "judy")
    create_repo(client, judy, name="r", private=True)
    assert client.delete("/api/v1/repos/judy/r", headers=admin_headers).status_code == 204


def test_org_repositories_and_owner_rights(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    kim = make_user(client, admin_headers, "kim")
    leo = make_user(client, admin_headers, "leo")
    assert client.post("/api/v1/orgs", headers=kim, json={"username": "team"}).status_code == 201
    made = client.post("/api/v1/orgs/team/repos", headers=kim, json={"name": "svc", "private": True})
    assert made.status_code == 201 and made.json is not None
    assert made.json["owner"]["login"] == "team" and made.json["full_name"] == "team/svc"
    assert_error(client.post("/api/v1/orgs/team/repos", headers=leo, json={"name": "x"}), 403, "not allowed")
    assert_error(client.post("/api/v1/orgs/nowhere/repos", headers=kim, json={"name": "x"}), 404)
    assert_error(client.post("/api/v1/orgs/team/repos", headers=kim, json={"name": "svc"}), 409)
    assert_error(client.get("/api/v1/repos/team/svc", headers=leo), 404)
    listed = client.get("/api/v1/orgs/team/repos", headers=kim)
    assert listed.status_code == 200 and [r["name"] for r in listed.json or []] == ["svc"]
    assert listed.headers["X-Total-Count"] == "1"
    assert client.get("/api/v1/orgs/team/repos").json == []  # private repos are invisible anonymously
    assert client.delete("/api/v1/repos/team/svc", headers=kim).status_code == 204


def test_public_repository_of_a_private_or_limited_owner(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    una = make_user(client, admin_headers, "una")
    vic = make_user(client, admin_headers, "vic")
    client.post("/api/v1/orgs", headers=una, json={"username": "secretive", "visibility": "private"})
    client.post("/api/v1/orgs", headers=una, json={"username": "members", "visibility": "limited"})
    for org in ("secretive", "members"):
        assert client.post(f"/api/v1/orgs/{org}/repos", headers=una, json={"name": "pub"}).status_code == 201
    assert_error(client.get("/api/v1/repos/secretive/pub"), 404)
    assert_error(client.get("/api/v1/repos/secretive/pub", headers=vic), 404)
    assert client.get("/api/v1/repos/secretive/pub", headers=una).status_code == 200
    assert_error(client.get("/api/v1/repos/members/pub"), 404)
    assert client.get("/api/v1/repos/members/pub", headers=vic).status_code == 200


def test_list_own_repositories(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    mia = make_user(client, admin_headers, "mia")
    for name in ("b", "a", "c"):
        create_repo(client, mia, name=name)
    page = client.get("/api/v1/user/repos?limit=2", headers=mia)
    assert page.status_code == 200 and [r["name"] for r in page.json or []] == ["a", "b"]
    assert page.headers["X-Total-Count"] == "3"
    assert_error(client.get("/api/v1/user/repos"), 401)


def test_permission_and_require_repo_rules(app: Flask, client: FlaskClient, admin_headers: dict[str, str]) -> None:
    nick = make_user(client, admin_headers, "nick")
    make_user(client, admin_headers, "olga")
    create_repo(client, nick, name="pub")
    create_repo(client, nick, name="priv", private=True)
    with app.app_context():
        from reference_server.users.models import get_user_by_name

        owner_id = get_user_by_name("nick").id
        other_id = get_user_by_name("olga").id
        pub = repos.get_repo("NICK", "PUB")
        priv = repos.get_repo_by_id(repos.get_repo("nick", "priv").id)
        owner = Principal(owner_id, "nick", False, frozenset({"all"}))
        other = Principal(other_id, "olga", False, frozenset({"all"}))
        admin = Principal(1, "forge_admin", True, frozenset({"all"}))
        assert permission(None, pub) == Permission(True, False, False)
        assert permission(None, priv) == Permission(False, False, False)
        assert permission(owner, priv) == Permission(True, True, True)
        assert permission(other, priv) == Permission(False, False, False)
        assert permission(admin, priv) == Permission(True, True, True)
        public_only = Principal(owner_id, "nick", False, frozenset({"all", "public-only"}))
        assert permission(public_only, priv).can_read is False
        assert pub.git_path == app.extensions["forge"].config.data_dir / "git" / "nick" / "pub.git"
        with pytest.raises(RepoNotFound):
            repos.get_repo_by_id(9999)
    with app.test_request_context(headers=basic("olga")):
        from reference_server.auth import resolve_credentials
        from reference_server.users.models import principal_for_password, principal_for_token

        resolve_credentials(principal_for_token, principal_for_password)
        assert require_repo("nick", "pub", "read").name == "pub"
        with pytest.raises(RepoPermissionDenied):
            require_repo("nick", "pub", "write")
        with pytest.raises(RepoNotFound):
            require_repo("nick", "priv", "read")


# -- Git smart HTTP --------------------------------------------------------------------------------


@pytest.fixture
def live_url(app: Flask) -> Iterator[str]:
    """The app served over real HTTP on a free port, for a real ``git`` client."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


def run_git(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", ""), "HOME": os.devnull, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
    env |= {"GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "Pat", "GIT_AUTHOR_EMAIL": "pat@example.com"}
    env |= {"GIT_COMMITTER_NAME": "Pat", "GIT_COMMITTER_EMAIL": "pat@example.com"}
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=60)


def test_git_clone_and_push_over_smart_http_publish_push_events(
    app: Flask, client: FlaskClient, admin_headers: dict[str, str], live_url: str, tmp_path: Path
) -> None:
    pat = make_user(client, admin_headers, "pat")
    make_user(client, admin_headers, "quin")
    create_repo(client, pat, name="code", auto_init=True)
    pushes: list[PushEvent] = []
    app.extensions["forge"].events.subscribe(PushEvent, pushes.append)
    work = tmp_path / "work"
    cloned = run_git("clone", "-q", f"{live_url}/pat/code.git", str(work))
    assert cloned.returncode == 0, cloned.stderr
    assert (work / "README.md").read_text() == "# code\n\n\n"
    (work / "new.txt").write_text("pushed\n")
    assert run_git("add", "new.txt", cwd=work).returncode == 0
    assert run_git("commit", "-q", "-m", "over http", cwd=work).returncode == 0
    head = run_git("rev-parse", "HEAD", cwd=work).stdout.strip()
    anonymous = run_git("push", "-q", "origin", "main", cwd=work)
    assert anonymous.returncode != 0 and pushes == []  # challenged, and no credentials to give
    as_quin = run_git("push", "-q", f"http://quin:{PASSWORD}@{live_url[7:]}/pat/code.git", "main", cwd=work)
    assert as_quin.returncode != 0 and "403" in as_quin.stderr
    pushed = run_git("push", "-q", f"http://pat:{PASSWORD}@{live_url[7:]}/pat/code.git", "main", "main:side", cwd=work)
    assert pushed.returncode == 0, pushed.stderr
    assert sorted((e.ref, e.after) for e in pushes) == [("refs/heads/main", head), ("refs/heads/side", head)]
    side = next(e for e in pushes if e.ref == "refs/heads/side")
    assert side.before == ZERO_SHA
    served = client.get("/api/v1/repos/pat/code/contents/new.txt?ref=side").json
    assert served is not None and base64.b64decode(served["content"]) == b"pushed\n"
    first = run_git("rev-parse", "HEAD~1", cwd=work).stdout.strip()
    shallow = tmp_path / "shallow"
    shallow.mkdir()
    assert run_git("init", "-q", cwd=shallow).returncode == 0
    for version in ("0", "2"):  # a reachable commit that is no branch tip, fetched by id as checkout does
        fetched = run_git("-c", f"protocol.version={version}", "fetch", "-q", "--depth=1", f"{live_url}/pat/code.git",
                          first, cwd=shallow)  # fmt: skip
        assert fetched.returncode == 0, fetched.stderr


def test_git_smart_http_access_rules(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    rae = make_user(client, admin_headers, "rae")
    sid = make_user(client, admin_headers, "sid")
    create_repo(client, rae, name="open", auto_init=True)
    create_repo(client, rae, name="closed", private=True, auto_init=True)
    advert = client.get("/rae/open.git/info/refs?service=git-upload-pack")
    assert advert.status_code == 200
    assert advert.headers["Content-Type"] == "application/x-git-upload-pack-advertisement"
    assert b"refs/heads/main" in advert.data
    assert client.get("/rae/open.git/info/refs").status_code == 403  # the dumb protocol is not served
    challenged = client.get("/rae/closed.git/info/refs?service=git-upload-pack")
    assert challenged.status_code == 401 and challenged.headers["WWW-Authenticate"].startswith("Basic")
    assert client.get("/rae/missing.git/info/refs?service=git-upload-pack").status_code == 401
    assert client.get("/rae/closed.git/info/refs?service=git-upload-pack", headers=sid).status_code == 404
    assert client.get("/rae/closed.git/info/refs?service=git-upload-pack", headers=rae).status_code == 200
    assert client.get("/rae/open.git/info/refs?service=git-receive-pack").status_code == 401
    assert client.get("/rae/open.git/info/refs?service=git-receive-pack", headers=sid).status_code == 403
    receive = client.get("/rae/open.git/info/refs?service=git-receive-pack", headers=rae)
    assert receive.status_code == 200 and receive.headers["Content-Type"].endswith("receive-pack-advertisement")
    reader = client.post("/api/v1/users/rae/tokens", headers=rae, json={"name": "ro", "scopes": ["read:repository"]})
    assert reader.json is not None
    ro = {"Authorization": "Basic " + base64.b64encode(f"rae:{reader.json['sha1']}".encode()).decode()}
    assert client.get("/rae/closed.git/info/refs?service=git-upload-pack", headers=ro).status_code == 200
    assert client.get("/rae/open.git/info/refs?service=git-receive-pack", headers=ro).status_code == 403
    assert client.post("/rae/open.git/git-other-pack", headers=rae).status_code == 404

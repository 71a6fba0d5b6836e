"""Enforcement of protection rules: name matching, the push decision, the in-process guard and a real
``git push`` refused by the pre-receive hook with every ref left where it was."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_server_repos import PASSWORD, basic, create_repo, live_url, make_user, run_git

from conftest import ADMIN_TOKEN
from reference_server.auth import Principal
from reference_server.gitcli import ZERO_SHA
from reference_server.protections import guard, prereceive
from reference_server.protections.errors import ProtectedRefRefused
from reference_server.protections.rules import BranchRule, Pusher, TagRule, branch_refusal, compile_glob, tag_refusal
from reference_server.repos import models as repos
from reference_server.users.models import get_user_by_name

__all__ = ["live_url"]

BRANCHES = "/api/v1/repos/pat/code/branch_protections"


BASE_RULE = BranchRule(
    id=1,
    rule_name="main",
    priority=1,
    created=0,
    enable_push=True,
    enable_push_whitelist=False,
    push_user_ids=frozenset(),
    push_team_ids=frozenset(),
    push_deploy_keys=False,
    enable_force_push=False,
    enable_force_push_allowlist=False,
    force_push_user_ids=frozenset(),
    force_push_team_ids=frozenset(),
    force_push_deploy_keys=False,
    protected_file_patterns="",
    unprotected_file_patterns="",
)


def rule(name: str = "main", **overrides: Any) -> BranchRule:
    return replace(BASE_RULE, rule_name=name, **overrides)


def decide(
    checked: BranchRule, pusher: Pusher, *, deleting: bool = False, forced: bool = False, paths: tuple[str, ...] = ()
) -> str | None:
    return branch_refusal(checked, pusher, "main", deleting=deleting, forced=forced, changed_paths=paths or ("a.txt",))


def test_globs_follow_gitea() -> None:
    assert compile_glob("release/*", "/").match("release/1.0")
    assert not compile_glob("release/*", "/").match("release/1.0/fix")
    assert compile_glob("release/**", "/").match("release/1.0/fix")
    assert compile_glob("{main,dev}", "/").match("dev")
    assert compile_glob("v[0-9]*").match("v1.2/x")
    assert compile_glob("[unclosed", "/").match("[unclosed")
    assert rule("Main").matches("main") and not rule("main*x").matches("mainx/y")


def test_branch_decisions() -> None:
    alice, bob, token = Pusher(1), Pusher(2), Pusher(1, deploy_token_id=9)
    assert decide(rule(), alice) is None
    assert decide(rule(enable_push=False), alice) == "Not allowed to push to protected branch main"
    listed = rule(enable_push_whitelist=True, push_user_ids=frozenset({1}))
    assert decide(listed, alice) is None
    assert decide(listed, bob) is not None
    assert decide(listed, token) is not None
    assert decide(rule(), alice, deleting=True) == "branch main is protected from deletion"
    assert decide(rule(), alice, forced=True) == "branch main is protected from force push"
    force = rule(enable_force_push=True, enable_force_push_allowlist=True, force_push_user_ids=frozenset({2}))
    assert decide(force, bob, forced=True) is None
    assert decide(force, alice, forced=True) == "Not allowed to push to protected branch main"
    files = rule(protected_file_patterns="*.lock;docs/**")
    assert decide(files, alice, paths=("DOCS/a/b.md",)) == "branch main is protected from changing file DOCS/a/b.md"
    assert decide(files, alice, paths=("src/x.lock",)) is None  # "*" stops at "/"
    open_files = rule(enable_push=False, unprotected_file_patterns="*.md")
    assert decide(open_files, bob, paths=("x.md",)) is None
    assert decide(open_files, bob, paths=("x.md", "x.py")) is not None


def test_tag_decisions() -> None:
    rules = [TagRule(1, "v*", frozenset({1}), frozenset()), TagRule(2, "/^rc-[0-9]+$/", frozenset(), frozenset({7}))]
    assert tag_refusal(rules, Pusher(1), "v1.0") is None
    assert tag_refusal(rules, Pusher(2), "v1.0") == "Tag v1.0 is protected"
    assert tag_refusal(rules, Pusher(2, team_ids=frozenset({7})), "rc-3") is None
    assert tag_refusal(rules, Pusher(2), "rc-3x") is None  # the regular expression does not match
    assert tag_refusal(rules, Pusher(1, deploy_token_id=3), "v2") is not None


@pytest.fixture
def protected(app: Flask, client: FlaskClient, admin_headers: dict[str, str]) -> Iterator[repos.Repo]:
    """pat/code with main protected (pushes open, no force push) and tags v* allowed to pat only."""
    pat = make_user(client, admin_headers, "pat")
    make_user(client, admin_headers, "quin")
    create_repo(client, pat, name="code", auto_init=True)
    assert client.post(BRANCHES, headers=pat, json={"rule_name": "main", "enable_push": True}).status_code == 201
    tag_rule = {"name_pattern": "v*", "whitelist_usernames": ["pat"]}
    assert client.post("/api/v1/repos/pat/code/tag_protections", headers=pat, json=tag_rule).status_code == 201
    with app.test_request_context():
        yield repos.get_repo("pat", "code")


def test_guard_checks_commits_and_ref_updates(app: Flask, protected: repos.Repo) -> None:
    pat = Principal(protected.owner_id, "pat", False, frozenset({"all"}))
    head = protected.git.branches()["main"]
    guard.check_commit(protected, pat, "main", head, head, ["README.md"])
    with pytest.raises(ProtectedRefRefused, match="protected from deletion"):
        guard.check_ref_update(protected, pat, "refs/heads/main", head, ZERO_SHA)
    guard.check_ref_update(protected, pat, "refs/heads/other", head, ZERO_SHA)
    guard.check_ref_update(protected, pat, "refs/tags/v1", ZERO_SHA, head)
    quin_user = get_user_by_name("quin")
    quin = Principal(quin_user.id, "quin", False, frozenset({"all"}))
    with pytest.raises(ProtectedRefRefused, match="Tag v1 is protected"):
        guard.check_ref_update(protected, quin, "refs/tags/v1", ZERO_SHA, head)


def test_hook_program_refuses_from_the_database(app: Flask, protected: repos.Repo) -> None:
    head = protected.git.branches()["main"]
    settings = guard.receive_pack_settings(protected, Principal(protected.owner_id, "pat", False, frozenset({"all"})))
    assert Path(settings.config["core.hooksPath"], "pre-receive").is_file()
    environ = {**settings.environment, "GIT_DIR": str(protected.git_path)}
    errors = io.StringIO()
    status = prereceive.main(environ, io.StringIO(f"{head} {ZERO_SHA} refs/heads/main\n"), errors)
    assert status == 1 and "Gitea: branch main is protected from deletion" in errors.getvalue()
    assert prereceive.main(environ, io.StringIO(f"{ZERO_SHA} {head} refs/tags/v9\n"), io.StringIO()) == 0


def test_hook_program_starts_without_the_app() -> None:
    """Git starts the hook for every push: importing the whole app made each push cost over a second."""
    probe = (
        "import sys, reference_server.protections.prereceive; print(sorted({'flask', 'werkzeug'} & set(sys.modules)))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60)
    assert loaded.stdout.strip() == "[]", loaded.stdout


def _git_in(work: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_git(*args, cwd=work)


def test_real_git_push_is_refused_and_nothing_moves(
    app: Flask, client: FlaskClient, protected: repos.Repo, live_url: str, tmp_path: Path
) -> None:
    remote = f"http://pat:{PASSWORD}@{live_url[7:]}/pat/code.git"
    work = tmp_path / "work"
    assert _git_in(tmp_path, "clone", "-q", remote, str(work)).returncode == 0
    before = protected.git.ref_commits()
    (work / "a.txt").write_text("one\n")
    assert _git_in(work, "add", "a.txt").returncode == 0
    assert _git_in(work, "commit", "-q", "--amend", "-m", "rewritten").returncode == 0
    forced = _git_in(work, "push", "--force", remote, "main")
    assert forced.returncode != 0
    assert "pre-receive hook declined" in forced.stderr
    assert "remote: Gitea: branch main is protected from force push" in forced.stderr
    assert protected.git.ref_commits() == before
    admin_remote = f"http://root:{ADMIN_TOKEN}@{live_url[7:]}/pat/code.git"  # write access, not allowlisted
    assert _git_in(work, "tag", "v1.0").returncode == 0
    refused = _git_in(work, "push", admin_remote, "refs/tags/v1.0")
    assert refused.returncode != 0 and "remote: Gitea: Tag v1.0 is protected" in refused.stderr
    assert protected.git.ref_commits() == before
    tagged = _git_in(work, "push", remote, "refs/tags/v1.0")
    assert tagged.returncode == 0, tagged.stderr
    assert "refs/tags/v1.0" in protected.git.ref_commits()
    deleted = _git_in(work, "push", admin_remote, ":refs/tags/v1.0")
    assert deleted.returncode != 0 and "Tag v1.0 is protected" in deleted.stderr
    assert "refs/tags/v1.0" in protected.git.ref_commits()


def test_contents_and_branch_api_respect_the_rules(
    app: Flask, client: FlaskClient, admin_headers: dict[str, str], protected: repos.Repo
) -> None:
    pat = basic("pat")
    locked = {"enable_push": False}
    assert client.patch(f"{BRANCHES}/main", headers=pat, json=locked).status_code == 200
    before = protected.git.ref_commits()
    created = client.post(
        "/api/v1/repos/pat/code/contents/new.txt", headers=pat, json={"content": "bmV3Cg==", "branch": "main"}
    )
    assert created.status_code == 403, created.json
    assert created.json is not None and created.json["message"] == "user cannot commit to repo [user: pat]"
    assert protected.git.ref_commits() == before
    branch = {"new_branch_name": "release/1", "old_branch_name": "main"}
    assert client.post("/api/v1/repos/pat/code/branches", headers=pat, json=branch).status_code == 201
    rule = {"rule_name": "release/*", "enable_push": True}
    assert client.post(BRANCHES, headers=pat, json=rule).status_code == 201
    moved = protected.git.ref_commits()
    deleted = client.delete("/api/v1/repos/pat/code/branches/release/1", headers=pat)
    assert deleted.status_code == 403
    assert deleted.json is not None and deleted.json["message"] == "branch protected"
    assert protected.git.ref_commits() == moved


def test_team_allowlists_of_an_organization_repository(
    app: Flask, client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    owner = make_user(client, admin_headers, "olga")
    make_user(client, admin_headers, "tess")
    make_user(client, admin_headers, "ugo")
    assert client.post("/api/v1/orgs", headers=owner, json={"username": "acme"}).status_code == 201
    assert (
        client.post("/api/v1/orgs/acme/repos", headers=owner, json={"name": "app", "auto_init": True}).status_code
        == 201
    )
    team = {"name": "devs", "permission": "write", "includes_all_repositories": True, "units": ["repo.code"]}
    created = client.post("/api/v1/orgs/acme/teams", headers=owner, json=team)
    assert created.status_code == 201, created.json
    team_id = created.json["id"] if created.json else 0
    for member in ("tess", "ugo"):
        assert client.put(f"/api/v1/teams/{team_id}/members/{member}", headers=owner).status_code == 204
    rules = "/api/v1/repos/acme/app/branch_protections"
    unknown = client.post(rules, headers=owner, json={"rule_name": "main", "push_whitelist_teams": ["ghosts"]})
    assert unknown.status_code == 422
    rule = {"rule_name": "main", "enable_push": True, "enable_push_whitelist": True, "push_whitelist_teams": ["devs"]}
    made = client.post(rules, headers=owner, json=rule)
    assert made.status_code == 201 and made.json is not None and made.json["push_whitelist_teams"] == ["devs"]
    assert client.delete(f"/api/v1/teams/{team_id}/members/ugo", headers=owner).status_code == 204
    with app.test_request_context():
        repo = repos.get_repo("acme", "app")
        head = repo.git.branches()["main"]
        tess, olga = get_user_by_name("tess"), get_user_by_name("olga")
        guard.check_commit(repo, Principal(tess.id, "tess", False, frozenset({"all"})), "main", head, head, ["a"])
        olga_principal = Principal(olga.id, "Olga", False, frozenset({"all"}))
        with pytest.raises(ProtectedRefRefused, match="Not allowed to push to protected branch main"):
            guard.check_commit(repo, olga_principal, "main", head, head, ["a"])
        with pytest.raises(ProtectedRefRefused, match=r"user cannot commit to repo \[user: olga\]"):
            guard.check_commit(repo, olga_principal, "main", head, head, ["a"], verify=True)


def test_deploy_tokens_follow_the_deploy_key_switch(
    app: Flask, client: FlaskClient, protected: repos.Repo, live_url: str, tmp_path: Path
) -> None:
    pat = basic("pat")
    created = client.post("/api/v1/repos/pat/code/keys/tokens", headers=pat, json={"title": "ci", "read_only": False})
    assert created.status_code == 201 and created.json is not None
    token_remote = f"http://deploy:{created.json['key']}@{live_url[7:]}/pat/code.git"
    only_pat = {"enable_push": True, "enable_push_whitelist": True, "push_whitelist_usernames": ["pat"]}
    assert client.patch(f"{BRANCHES}/main", headers=pat, json=only_pat).status_code == 200
    work = tmp_path / "work"
    assert _git_in(tmp_path, "clone", "-q", token_remote, str(work)).returncode == 0
    (work / "b.txt").write_text("two\n")
    assert _git_in(work, "add", "b.txt").returncode == 0
    assert _git_in(work, "commit", "-q", "-m", "by the deploy token").returncode == 0
    before = protected.git.ref_commits()
    refused = _git_in(work, "push", token_remote, "main")
    assert refused.returncode != 0 and "Not allowed to push to protected branch main" in refused.stderr
    assert protected.git.ref_commits() == before
    allow_keys = {"enable_push": True, "enable_push_whitelist": True, "push_whitelist_deploy_keys": True}
    assert client.patch(f"{BRANCHES}/main", headers=pat, json=allow_keys).status_code == 200
    accepted = _git_in(work, "push", token_remote, "main")
    assert accepted.returncode == 0, accepted.stderr
    assert protected.git.branches()["main"] == _git_in(work, "rev-parse", "HEAD").stdout.strip()

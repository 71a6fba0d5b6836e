"""A small seeded forge for the fuzzer: one of each resource, so fuzzed requests reach the handlers.

Random path parameters almost always answer 404 before any handler logic runs; the fuzzer therefore
draws path parameters half of the time from the names and ids of this world (``KNOWN``). Fuzzed writes
may damage it (delete the repository, rename it, revoke the token): ``World.intact`` notices and the
driver builds a fresh one.
"""

from __future__ import annotations

import base64
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from reference_server.app import create_app
from reference_server.config import Config
from reference_server.passwords import FAST_COST

__all__ = ["ADMIN", "ADMIN_TOKEN", "ORG", "REPO", "USER", "World", "known_values"]

ADMIN = "forge_admin"
ADMIN_TOKEN = "f0220000000000000000000000000000000fa11e"
USER = "fuzz-user"
ORG = "fuzz-org"
REPO = "fuzz"
WORKFLOW = """on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: echo fuzz
"""


class SeedError(RuntimeError):
    """The world could not be built: the fuzz run cannot mean anything."""


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@dataclass
class World:
    """A reference app over a temporary directory, seeded with one of each resource."""

    app: Flask
    root: tempfile.TemporaryDirectory[str]
    values: dict[str, list[Any]] = field(default_factory=dict)

    @classmethod
    def build(cls) -> World:
        root = tempfile.TemporaryDirectory(prefix="fuzz-world-")
        config = Config(
            data_dir=Path(root.name) / "data",
            base_url="http://forge.test/",
            admin_username=ADMIN,
            admin_token=ADMIN_TOKEN,
            webhook_allowed_hosts="loopback",  # the seeded hook's 127.0.0.1:9, where nothing listens
            password_cost=FAST_COST,  # as the suite's embedded server: fuzzed users cost no 50 ms scrypt each
        )
        app = create_app(config)
        world = cls(app=app, root=root)
        world.values = world._seed()
        return world

    def close(self) -> None:
        self.app.extensions["forge"].db.close()
        self.root.cleanup()

    @property
    def client(self) -> FlaskClient:
        return self.app.test_client()

    def _call(self, method: str, path: str, body: Any = None, expect: tuple[int, ...] = (200, 201, 204)) -> Any:
        response: TestResponse = self.client.open(
            "/api/v1" + path, method=method, json=body, headers={"Authorization": f"token {ADMIN_TOKEN}"}
        )
        if response.status_code not in expect:
            raise SeedError(f"{method} {path} answered {response.status_code}: {response.get_data(as_text=True)}")
        return response.get_json(silent=True)

    def _seed(self) -> dict[str, list[Any]]:
        """One user, organization, team, repository with two branches, labels, issues, a pull request,
        a comment, a project board, a hook, Actions settings and a workflow run; returns what paths may name."""
        repo = f"/repos/{ADMIN}/{REPO}"
        self._call("POST", "/admin/users", {"username": USER, "email": "fuzz@forge.test", "password": "fuzz-pass-1"})
        self._call("POST", "/user/repos", {"name": REPO, "auto_init": True, "default_branch": "main"})
        self._call("POST", "/orgs", {"username": ORG})
        team = self._call(
            "POST",
            f"/orgs/{ORG}/teams",
            {"name": "fuzzers", "permission": "write", "units": ["repo.code", "repo.issues"]},
        )
        self._call("PUT", f"{repo}/collaborators/{USER}", {"permission": "write"})
        self._call("POST", f"{repo}/contents/.gitea/workflows/ci.yml", {"content": _b64(WORKFLOW)})
        self._call("POST", f"{repo}/branches", {"new_branch_name": "feature", "old_branch_name": "main"})
        change = self._call("POST", f"{repo}/contents/feature.txt", {"content": _b64("x\n"), "branch": "feature"})
        label = self._call("POST", f"{repo}/labels", {"name": "bug", "color": "#ff0000"})
        issue = self._call("POST", f"{repo}/issues", {"title": "fuzz issue", "body": "seeded", "labels": [label["id"]]})
        self._call("POST", f"{repo}/issues", {"title": "second issue"})
        pull = self._call("POST", f"{repo}/pulls", {"head": "feature", "base": "main", "title": "fuzz pull"})
        comment = self._call("POST", f"{repo}/issues/1/comments", {"body": "a comment"})
        project = self._call("POST", f"{repo}/projects", {"title": "board", "template_type": "basic_kanban"})
        hook = self._call(
            "POST",
            f"{repo}/hooks",
            {"type": "gitea", "config": {"url": "http://127.0.0.1:9/", "content_type": "json"}, "events": ["push"]},
        )
        self._call("POST", f"{repo}/actions/variables/FUZZ_VAR", {"value": "v"})
        self._call("PUT", f"{repo}/actions/secrets/FUZZ_SECRET", {"data": "s"})
        self._call("PUT", f"{repo}/topics/fuzz", None)
        self._call("POST", f"{repo}/branch_protections", {"rule_name": "main", "enable_push": True})
        tag_rule = self._call("POST", f"{repo}/tag_protections", {"name_pattern": "v*", "whitelist_usernames": [ADMIN]})
        key = self._call("POST", f"{repo}/keys/tokens", {"title": "fuzz-key", "read_only": True})
        self._call("POST", "/user/projects", {"title": "own board"})
        runs = self._call("GET", f"{repo}/actions/runs")
        run_ids = [run["id"] for run in runs.get("workflow_runs", [])] or [1]
        return {
            "owner": [ADMIN, ORG],
            "repo": [REPO],
            "org": [ORG],
            "username": [USER, ADMIN],
            "collaborator": [USER],
            "assignee": [ADMIN, USER],
            "index": [issue["number"], pull["number"], 2],
            "id": [project["id"], team["id"], 1, 2],
            "column_id": [1, 2, 3],
            "issue_id": [issue["id"], pull["id"]],
            "label_id": [label["id"]],
            "comment_id": [comment["id"]],
            "hook_id": [str(hook["id"])],
            "key_id": [str(key["id"])],
            "rule_id": [str(tag_rule["id"])],
            "name": ["main", "FUZZ_VAR", "FUZZ_SECRET", "MIT", "Python", "Default"],
            "branch": ["main", "feature"],
            "filepath": ["README.md", "feature.txt", ".gitea/workflows/ci.yml"],
            "sha": [change["commit"]["sha"], "main"],
            "basehead": ["main...feature"],
            "run_id": [str(run) for run in run_ids],
            "job_id": ["1"],
            "artifact_id": [1],
            "workflow_id": ["ci.yml"],
            "runner_id": ["1"],
            "topic": ["fuzz"],
            "review_id": [1],
            "position": ["1"],
            "diff_type": ["diff", "patch"],
            "token": ["fuzz"],
        }

    def intact(self) -> bool:
        """The repository, the organization and the admin token still work, and nothing is archived."""
        headers = {"Authorization": f"token {ADMIN_TOKEN}"}
        repo = self.client.get(f"/api/v1/repos/{ADMIN}/{REPO}", headers=headers)
        if repo.status_code != 200 or (repo.get_json() or {}).get("archived"):
            return False
        checks = (f"/api/v1/orgs/{ORG}", f"/api/v1/users/{USER}", f"/api/v1/repos/{ADMIN}/{REPO}/issues/1")
        return all(self.client.get(path, headers=headers).status_code == 200 for path in checks)


def known_values(world: World, names: list[str]) -> dict[str, list[Any]]:
    """The seeded candidates for each named path parameter that has some."""
    return {name: world.values[name] for name in names if name in world.values}

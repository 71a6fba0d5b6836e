"""Steps of the protections area: branch and tag protection rules over REST, and their enforcement on
the contents API, the branch API and a real ``git push`` over HTTPS.

Rules a scenario creates are remembered by repository and rule name (``protection:<repo>:<rule>``) so
a later step can name them, reorder them by id and check that reordering kept their ids and creation
times. Git steps run the real ``git`` client (``conformance.gitclient``) in a temporary directory with
the user's token as the password; before pushing they note the remote head, so a Then can show a
refused push moved nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.protections import ProtectionsApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from conformance.gitclient import GitClient, GitCredentials, GitResult
from steps.branches import acting_api, branch_head
from steps.common import expand, response_json
from steps.parsing import phrase

__all__ = ["protections_api"]


def protections_api(ctx: ScenarioContext, who: str) -> ProtectionsApi:
    return acting_api(ctx, who).area(ProtectionsApi)


def _body(ctx: ScenarioContext, docstring: str) -> dict[str, Any]:
    try:
        body = json.loads(expand(ctx, docstring))
    except ValueError as error:
        raise AssertionError(f"the step's body is not valid JSON: {error}") from None
    assert isinstance(body, dict), "the step's body must be a JSON object"
    return body


def _remember_rule(ctx: ScenarioContext, repo: str) -> None:
    response = ctx.last_response()
    if response.status_code == 201:
        rule = json_of(response)
        ctx.remember(f"protection:{repo}:{rule['rule_name']}", rule)


def _rule(ctx: ScenarioContext, repo: str, name: str) -> dict[str, Any]:
    rule = ctx.values.get(f"protection:{repo}:{name}")
    assert isinstance(rule, dict), f'the scenario made no branch protection "{name}" on "{repo}"'
    return rule


def _create_rule(ctx: ScenarioContext, who: str, repo: str, option: dict[str, Any]) -> None:
    ref = ctx.repo(repo)
    ctx.response = protections_api(ctx, who).create_branch_protection(ref.owner, ref.name, option)
    _remember_rule(ctx, repo)


def _note_branch(ctx: ScenarioContext, repo: str, branch: str) -> None:
    """Where ``branch`` is now, for ``the branch ... points at its previous head`` (steps.branches)."""
    ctx.values[f"before:{repo}:{branch}"] = branch_head(ctx, repo, branch)


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" protects the branch "{rule}" of "{repo}" with the body'))
def given_rule(ctx: ScenarioContext, who: str, rule: str, repo: str, docstring: str) -> None:
    """A branch protection rule named ``rule``; the branch's head is noted for later checks."""
    _create_rule(ctx, who, repo, {"rule_name": rule, **_body(ctx, docstring)})
    assert ctx.last_response().status_code == 201, f"protecting {rule}: {ctx.last_response().text[:300]}"
    _note_branch(ctx, repo, rule)


@given(phrase('"{who}" protects the branch "{rule}" of "{repo}"'))
def given_plain_rule(ctx: ScenarioContext, who: str, rule: str, repo: str) -> None:
    """A branch protection rule with Gitea's defaults (pushing open, no force push, no deletion)."""
    _create_rule(ctx, who, repo, {"rule_name": rule, "enable_push": True})
    assert ctx.last_response().status_code == 201, f"protecting {rule}: {ctx.last_response().text[:300]}"
    _note_branch(ctx, repo, rule)


@given(phrase('"{who}" protects the tags "{pattern}" of "{repo}" for "{users}"'))
def given_tag_rule(ctx: ScenarioContext, who: str, pattern: str, repo: str, users: str) -> None:
    """A tag protection rule whose allowlist holds the named users (comma separated short names)."""
    names = [ctx.owner_name(short.strip()) for short in users.split(",") if short.strip()]
    ref = ctx.repo(repo)
    option = {"name_pattern": pattern, "whitelist_usernames": names}
    ctx.response = protections_api(ctx, who).create_tag_protection(ref.owner, ref.name, option)
    assert ctx.response.status_code == 201, f"protecting the tags {pattern}: {ctx.response.text[:300]}"
    ctx.remember("tag_protection:last", json_of(ctx.response))


# ---------------------------------------------------------------- When: branch rules


@when(phrase('"{who}" creates a branch protection on "{repo}" with the body'))
def create_rule(ctx: ScenarioContext, who: str, repo: str, docstring: str) -> None:
    """``POST .../branch_protections`` with the docstring as the body."""
    _create_rule(ctx, who, repo, _body(ctx, docstring))


@when(phrase('"{who}" lists the branch protections of "{repo}"'))
def list_rules(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = protections_api(ctx, who).list_branch_protections(ref.owner, ref.name)


@when(phrase('"{who}" gets the branch protection "{rule}" of "{repo}"'))
def get_rule(ctx: ScenarioContext, who: str, rule: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = protections_api(ctx, who).get_branch_protection(ref.owner, ref.name, rule)


@when(phrase('"{who}" edits the branch protection "{rule}" of "{repo}" with the body'))
def edit_rule(ctx: ScenarioContext, who: str, rule: str, repo: str, docstring: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = protections_api(ctx, who).edit_branch_protection(ref.owner, ref.name, rule, _body(ctx, docstring))


@when(phrase('"{who}" deletes the branch protection "{rule}" of "{repo}"'))
def delete_rule(ctx: ScenarioContext, who: str, rule: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = protections_api(ctx, who).delete_branch_protection(ref.owner, ref.name, rule)


@when(phrase('"{who}" reorders the branch protections of "{repo}" as "{rules}"'))
def reorder_rules(ctx: ScenarioContext, who: str, repo: str, rules: str) -> None:
    """``POST .../branch_protections/priority`` with the ids of the named rules, in that order; an item
    ``owner/repo:rule`` names a rule of another repository of the scenario."""
    ids: list[int] = []
    for item in (part.strip() for part in rules.split(",")):
        other, _, name = item.rpartition(":")
        ids.append(int(_rule(ctx, other or repo, name)["id"]))
    ref = ctx.repo(repo)
    ctx.response = protections_api(ctx, who).set_branch_protection_priorities(ref.owner, ref.name, ids)


# ---------------------------------------------------------------- When: tag rules


@when(phrase('"{who}" creates a tag protection on "{repo}" with the body'))
def create_tag_rule(ctx: ScenarioContext, who: str, repo: str, docstring: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = protections_api(ctx, who).create_tag_protection(ref.owner, ref.name, _body(ctx, docstring))
    if ctx.response.status_code == 201:
        ctx.remember("tag_protection:last", json_of(ctx.response))


def _last_tag_rule(ctx: ScenarioContext) -> dict[str, Any]:
    rule = ctx.values.get("tag_protection:last")
    assert isinstance(rule, dict), "the scenario made no tag protection"
    return rule


@when(phrase('"{who}" lists the tag protections of "{repo}"'))
def list_tag_rules(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = protections_api(ctx, who).list_tag_protections(ref.owner, ref.name)


@when(phrase('"{who}" gets the tag protection of "{repo}"'))
def get_tag_rule(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = protections_api(ctx, who).get_tag_protection(ref.owner, ref.name, _last_tag_rule(ctx)["id"])


@when(phrase('"{who}" edits the tag protection of "{repo}" with the body'))
def edit_tag_rule(ctx: ScenarioContext, who: str, repo: str, docstring: str) -> None:
    ref = ctx.repo(repo)
    rule_id = _last_tag_rule(ctx)["id"]
    ctx.response = protections_api(ctx, who).edit_tag_protection(ref.owner, ref.name, rule_id, _body(ctx, docstring))


@when(phrase('"{who}" deletes the tag protection of "{repo}"'))
def delete_tag_rule(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = protections_api(ctx, who).delete_tag_protection(ref.owner, ref.name, _last_tag_rule(ctx)["id"])


# ---------------------------------------------------------------- Then


def _listed(ctx: ScenarioContext, repo: str) -> list[dict[str, Any]]:
    ref = ctx.repo(repo)
    response = ctx.admin.area(ProtectionsApi).list_branch_protections(ref.owner, ref.name)
    assert response.status_code == 200, f"listing the rules of {repo}: {response.status_code} {response.text[:300]}"
    rules = json_of(response)
    assert isinstance(rules, list)
    return rules


@then(phrase('the branch protections of "{repo}" are "{rules}" in this order'))
def rules_in_order(ctx: ScenarioContext, repo: str, rules: str) -> None:
    """The list (read by the admin) names exactly these rules, in this order ("none" for no rule)."""
    expected = [] if rules == "none" else [name.strip() for name in rules.split(",")]
    assert [rule["rule_name"] for rule in _listed(ctx, repo)] == expected


@then(phrase('the response lists the branch protections "{rules}" in this order'))
def response_rules_in_order(ctx: ScenarioContext, rules: str) -> None:
    listed = response_json(ctx)
    assert isinstance(listed, list), f"the response is not a list: {listed}"
    assert [rule["rule_name"] for rule in listed] == [name.strip() for name in rules.split(",")]


@then(phrase('the branch protections of "{repo}" have the priorities "{priorities}"'))
def rules_priorities(ctx: ScenarioContext, repo: str, priorities: str) -> None:
    """``main=1, dev=2``: each named rule has that priority now."""
    now = {rule["rule_name"]: rule["priority"] for rule in _listed(ctx, repo)}
    for pair in priorities.split(","):
        name, _, value = pair.strip().partition("=")
        assert now.get(name) == int(value), f"{name} has the priority {now.get(name)}, not {value}: {now}"


@then(phrase('the branch protections of "{repo}" kept their ids and creation times'))
def rules_kept_identity(ctx: ScenarioContext, repo: str) -> None:
    """Every rule the scenario created is still there with the same id and ``created_at`` (changed in place)."""
    now = {rule["rule_name"]: rule for rule in _listed(ctx, repo)}
    prefix = f"protection:{repo}:"
    made = {key[len(prefix) :]: rule for key, rule in ctx.values.items() if key.startswith(prefix)}
    assert made, f"the scenario made no rule on {repo}"
    for name, rule in made.items():
        assert name in now, f"the rule {name} is gone: {list(now)}"
        assert now[name]["id"] == rule["id"], f"the rule {name} changed its id: {rule['id']} -> {now[name]['id']}"
        assert now[name]["created_at"] == rule["created_at"], f"the rule {name} changed its creation time"


@then(phrase('the tag protections of "{repo}" are {count:d}'))
def tag_rules_count(ctx: ScenarioContext, repo: str, count: int) -> None:
    ref = ctx.repo(repo)
    response = ctx.admin.area(ProtectionsApi).list_tag_protections(ref.owner, ref.name)
    assert response.status_code == 200, f"listing the tag rules of {repo}: {response.text[:300]}"
    assert len(json_of(response)) == count, f"{len(json_of(response))} tag rules, not {count}"


@then(phrase('the response field "{field}" lists exactly the names of "{users}"'))
def field_lists_users(ctx: ScenarioContext, field: str, users: str) -> None:
    """An allowlist holds exactly these users ("none" for an empty one)."""
    expected = [] if users == "none" else [ctx.owner_name(short.strip()) for short in users.split(",")]
    value = response_json(ctx).get(field)
    assert sorted(value or []) == sorted(expected), f"{field} is {value}, expected {expected}"


# ---------------------------------------------------------------- Git over HTTPS


@pytest.fixture
def protection_git(ctx: ScenarioContext, tmp_path: Path) -> Iterator[GitClient]:
    """A real git client with its own HOME under the scenario's temporary directory."""
    yield GitClient(tmp_path / "git", ctx.admin.http.recorder)


def _remote(ctx: ScenarioContext, repo: str) -> str:
    return ctx.admin.site_url.rstrip("/") + "/" + ctx.repo(repo).full_name + ".git"


def _credentials(ctx: ScenarioContext, who: str) -> GitCredentials:
    identity = ctx.user(who)
    return GitCredentials(identity.username, identity.token)


def _clone(ctx: ScenarioContext, client: GitClient, who: str, repo: str) -> Path:
    work, result = client.clone(_remote(ctx, repo), f"clone-{len(list(client.workdir.glob('clone-*')))}",
                                _credentials(ctx, who))  # fmt: skip
    assert result.ok, result.describe()
    return work


def _remote_ref(ctx: ScenarioContext, client: GitClient, who: str, repo: str, ref: str) -> str | None:
    result = client.run("ls-remote", _remote(ctx, repo), ref, credentials=_credentials(ctx, who))
    assert result.ok, result.describe()
    lines = result.stdout.strip().splitlines()
    return lines[0].split()[0] if lines else None


def _push(ctx: ScenarioContext, client: GitClient, who: str, repo: str, *, work: Path, refspec: str, ref: str) -> None:
    """Note where the remote ref is, push, and keep the result for the Then steps."""
    ctx.values["git:before"] = (repo, ref, _remote_ref(ctx, client, who, repo, ref))
    result = client.push(work, refspec, _credentials(ctx, who))
    ctx.values["git:push"] = result


@when(phrase('"{who}" pushes a new commit to the branch "{branch}" of "{repo}" with git'))
def push_commit(ctx: ScenarioContext, protection_git: GitClient, who: str, branch: str, repo: str) -> None:
    """Clone, commit one file on ``branch`` and push it (a fast-forward)."""
    work = _clone(ctx, protection_git, who, repo)
    protection_git.run("checkout", "-q", branch, cwd=work)
    protection_git.commit_file(work, "pushed.txt", b"pushed with git\n", "a commit pushed with git")
    _push(ctx, protection_git, who, repo, work=work, refspec=branch, ref=f"refs/heads/{branch}")


@when(phrase('"{who}" force-pushes a rewritten history to the branch "{branch}" of "{repo}" with git'))
def force_push(ctx: ScenarioContext, protection_git: GitClient, who: str, branch: str, repo: str) -> None:
    """Clone, replace the head commit of ``branch`` by another one (not a fast-forward) and push with force."""
    work = _clone(ctx, protection_git, who, repo)
    protection_git.run("checkout", "-q", branch, cwd=work)
    (work / "rewritten.txt").write_text("rewritten history\n")
    assert protection_git.run("add", "rewritten.txt", cwd=work).ok
    amended = protection_git.run("commit", "-q", "--amend", "-m", "rewritten head", cwd=work)
    assert amended.ok, amended.describe()
    _push(ctx, protection_git, who, repo, work=work, refspec=f"+{branch}:{branch}", ref=f"refs/heads/{branch}")


@when(phrase('"{who}" pushes the tag "{tag}" to "{repo}" with git'))
def push_tag(ctx: ScenarioContext, protection_git: GitClient, who: str, tag: str, repo: str) -> None:
    """Clone, tag the default branch's head and push the tag."""
    work = _clone(ctx, protection_git, who, repo)
    tagged = protection_git.run("tag", tag, cwd=work)
    assert tagged.ok, tagged.describe()
    _push(ctx, protection_git, who, repo, work=work, refspec=f"refs/tags/{tag}", ref=f"refs/tags/{tag}")


def _push_result(ctx: ScenarioContext) -> GitResult:
    result = ctx.values.get("git:push")
    assert isinstance(result, GitResult), "no git push was made"
    return result


@then(phrase('the push is declined by the pre-receive hook saying "{reason}"'))
def push_declined(ctx: ScenarioContext, reason: str) -> None:
    """Git reports the ref as rejected by the hook, and the reason comes back on a ``remote:`` line."""
    result = _push_result(ctx)
    assert not result.ok, "the push was accepted"
    assert "pre-receive hook declined" in result.stderr, result.describe()
    remote_lines = [line for line in result.stderr.splitlines() if line.startswith("remote:")]
    assert any(expand(ctx, reason) in line for line in remote_lines), result.describe()


@then(phrase("the push is accepted"))
def push_accepted(ctx: ScenarioContext) -> None:
    result = _push_result(ctx)
    assert result.ok, result.describe()


@then(phrase('the remote ref did not move for "{who}"'))
def remote_ref_unchanged(ctx: ScenarioContext, protection_git: GitClient, who: str) -> None:
    """``git ls-remote`` shows the pushed ref exactly where it was before the push (or still absent)."""
    repo, ref, before = ctx.values["git:before"]
    now = _remote_ref(ctx, protection_git, who, repo, ref)
    assert now == before, f"{ref} of {repo} moved from {before} to {now}"

"""Steps of the protections area: branch and tag protection rules over REST, and their enforcement on
the contents API, the branch API and a real ``git push`` over HTTPS.

Rules a scenario creates are kept by repository and rule name (:class:`ProtectionNotes`) so
a later step can name them, reorder them by id and check that reordering kept their ids and creation
times. Git steps run the real ``git`` client (``conformance.gitclient``) in a temporary directory with
the user's token as the password; before pushing they note the remote head, so a Then can show a
refused push moved nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.protections import ProtectionsApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from conformance.gitclient import GitClient, GitResult
from conformance.seeding import SeededData
from steps.actors import acting, git_credentials
from steps.branches import BranchNotes
from steps.common import expand, json_option, response_json
from steps.parsing import phrase

__all__ = ["ProtectionNotes"]


@dataclass
class ProtectionNotes:
    """The branch rules the scenario made (by repository and rule name), its last tag rule, and its last
    ``git push``: the result and where the pushed ref was before."""

    rules: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    last_tag_rule: dict[str, Any] | None = None
    push: GitResult | None = None
    ref_before: tuple[str, str, str | None] | None = None

    def rule(self, repo: str, name: str) -> dict[str, Any]:
        """A branch protection rule the scenario made."""
        found = self.rules.get((repo, name))
        assert found is not None, f'the scenario made no branch protection "{name}" on "{repo}"'
        return found

    def tag_rule(self) -> dict[str, Any]:
        """The last tag protection rule the scenario made."""
        assert self.last_tag_rule is not None, "the scenario made no tag protection"
        return self.last_tag_rule


@pytest.fixture
def protection_notes() -> ProtectionNotes:
    """The scenario's protection rules and pushes."""
    return ProtectionNotes()


def _create_rule(
    ctx: ScenarioContext, protection_notes: ProtectionNotes, who: str, repo: str, option: dict[str, Any]
) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ProtectionsApi).create_branch_protection(ref.owner, ref.name, option)
    if ctx.response.status_code == 201:
        rule = json_of(ctx.response)
        protection_notes.rules[repo, str(rule["rule_name"])] = rule


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" protects the branch "{rule}" of "{repo}" with the body'))
def given_rule(
    ctx: ScenarioContext,
    branch_notes: BranchNotes,
    protection_notes: ProtectionNotes,
    *,
    who: str,
    rule: str,
    repo: str,
    docstring: str,
) -> None:
    """A branch protection rule named ``rule``; the branch's head is noted for later checks."""
    _create_rule(ctx, protection_notes, who, repo, {"rule_name": rule, **json_option(ctx, docstring)})
    assert ctx.last_response().status_code == 201, f"protecting {rule}: {ctx.last_response().text[:300]}"
    branch_notes.note_heads(ctx, repo, rule)


@given(phrase('"{who}" protects the branch "{rule}" of "{repo}"'))
def given_plain_rule(
    ctx: ScenarioContext,
    branch_notes: BranchNotes,
    protection_notes: ProtectionNotes,
    *,
    who: str,
    rule: str,
    repo: str,
) -> None:
    """A branch protection rule with Gitea's defaults (pushing open, no force push, no deletion)."""
    _create_rule(ctx, protection_notes, who, repo, {"rule_name": rule, "enable_push": True})
    assert ctx.last_response().status_code == 201, f"protecting {rule}: {ctx.last_response().text[:300]}"
    branch_notes.note_heads(ctx, repo, rule)


@given(phrase('"{who}" protects the tags "{pattern}" of "{repo}" for "{users}"'))
def given_tag_rule(
    ctx: ScenarioContext, protection_notes: ProtectionNotes, *, who: str, pattern: str, repo: str, users: str
) -> None:
    """A tag protection rule whose allowlist holds the named users (comma separated short names)."""
    names = [ctx.owner_name(short.strip()) for short in users.split(",") if short.strip()]
    ref = ctx.repo(repo)
    option = {"name_pattern": pattern, "whitelist_usernames": names}
    ctx.response = acting(ctx, who, ProtectionsApi).create_tag_protection(ref.owner, ref.name, option)
    assert ctx.response.status_code == 201, f"protecting the tags {pattern}: {ctx.response.text[:300]}"
    protection_notes.last_tag_rule = json_of(ctx.response)


# ---------------------------------------------------------------- When: branch rules


@when(phrase('"{who}" creates a branch protection on "{repo}" with the body'))
def create_rule(ctx: ScenarioContext, protection_notes: ProtectionNotes, who: str, repo: str, docstring: str) -> None:
    """``POST .../branch_protections`` with the docstring as the body."""
    _create_rule(ctx, protection_notes, who, repo, json_option(ctx, docstring))


@when(phrase('"{who}" lists the branch protections of "{repo}"'))
def list_rules(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ProtectionsApi).list_branch_protections(ref.owner, ref.name)


@when(phrase('"{who}" gets the branch protection "{rule}" of "{repo}"'))
def get_rule(ctx: ScenarioContext, who: str, rule: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ProtectionsApi).get_branch_protection(ref.owner, ref.name, rule)


@when(phrase('"{who}" edits the branch protection "{rule}" of "{repo}" with the body'))
def edit_rule(ctx: ScenarioContext, who: str, rule: str, repo: str, docstring: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ProtectionsApi).edit_branch_protection(
        ref.owner, ref.name, rule, json_option(ctx, docstring)
    )


@when(phrase('"{who}" deletes the branch protection "{rule}" of "{repo}"'))
def delete_rule(ctx: ScenarioContext, who: str, rule: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ProtectionsApi).delete_branch_protection(ref.owner, ref.name, rule)


@when(phrase('"{who}" reorders the branch protections of "{repo}" as "{rules}"'))
def reorder_rules(ctx: ScenarioContext, protection_notes: ProtectionNotes, who: str, repo: str, rules: str) -> None:
    """``POST .../branch_protections/priority`` with the ids of the named rules, in that order; an item
    ``owner/repo:rule`` names a rule of another repository of the scenario."""
    ids: list[int] = []
    for item in (part.strip() for part in rules.split(",")):
        other, _, name = item.rpartition(":")
        ids.append(int(protection_notes.rule(other or repo, name)["id"]))
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ProtectionsApi).set_branch_protection_priorities(ref.owner, ref.name, ids)


# ---------------------------------------------------------------- When: tag rules


@when(phrase('"{who}" creates a tag protection on "{repo}" with the body'))
def create_tag_rule(
    ctx: ScenarioContext, protection_notes: ProtectionNotes, who: str, repo: str, docstring: str
) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ProtectionsApi).create_tag_protection(
        ref.owner, ref.name, json_option(ctx, docstring)
    )
    if ctx.response.status_code == 201:
        protection_notes.last_tag_rule = json_of(ctx.response)


@when(phrase('"{who}" lists the tag protections of "{repo}"'))
def list_tag_rules(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ProtectionsApi).list_tag_protections(ref.owner, ref.name)


@when(phrase('"{who}" gets the tag protection of "{repo}"'))
def get_tag_rule(ctx: ScenarioContext, protection_notes: ProtectionNotes, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ProtectionsApi).get_tag_protection(
        ref.owner, ref.name, protection_notes.tag_rule()["id"]
    )


@when(phrase('"{who}" edits the tag protection of "{repo}" with the body'))
def edit_tag_rule(ctx: ScenarioContext, protection_notes: ProtectionNotes, who: str, repo: str, docstring: str) -> None:
    ref = ctx.repo(repo)
    rule_id = protection_notes.tag_rule()["id"]
    ctx.response = acting(ctx, who, ProtectionsApi).edit_tag_protection(
        ref.owner, ref.name, rule_id, json_option(ctx, docstring)
    )


@when(phrase('"{who}" deletes the tag protection of "{repo}"'))
def delete_tag_rule(ctx: ScenarioContext, protection_notes: ProtectionNotes, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ProtectionsApi).delete_tag_protection(
        ref.owner, ref.name, protection_notes.tag_rule()["id"]
    )


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
def rules_kept_identity(ctx: ScenarioContext, protection_notes: ProtectionNotes, repo: str) -> None:
    """Every rule the scenario created is still there with the same id and ``created_at`` (changed in place)."""
    now = {rule["rule_name"]: rule for rule in _listed(ctx, repo)}
    made = {name: rule for (known, name), rule in protection_notes.rules.items() if known == repo}
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


def _clone(ctx: ScenarioContext, client: GitClient, who: str, repo: str) -> Path:
    work, result = client.clone(_remote(ctx, repo), f"clone-{len(list(client.workdir.glob('clone-*')))}",
                                git_credentials(ctx, who))  # fmt: skip
    assert result.ok, result.describe()
    return work


def _remote_ref(ctx: ScenarioContext, client: GitClient, who: str, repo: str, ref: str) -> str | None:
    result = client.run("ls-remote", _remote(ctx, repo), ref, credentials=git_credentials(ctx, who))
    assert result.ok, result.describe()
    lines = result.stdout.strip().splitlines()
    return lines[0].split()[0] if lines else None


def _push(
    ctx: ScenarioContext,
    protection_notes: ProtectionNotes,
    client: GitClient,
    who: str,
    repo: str,
    *,
    work: Path,
    refspec: str,
    ref: str,
) -> None:
    """Note where the remote ref is, push, and keep the result for the Then steps."""
    protection_notes.ref_before = (repo, ref, _remote_ref(ctx, client, who, repo, ref))
    protection_notes.push = client.push(work, refspec, git_credentials(ctx, who))


@when(phrase('"{who}" pushes a new commit to the branch "{branch}" of "{repo}" with git'))
def push_commit(
    ctx: ScenarioContext,
    fake: SeededData,
    protection_notes: ProtectionNotes,
    protection_git: GitClient,
    *,
    who: str,
    branch: str,
    repo: str,
) -> None:
    """Clone, commit one file on ``branch`` and push it (a fast-forward)."""
    work = _clone(ctx, protection_git, who, repo)
    protection_git.run("checkout", "-q", branch, cwd=work)
    protection_git.commit_file(work, "pushed.txt", fake.text().encode(), fake.sentence())
    _push(ctx, protection_notes, protection_git, who, repo, work=work, refspec=branch, ref=f"refs/heads/{branch}")


@when(phrase('"{who}" force-pushes a rewritten history to the branch "{branch}" of "{repo}" with git'))
def force_push(
    ctx: ScenarioContext,
    fake: SeededData,
    protection_notes: ProtectionNotes,
    protection_git: GitClient,
    *,
    who: str,
    branch: str,
    repo: str,
) -> None:
    """Clone, replace the head commit of ``branch`` by another one (not a fast-forward) and push with force."""
    work = _clone(ctx, protection_git, who, repo)
    protection_git.run("checkout", "-q", branch, cwd=work)
    (work / "rewritten.txt").write_text(fake.text(), encoding="utf-8")
    assert protection_git.run("add", "rewritten.txt", cwd=work).ok
    amended = protection_git.run("commit", "-q", "--amend", "-m", "rewritten head", cwd=work)
    assert amended.ok, amended.describe()
    _push(
        ctx,
        protection_notes,
        protection_git,
        who,
        repo,
        work=work,
        refspec=f"+{branch}:{branch}",
        ref=f"refs/heads/{branch}",
    )


@when(phrase('"{who}" pushes the tag "{tag}" to "{repo}" with git'))
def push_tag(
    ctx: ScenarioContext, protection_notes: ProtectionNotes, protection_git: GitClient, *, who: str, tag: str, repo: str
) -> None:
    """Clone, tag the default branch's head and push the tag."""
    work = _clone(ctx, protection_git, who, repo)
    tagged = protection_git.run("tag", tag, cwd=work)
    assert tagged.ok, tagged.describe()
    _push(
        ctx, protection_notes, protection_git, who, repo, work=work, refspec=f"refs/tags/{tag}", ref=f"refs/tags/{tag}"
    )


def _push_result(protection_notes: ProtectionNotes) -> GitResult:
    result = protection_notes.push
    assert result is not None, "no git push was made"
    return result


@then(phrase('the push is declined by the pre-receive hook saying "{reason}"'))
def push_declined(ctx: ScenarioContext, protection_notes: ProtectionNotes, reason: str) -> None:
    """Git reports the ref as rejected by the hook, and the reason comes back on a ``remote:`` line."""
    result = _push_result(protection_notes)
    assert not result.ok, "the push was accepted"
    assert "pre-receive hook declined" in result.stderr, result.describe()
    remote_lines = [line for line in result.stderr.splitlines() if line.startswith("remote:")]
    assert any(expand(ctx, reason) in line for line in remote_lines), result.describe()


@then(phrase("the push is accepted"))
def push_accepted(protection_notes: ProtectionNotes) -> None:
    result = _push_result(protection_notes)
    assert result.ok, result.describe()


@then(phrase('the remote ref did not move for "{who}"'))
def remote_ref_unchanged(
    ctx: ScenarioContext, protection_notes: ProtectionNotes, protection_git: GitClient, who: str
) -> None:
    """``git ls-remote`` shows the pushed ref exactly where it was before the push (or still absent)."""
    assert protection_notes.ref_before is not None, "no git push was made"
    repo, ref, before = protection_notes.ref_before
    now = _remote_ref(ctx, protection_git, who, repo, ref)
    assert now == before, f"{ref} of {repo} moved from {before} to {now}"

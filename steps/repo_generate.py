"""Steps of generating a repository from a template (templates area). The new repository is named like
any other (``"alice/copy"``: the owner's short name and a name made unique for the scenario); the items to
copy are listed by Gitea's switch names (``git_content, topics, labels``)."""

from __future__ import annotations

import base64
import calendar
from datetime import date, datetime

from pytest_bdd import then, when

from conformance.api.commits import CommitsApi
from conformance.api.labels import LabelsApi
from conformance.api.repo_generate import RepoGenerateApi
from conformance.client import json_of
from conformance.context import RepoRef, ScenarioContext
from conformance.ledger import CleanupLedger
from steps.actors import acting
from steps.common import comma_list, expect_status, user_name
from steps.parsing import phrase

__all__: list[str] = []


def _owner(ctx: ScenarioContext, short: str) -> str:
    return ctx.orgs[short] if short in ctx.orgs else user_name(ctx, short)


def _generate(ctx: ScenarioContext, ledger: CleanupLedger, who: str, *, repo: str, template: str, items: str) -> None:
    source = ctx.repo(template)
    owner_short, _, name_short = repo.partition("/")
    owner, name = _owner(ctx, owner_short), ctx.real_name(name_short)
    body = {"owner": owner, "name": name, **dict.fromkeys(comma_list(items), True)}
    ctx.response = acting(ctx, who, RepoGenerateApi).generate(source.owner, source.name, body)
    if ctx.response.status_code == 201:
        ledger.record_repo(owner, name)
        branch = str(json_of(ctx.response).get("default_branch") or "main")
        ctx.repos[repo] = RepoRef(short=repo, owner=owner, name=name, default_branch=branch)


@when(phrase('"{who}" generates "{repo}" from "{template}" with "{items}"'))
def generate(ctx: ScenarioContext, ledger: CleanupLedger, *, who: str, repo: str, template: str, items: str) -> None:
    """``POST .../generate`` with ``owner``, ``name`` and the switches of ``items`` on; a created
    repository joins the scenario (and its cleanup)."""
    _generate(ctx, ledger, who, repo=repo, template=template, items=items)


@when(phrase('"{who}" generates "{repo}" from "{template}" choosing nothing'))
def generate_nothing(ctx: ScenarioContext, ledger: CleanupLedger, *, who: str, repo: str, template: str) -> None:
    """``POST .../generate`` with every switch off."""
    _generate(ctx, ledger, who, repo=repo, template=template, items="")


def _filled_in(text: str, ref: RepoRef, created: date) -> str:
    """``text`` with the variables features use replaced by what the kit knows of the repository: its names
    (and their upper- and lower-case forms) and the date it was created on."""
    values = {
        "${REPO_NAME_UPPER}": ref.name.upper(),
        "${REPO_NAME_LOWER}": ref.name.lower(),
        "${MONTH_ENGLISH_UPPER}": calendar.month_name[created.month].upper(),
        "${YEAR}": f"{created.year}",
        "${MONTH}": f"{created.month:02d}",
        "${DAY}": f"{created.day:02d}",
        "$REPO_NAME": ref.name,
        "$REPO_OWNER": ref.owner,
    }
    for variable, value in values.items():
        text = text.replace(variable, value)
    return text


@then(phrase('the file "{path}" of "{repo}" holds "{text}" filled in for "{repo_again}"'))
def file_expanded(ctx: ScenarioContext, path: str, repo: str, text: str, repo_again: str) -> None:
    """The file (its path filled in too) holds ``text`` with the repository's names and creation date in place
    of the variables ``_filled_in`` knows; the rest of ``text`` is what the forge must write as it is."""
    ref = ctx.repo(repo_again)
    answer = expect_status(ctx.admin.repos.get(ref.owner, ref.name), 200, f'read "{repo_again}"')
    created = datetime.fromisoformat(str(answer["created_at"])).date()
    wanted, path = _filled_in(text, ref, created), _filled_in(path, ref, created)
    body = expect_status(ctx.admin.contents.get(ctx.repo(repo).owner, ctx.repo(repo).name, path), 200, f'read "{path}"')
    actual = base64.b64decode(body.get("content") or "").decode("utf-8")
    assert actual == wanted, f'"{path}" holds {actual!r}, expected {wanted!r}'


@then(phrase('the repository "{repo}" has exactly one commit, by "{user}"'))
def one_commit(ctx: ScenarioContext, repo: str, user: str) -> None:
    """Its default branch's history is a single commit whose author is the user."""
    ref = ctx.repo(repo)
    commits = expect_status(ctx.admin.area(CommitsApi).list(ref.owner, ref.name), 200, f'list the commits of "{repo}"')
    assert len(commits) == 1, f'"{repo}" has {len(commits)} commits'
    author = commits[0]["commit"]["author"]["name"]
    assert author == user_name(ctx, user), f"the commit is by {author!r}"


@then(phrase('the repository "{repo}" has the label "{name}"'))
def has_label(ctx: ScenarioContext, repo: str, name: str) -> None:
    """Its labels include one of that name."""
    ref = ctx.repo(repo)
    labels = expect_status(ctx.admin.area(LabelsApi).list(ref.owner, ref.name), 200, f'list the labels of "{repo}"')
    assert name in [label.get("name") for label in labels], (
        f"labels of {repo}: {[label.get('name') for label in labels]}"
    )


@then(phrase('the repository "{repo}" has the topics "{names}"'))
def has_topics(ctx: ScenarioContext, repo: str, names: str) -> None:
    """Its ``topics`` are exactly these (short topic names, made unique for the scenario)."""
    ref = ctx.repo(repo)
    body = expect_status(ctx.admin.repos.get(ref.owner, ref.name), 200, f'read "{repo}"')
    expected = [ctx.real_name(name) for name in comma_list(names)]
    assert body.get("topics") == expected, f"topics {body.get('topics')}, expected {expected}"

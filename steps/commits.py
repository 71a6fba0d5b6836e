"""Steps of the commits area: the commit list with its headers, single commits and comparisons.

Expected commits come from the histories the branch Given steps keep (``steps.branches.BranchNotes``), so a
Then names commits by their place ("the newest 2 commits of main") and checks real SHAs.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

from pytest_bdd import then, when

from conformance.api.commits import CommitsApi
from conformance.context import ScenarioContext
from steps.actors import acting
from steps.branches import BranchNotes, branch_head
from steps.common import expand, response_json
from steps.parsing import phrase


def _listed_shas(ctx: ScenarioContext) -> list[str]:
    body = response_json(ctx)
    items = body.get("commits") if isinstance(body, dict) else body
    assert isinstance(items, list), f"the response holds no commit list: {str(body)[:300]}"
    return [str(item.get("sha")) for item in items]


@when(phrase('"{who}" lists the commits of "{repo}"'))
def list_commits(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``GET .../commits`` without parameters (the default branch)."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, CommitsApi).list(ref.owner, ref.name)


@when(phrase('"{who}" lists the commits of "{repo}" with "{query}"'))
def list_commits_query(ctx: ScenarioContext, who: str, repo: str, query: str) -> None:
    """``GET .../commits?<query>`` (``limit=2&page=2``, ``sha=dev``, ``path=a.txt``...)."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, CommitsApi).list(ref.owner, ref.name, dict(parse_qsl(expand(ctx, query))))


@when(phrase('"{who}" lists the commits of "{repo}" excluding the head of "{branch}"'))
def list_commits_not(ctx: ScenarioContext, who: str, repo: str, branch: str) -> None:
    """``GET .../commits?not=<head of branch>``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, CommitsApi).list(
        ref.owner, ref.name, {"not": branch_head(ctx, repo, branch) or branch}
    )


@when(phrase('"{who}" gets the commit at the head of "{branch}" of "{repo}"'))
def get_commit(ctx: ScenarioContext, who: str, branch: str, repo: str) -> None:
    """``GET .../git/commits/{sha}`` of a branch head."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, CommitsApi).get(ref.owner, ref.name, branch_head(ctx, repo, branch) or branch)


@when(phrase('"{who}" compares "{basehead}" in "{repo}"'))
def compare(ctx: ScenarioContext, who: str, basehead: str, repo: str) -> None:
    """``GET .../compare/{basehead}`` (``{bob}`` placeholders expanded to real names)."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, CommitsApi).compare(ref.owner, ref.name, expand(ctx, basehead))


@when(phrase('"{who}" compares the first commit of "{branch}" with "{head}" in "{repo}"'))
def compare_from_first(
    ctx: ScenarioContext, branch_notes: BranchNotes, *, who: str, branch: str, head: str, repo: str
) -> None:
    """``GET .../compare/<sha>...<head>`` with the oldest known commit of ``branch`` as the base."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, CommitsApi).compare(
        ref.owner, ref.name, f"{branch_notes.history(ctx, repo, branch)[0]}...{head}"
    )


@when(phrase('"{who}" compares "{basehead}" in "{repo}" as a {output:w}'))
def compare_text(ctx: ScenarioContext, who: str, basehead: str, repo: str, output: str) -> None:
    """``GET .../compare/{basehead}?output=diff|patch``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, CommitsApi).compare(ref.owner, ref.name, expand(ctx, basehead), output=output)


@then(phrase('the response lists the newest {count:d} commits of "{branch}" of "{repo}"'))
def lists_newest(ctx: ScenarioContext, branch_notes: BranchNotes, count: int, branch: str, repo: str) -> None:
    """The listed SHAs are the branch's newest commits, newest first."""
    expected = list(reversed(branch_notes.history(ctx, repo, branch)))[:count]
    assert _listed_shas(ctx) == expected, f"listed {_listed_shas(ctx)}, expected {expected}"


@then(phrase('the response lists the {count:d} commits of "{branch}" of "{repo}" after the newest {skip:d}'))
def lists_older(
    ctx: ScenarioContext, branch_notes: BranchNotes, *, count: int, branch: str, repo: str, skip: int
) -> None:
    """The listed SHAs are the branch's commits just older than its newest ``skip``."""
    expected = list(reversed(branch_notes.history(ctx, repo, branch)))[skip : skip + count]
    assert len(expected) == count, (
        f"the scenario knows only {len(branch_notes.history(ctx, repo, branch))} commits of {branch}"
    )
    assert _listed_shas(ctx) == expected, f"listed {_listed_shas(ctx)}, expected {expected}"


@then(phrase('the response lists the commits made on "{branch}" of "{repo}", newest first'))
def lists_made(ctx: ScenarioContext, branch_notes: BranchNotes, branch: str, repo: str) -> None:
    """The listed SHAs (a list or a comparison's commits) are exactly the commits Given steps made."""
    expected = list(reversed(branch_notes.made_on(ctx, repo, branch)))
    assert _listed_shas(ctx) == expected, f"listed {_listed_shas(ctx)}, expected {expected}"


@then(phrase("the comparison counts {count:d} commits"))
def comparison_counts(ctx: ScenarioContext, count: int) -> None:
    """``total_commits`` and the length of ``commits`` both equal ``count``."""
    body = response_json(ctx)
    assert body.get("total_commits") == count, f"total_commits is {body.get('total_commits')}"
    assert len(body.get("commits") or []) == count, f"{len(body.get('commits') or [])} commits listed"


@then(phrase('the response is the commit at the head of "{branch}" of "{repo}" with its stats and files'))
def is_head_commit(ctx: ScenarioContext, branch: str, repo: str) -> None:
    """The single commit is the branch head and carries ``stats`` and ``files``."""
    body = response_json(ctx)
    assert body.get("sha") == branch_head(ctx, repo, branch), f"sha {body.get('sha')}"
    assert isinstance(body.get("stats"), dict), "the commit has no stats"
    assert isinstance(body.get("files"), list) and body["files"], "the commit lists no affected files"


@then(phrase('the response is plain text containing "{text}"'))
def plain_text(ctx: ScenarioContext, text: str) -> None:
    """A ``text/plain`` body containing the text."""
    response = ctx.last_response()
    assert response.headers.get("Content-Type", "").startswith("text/plain"), response.headers.get("Content-Type")
    assert text in response.text, f"{text!r} not in {response.text[:300]!r}"

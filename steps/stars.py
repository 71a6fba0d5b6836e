"""Steps of the stars area: starring and watching repositories, the lists on both sides, the counts a
``Repository`` carries. Repositories are short names (``"alice/demo"``); users are short names too."""

from __future__ import annotations

from pytest_bdd import given, then, when

from conformance.api.stars import StarsApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from steps.actors import acting
from steps.common import comma_list, expect_status, response_json, user_name
from steps.parsing import phrase

__all__: list[str] = []


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" starred "{repo}"'))
def given_starred(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``PUT /user/starred/{owner}/{repo}`` must succeed."""
    ref = ctx.repo(repo)
    expect_status(acting(ctx, who, StarsApi).star(ref.owner, ref.name), 204, f'"{who}" stars "{repo}"')


@given(phrase('"{who}" is watching "{repo}"'))
def given_watching(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``PUT /repos/{owner}/{repo}/subscription`` must succeed."""
    ref = ctx.repo(repo)
    expect_status(acting(ctx, who, StarsApi).watch(ref.owner, ref.name), 200, f'"{who}" watches "{repo}"')


# ---------------------------------------------------------------- When


@when(phrase('"{who}" stars "{repo}"'))
def star(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``PUT /user/starred/{owner}/{repo}``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, StarsApi).star(ref.owner, ref.name)


@when(phrase('"{who}" unstars "{repo}"'))
def unstar(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``DELETE /user/starred/{owner}/{repo}``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, StarsApi).unstar(ref.owner, ref.name)


@when(phrase('"{who}" checks whether they starred "{repo}"'))
def check_star(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``GET /user/starred/{owner}/{repo}``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, StarsApi).is_starring(ref.owner, ref.name)


@when(phrase('"{who}" lists the stargazers of "{repo}"'))
def list_stargazers(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``GET /repos/{owner}/{repo}/stargazers``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, StarsApi).stargazers(ref.owner, ref.name)


@when(phrase('"{who}" lists the repositories they starred'))
def list_my_stars(ctx: ScenarioContext, who: str) -> None:
    """``GET /user/starred``."""
    ctx.response = acting(ctx, who, StarsApi).my_starred()


@when(phrase('"{who}" lists the repositories "{user}" starred'))
def list_stars_of(ctx: ScenarioContext, who: str, user: str) -> None:
    """``GET /users/{username}/starred``."""
    ctx.response = acting(ctx, who, StarsApi).starred_of(user_name(ctx, user))


@when(phrase('"{who}" watches "{repo}"'))
def watch(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``PUT /repos/{owner}/{repo}/subscription``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, StarsApi).watch(ref.owner, ref.name)


@when(phrase('"{who}" stops watching "{repo}"'))
def unwatch(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``DELETE /repos/{owner}/{repo}/subscription``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, StarsApi).unwatch(ref.owner, ref.name)


@when(phrase('"{who}" checks whether they watch "{repo}"'))
def check_watch(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``GET /repos/{owner}/{repo}/subscription``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, StarsApi).watching(ref.owner, ref.name)


@when(phrase('"{who}" lists the watchers of "{repo}"'))
def list_watchers(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``GET /repos/{owner}/{repo}/subscribers``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, StarsApi).watchers(ref.owner, ref.name)


@when(phrase('"{who}" lists the repositories they watch'))
def list_my_watches(ctx: ScenarioContext, who: str) -> None:
    """``GET /user/subscriptions``."""
    ctx.response = acting(ctx, who, StarsApi).my_subscriptions()


@when(phrase('"{who}" lists the repositories "{user}" watches'))
def list_watches_of(ctx: ScenarioContext, who: str, user: str) -> None:
    """``GET /users/{username}/subscriptions``."""
    ctx.response = acting(ctx, who, StarsApi).subscriptions_of(user_name(ctx, user))


# ---------------------------------------------------------------- Then


def _repo_counts(ctx: ScenarioContext, repo: str) -> tuple[int, int]:
    ref = ctx.repo(repo)
    body = expect_status(ctx.admin.repos.get(ref.owner, ref.name), 200, f'read "{repo}"')
    return int(body["stars_count"]), int(body["watchers_count"])


@then(phrase('the repository "{repo}" has {count:d} stars'))
def then_stars(ctx: ScenarioContext, repo: str, count: int) -> None:
    """The ``stars_count`` of the repository (read by the admin)."""
    stars = _repo_counts(ctx, repo)[0]
    assert stars == count, f'"{repo}" has stars_count {stars}, expected {count}'


@then(phrase('the repository "{repo}" has {count:d} watchers'))
def then_watchers(ctx: ScenarioContext, repo: str, count: int) -> None:
    """The ``watchers_count`` of the repository (read by the admin)."""
    watchers = _repo_counts(ctx, repo)[1]
    assert watchers == count, f'"{repo}" has watchers_count {watchers}, expected {count}'


@then(phrase('the response lists the repositories "{repos}"'))
def then_lists_repositories(ctx: ScenarioContext, repos: str) -> None:
    """A list of ``Repository`` with exactly these (short names, in any order: Gitea orders none)."""
    body = response_json(ctx)
    assert isinstance(body, list), f"expected a list, got {str(body)[:200]}"
    expected = [f"{ctx.repo(short).owner}/{ctx.repo(short).name}" for short in comma_list(repos)]
    found = sorted(str(item.get("full_name")) for item in body)
    assert found == sorted(expected), f"listed {found}, expected {expected}"


@then(phrase('the watch answered is of "{repo}"'))
def then_watch_of(ctx: ScenarioContext, repo: str) -> None:
    """A subscribed ``WatchInfo`` whose URLs name the repository's API address and its subscription."""
    ref = ctx.repo(repo)
    body = response_json(ctx)
    assert body.get("subscribed") is True and body.get("ignored") is False, f"watch {body}"
    repository_url = str(body.get("repository_url"))
    assert repository_url.rstrip("/").endswith(f"/api/v1/repos/{ref.owner}/{ref.name}"), repository_url
    assert body.get("url") == f"{repository_url}/subscription", f"url {body.get('url')!r}"


@then(phrase('"{user}" is among the watchers of "{repo}"'))
def then_among_watchers(ctx: ScenarioContext, user: str, repo: str) -> None:
    """``GET .../subscribers`` (as the admin) lists the user."""
    ref = ctx.repo(repo)
    body = json_of(ctx.admin.area(StarsApi).watchers(ref.owner, ref.name))
    logins = [item.get("login") for item in body]
    assert user_name(ctx, user) in logins, f"watchers of {repo}: {logins}"


@then(phrase('"{user}" is not among the watchers of "{repo}"'))
def then_not_among_watchers(ctx: ScenarioContext, user: str, repo: str) -> None:
    """``GET .../subscribers`` (as the admin) does not list the user."""
    ref = ctx.repo(repo)
    body = json_of(ctx.admin.area(StarsApi).watchers(ref.owner, ref.name))
    logins = [item.get("login") for item in body]
    assert user_name(ctx, user) not in logins, f"watchers of {repo}: {logins}"

"""The wiki of a repository: pages written and read over REST, the page list and a page's revisions.

Pages are named in features by their web path (Gitea's ``sub_url``: "Home-Page" for the title
"Home Page"); contents are plain text, sent and compared as base64 as the API carries them.
"""

from __future__ import annotations

import base64
from typing import Any

from pytest_bdd import given, then, when

from conformance.api.wiki import WikiApi
from conformance.context import ScenarioContext
from steps.actors import ADMIN, acting, git_credentials, repo_owner
from steps.common import comma_list, expect_status, response_json
from steps.git_https import GitWorld
from steps.parsing import phrase

__all__: list[str] = []


def _b64(text: str) -> str:
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def _text(encoded: object) -> str:
    assert isinstance(encoded, str), f"expected base64 text, got {encoded!r}"
    return base64.b64decode(encoded).decode("utf-8")


def _page(ctx: ScenarioContext) -> dict[str, Any]:
    body = response_json(ctx)
    assert isinstance(body, dict), f"expected a WikiPage, got {str(body)[:200]}"
    return body


# ---------------------------------------------------------------- Given


@given(phrase('the wiki of "{repo}" has the page "{title}" with the content "{content}"'))
def given_page(ctx: ScenarioContext, repo: str, title: str, content: str) -> None:
    """The repository's owner wrote the page (the first page creates the wiki)."""
    ref = ctx.repo(repo)
    api = repo_owner(ctx, repo).area(WikiApi)
    expect_status(
        api.create(ref.owner, ref.name, {"title": title, "content_base64": _b64(content)}), 201, f'write "{title}"'
    )


@given(phrase('"{who}" changed the content of the wiki page "{page}" of "{repo}" to "{content}"'))
def given_edited(ctx: ScenarioContext, who: str, page: str, repo: str, content: str) -> None:
    """A PATCH keeping the page's title (its web path as title)."""
    ref = ctx.repo(repo)
    body = {"title": page, "content_base64": _b64(content)}
    expect_status(acting(ctx, who, WikiApi).edit(ref.owner, ref.name, page, body), 200, f'change "{page}"')


@given(phrase('"{who}" deleted the wiki page "{page}" of "{repo}"'))
def given_deleted(ctx: ScenarioContext, who: str, page: str, repo: str) -> None:
    ref = ctx.repo(repo)
    expect_status(acting(ctx, who, WikiApi).delete(ref.owner, ref.name, page), 204, f'delete "{page}"')


# ---------------------------------------------------------------- When


@when(phrase('"{who}" creates the wiki page "{title}" in "{repo}" with the content "{content}"'))
def when_create(ctx: ScenarioContext, who: str, title: str, repo: str, content: str) -> None:
    ref = ctx.repo(repo)
    body = {"title": title, "content_base64": _b64(content)}
    ctx.response = acting(ctx, who, WikiApi).create(ref.owner, ref.name, body)


@when(phrase('"{who}" creates the wiki page "{title}" in "{repo}" with the base64 content "{raw}"'))
def when_create_raw(ctx: ScenarioContext, who: str, title: str, repo: str, raw: str) -> None:
    """``content_base64`` sent as written (to try what is not base64)."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, WikiApi).create(ref.owner, ref.name, {"title": title, "content_base64": raw})


@when(phrase('"{who}" reads the wiki page "{page}" of "{repo}"'))
def when_read(ctx: ScenarioContext, who: str, page: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, WikiApi).get(ref.owner, ref.name, page)


@when(phrase('"{who}" changes the wiki page "{page}" of "{repo}" to the title "{title}" and the content "{content}"'))
def when_edit(ctx: ScenarioContext, *, who: str, page: str, repo: str, title: str, content: str) -> None:
    ref = ctx.repo(repo)
    body = {"title": title, "content_base64": _b64(content)}
    ctx.response = acting(ctx, who, WikiApi).edit(ref.owner, ref.name, page, body)


@when(phrase('"{who}" changes only the content of the wiki page "{page}" of "{repo}" to "{content}"'))
def when_edit_content(ctx: ScenarioContext, who: str, page: str, repo: str, content: str) -> None:
    """A PATCH without ``title``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, WikiApi).edit(ref.owner, ref.name, page, {"content_base64": _b64(content)})


@when(phrase('"{who}" deletes the wiki page "{page}" of "{repo}"'))
def when_delete(ctx: ScenarioContext, who: str, page: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, WikiApi).delete(ref.owner, ref.name, page)


@when(phrase('"{who}" lists the wiki pages of "{repo}"'))
def when_list(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, WikiApi).pages(ref.owner, ref.name)


@when(phrase('"{who}" lists the wiki pages of "{repo}" {limit:d} a page, page {page:d}'))
def when_list_paged(ctx: ScenarioContext, who: str, repo: str, limit: int, page: int) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, WikiApi).pages(ref.owner, ref.name, limit=limit, page=page)


@when(phrase('"{who}" lists the revisions of the wiki page "{page}" of "{repo}"'))
def when_revisions(ctx: ScenarioContext, who: str, page: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, WikiApi).revisions(ref.owner, ref.name, page)


# ---------------------------------------------------------------- Then


@then(phrase('the wiki page has the content "{content}"'))
def then_content(ctx: ScenarioContext, content: str) -> None:
    found = _text(_page(ctx).get("content_base64"))
    assert found == content, f"the page's content is {found!r}, expected {content!r}"


@then(phrase('the wiki page shows the sidebar "{sidebar}" and the footer "{footer}"'))
def then_sidebar_footer(ctx: ScenarioContext, sidebar: str, footer: str) -> None:
    page = _page(ctx)
    found = (_text(page.get("sidebar")), _text(page.get("footer")))
    assert found == (sidebar, footer), f"sidebar and footer are {found}, expected {(sidebar, footer)}"


@then(phrase('the wiki page "{page}" of "{repo}" has the content "{content}"'))
def then_page_content(ctx: ScenarioContext, page: str, repo: str, content: str) -> None:
    """Read as the admin."""
    ref = ctx.repo(repo)
    body = expect_status(acting(ctx, ADMIN, WikiApi).get(ref.owner, ref.name, page), 200, f'read "{page}"')
    found = _text(body.get("content_base64"))
    assert found == content, f'the page "{page}" holds {found!r}, expected {content!r}'


@then(phrase('the wiki of "{repo}" has no page "{page}"'))
def then_no_page(ctx: ScenarioContext, repo: str, page: str) -> None:
    """Read as the admin: 404."""
    ref = ctx.repo(repo)
    response = acting(ctx, ADMIN, WikiApi).get(ref.owner, ref.name, page)
    assert response.status_code == 404, f'the page "{page}" answers {response.status_code}, expected 404'


@then(phrase('the listed wiki pages are "{titles}"'))
def then_listed(ctx: ScenarioContext, titles: str) -> None:
    """The titles of the list, in its order."""
    body = response_json(ctx)
    assert isinstance(body, list), f"expected a list of pages, got {str(body)[:200]}"
    found = [item["title"] for item in body]
    assert found == comma_list(titles), f"the pages listed are {found}, expected {comma_list(titles)}"


@then(phrase("the revisions, newest first, have the messages"))
def then_revisions(ctx: ScenarioContext, docstring: str) -> None:
    """The commit messages (one a line) and the count of the WikiCommitList."""
    body = response_json(ctx)
    assert isinstance(body, dict), f"expected a WikiCommitList, got {str(body)[:200]}"
    found = [commit["message"].strip() for commit in body["commits"]]
    expected = [line.strip() for line in docstring.splitlines() if line.strip()]
    assert found == expected, f"the revisions are {found}, expected {expected}"
    assert body["count"] == len(expected), f"count is {body['count']}, expected {len(expected)}"


@when(phrase('"{who}" clones the wiki of "{repo}" over HTTPS'))
def clone_wiki(ctx: ScenarioContext, git_world: GitWorld, who: str, repo: str) -> None:
    """``git clone <owner>/<repo>.wiki.git`` with the user's account token; the clone is "<repo>.wiki"."""
    ref = ctx.repo(repo)
    url = f"{ctx.admin.site_url.rstrip('/')}/{ref.owner}/{ref.name}.wiki.git"
    path, git_world.result = git_world.client.clone(url, f"wiki-{len(git_world.clones) + 1}", git_credentials(ctx, who))
    if git_world.result.ok:
        git_world.clones[f"{repo}.wiki"] = path

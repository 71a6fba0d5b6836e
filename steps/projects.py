"""Project boards: boards at repository, organization and user scope, their columns and the issues on them.

A scope reads ``the repository "acme/app"``, ``the organization "acme"`` or ``the user "dev"`` (the user's
boards at ``/users/{username}/projects``); ``their own boards`` is ``/user/projects``, the caller's. Boards
are known by title within a scenario, columns by title within their board, issues by their number in
their repository (steps turn them into the global ids the routes take). Given steps act as the admin;
Then steps read as the admin, who sees every board.

The ``project_boards`` capability is probed with ``GET /user/projects`` as the admin: a forge without
the routes (Gitea 1.27 and earlier, Forgejo) answers 404.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
import requests
from pytest_bdd import given, then, when

from conformance.api.issues import IssuesApi
from conformance.api.projects import OWN_PROJECTS, ProjectsApi, org_projects, repo_projects, user_projects
from conformance.capabilities import register_probe
from conformance.client import HttpClient, json_of
from conformance.context import ScenarioContext
from conformance.seeding import SeededData
from steps.actors import ADMIN, acting
from steps.common import comma_list, expect_status, json_option
from steps.parsing import phrase

__all__ = ["Board", "Boards"]


@dataclass(frozen=True)
class Board:
    """A board of the scenario: the projects path of its scope and its id."""

    scope: str
    id: int


def scope_path(ctx: ScenarioContext, kind: str, short: str) -> str:
    """``repository``/``organization``/``user`` and a short name to the scope's projects path."""
    if kind == "repository":
        repo = ctx.repo(short)
        return repo_projects(repo.owner, repo.name)
    if kind == "organization":
        return org_projects(ctx.org(short))
    if kind == "user":
        return user_projects(ctx.user(short).username)
    raise AssertionError(f"a board scope is a repository, an organization or a user, got {kind!r}")


@dataclass
class Boards:
    """The boards the scenario created, by title."""

    by_title: dict[str, Board] = field(default_factory=dict)

    def board(self, title: str) -> Board:
        """A board created earlier in the scenario, by title."""
        found = self.by_title.get(title)
        assert found is not None, f'no board "{title}" in this scenario: add a Given that creates it'
        return found

    def keep(self, scope: str, response: requests.Response) -> None:
        """Keep a board the response created (so later steps find it by title)."""
        if response.status_code == 201:
            body = json_of(response)
            self.by_title[str(body["title"])] = Board(scope, int(body["id"]))


@pytest.fixture
def boards() -> Boards:
    """The scenario's boards."""
    return Boards()


def _columns(ctx: ScenarioContext, boards: Boards, title: str) -> list[dict[str, Any]]:
    found = boards.board(title)
    listed = expect_status(acting(ctx, ADMIN, ProjectsApi).list_columns(found.scope, found.id), 200, "list columns")
    assert isinstance(listed, list)
    return listed


def column_id(ctx: ScenarioContext, boards: Boards, title: str, column: str) -> int:
    """The id of the column with this title on the board."""
    for item in _columns(ctx, boards, title):
        if item["title"] == column:
            return int(item["id"])
    raise AssertionError(f'the board "{title}" has no column "{column}"')


def issue_id(ctx: ScenarioContext, repo: str, index: int) -> int:
    """The global id of issue ``index`` of the repository (what the board routes take)."""
    ref = ctx.repo(repo)
    body = expect_status(acting(ctx, ADMIN, IssuesApi).get_issue(ref.owner, ref.name, index), 200, "read the issue")
    return int(body["id"])


def _column_titles(ctx: ScenarioContext, boards: Boards, title: str, column: str) -> list[str]:
    found = boards.board(title)
    listed = acting(ctx, ADMIN, ProjectsApi).column_issues(found.scope, found.id, column_id(ctx, boards, title, column))
    return [item["title"] for item in expect_status(listed, 200, "list the column's issues")]


# ---------------------------------------------------------------- Given


@given(phrase('the {kind:w} "{short}" has the board "{title}"'))
def given_board(ctx: ScenarioContext, boards: Boards, fake: SeededData, *, kind: str, short: str, title: str) -> None:
    """A board made by the admin, with a drawn description."""
    scope = scope_path(ctx, kind, short)
    response = acting(ctx, ADMIN, ProjectsApi).create_project(scope, {"title": title, "description": fake.sentence()})
    expect_status(response, 201, f'create the board "{title}"')
    boards.keep(scope, response)


@given(phrase('the {kind:w} "{short}" has the board "{title}" from the template "{template}"'))
def given_template_board(
    ctx: ScenarioContext, boards: Boards, *, kind: str, short: str, title: str, template: str
) -> None:
    scope = scope_path(ctx, kind, short)
    response = acting(ctx, ADMIN, ProjectsApi).create_project(scope, {"title": title, "template_type": template})
    expect_status(response, 201, f'create the board "{title}"')
    boards.keep(scope, response)


@given(phrase('issue {index:d} of "{repo}" is in the column "{column}" of the board "{title}"'))
def given_card(ctx: ScenarioContext, boards: Boards, *, index: int, repo: str, column: str, title: str) -> None:
    found = boards.board(title)
    response = acting(ctx, ADMIN, ProjectsApi).add_issue(
        found.scope, found.id, column_id(ctx, boards, title, column), issue_id(ctx, repo, index)
    )
    expect_status(response, 201, f'put issue {index} in "{column}"')


@given(phrase('the board "{title}" is closed'))
def given_closed(ctx: ScenarioContext, boards: Boards, title: str) -> None:
    found = boards.board(title)
    response = acting(ctx, ADMIN, ProjectsApi).edit_project(found.scope, found.id, {"state": "closed"})
    expect_status(response, 200, f'close the board "{title}"')


# ---------------------------------------------------------------- When: boards


@when(phrase('"{who}" creates the board "{title}" for the {kind:w} "{short}"'))
def when_create(ctx: ScenarioContext, boards: Boards, *, who: str, title: str, kind: str, short: str) -> None:
    scope = scope_path(ctx, kind, short)
    ctx.response = acting(ctx, who, ProjectsApi).create_project(scope, {"title": title})
    boards.keep(scope, ctx.response)


@when(phrase('"{who}" creates the board "{title}" from the template "{template}" for the {kind:w} "{short}"'))
def when_create_template(
    ctx: ScenarioContext, boards: Boards, *, who: str, title: str, template: str, kind: str, short: str
) -> None:
    scope = scope_path(ctx, kind, short)
    ctx.response = acting(ctx, who, ProjectsApi).create_project(scope, {"title": title, "template_type": template})
    boards.keep(scope, ctx.response)


@when(phrase('"{who}" creates a board for the {kind:w} "{short}" with the body'))
def when_create_body(ctx: ScenarioContext, boards: Boards, *, who: str, kind: str, short: str, docstring: str) -> None:
    scope = scope_path(ctx, kind, short)
    ctx.response = acting(ctx, who, ProjectsApi).create_project(scope, json_option(ctx, docstring))
    boards.keep(scope, ctx.response)


@when(phrase('"{who}" creates the board "{title}" among their own boards'))
def when_create_own(ctx: ScenarioContext, boards: Boards, who: str, title: str) -> None:
    ctx.response = acting(ctx, who, ProjectsApi).create_project(OWN_PROJECTS, {"title": title})
    if ctx.response.status_code == 201:
        boards.keep(user_projects(ctx.user(who).username), ctx.response)


@when(phrase('"{who}" lists the boards of the {kind:w} "{short}" with "{query}"'))
def when_list(ctx: ScenarioContext, who: str, kind: str, short: str, query: str) -> None:
    """``query`` is ``key=value&key=value`` (state, page, limit)."""
    params = dict(part.split("=", 1) for part in query.split("&") if part)
    ctx.response = acting(ctx, who, ProjectsApi).list_projects(scope_path(ctx, kind, short), **params)


@when(phrase('"{who}" reads the board "{title}"'))
def when_read(ctx: ScenarioContext, boards: Boards, who: str, title: str) -> None:
    found = boards.board(title)
    ctx.response = acting(ctx, who, ProjectsApi).get_project(found.scope, found.id)


@when(phrase('"{who}" reads the board "{title}" through the {kind:w} "{short}"'))
def when_read_elsewhere(ctx: ScenarioContext, boards: Boards, *, who: str, title: str, kind: str, short: str) -> None:
    ctx.response = acting(ctx, who, ProjectsApi).get_project(scope_path(ctx, kind, short), boards.board(title).id)


@when(phrase('"{who}" edits the board "{title}" with the body'))
def when_edit(ctx: ScenarioContext, boards: Boards, who: str, title: str, docstring: str) -> None:
    found = boards.board(title)
    ctx.response = acting(ctx, who, ProjectsApi).edit_project(found.scope, found.id, json_option(ctx, docstring))


@when(phrase('"{who}" deletes the board "{title}"'))
def when_delete(ctx: ScenarioContext, boards: Boards, who: str, title: str) -> None:
    found = boards.board(title)
    ctx.response = acting(ctx, who, ProjectsApi).delete_project(found.scope, found.id)


# ---------------------------------------------------------------- When: columns


@when(phrase('"{who}" lists the columns of the board "{title}"'))
def when_list_columns(ctx: ScenarioContext, boards: Boards, who: str, title: str) -> None:
    found = boards.board(title)
    ctx.response = acting(ctx, who, ProjectsApi).list_columns(found.scope, found.id)


@when(phrase('"{who}" adds a column to the board "{title}" with the body'))
def when_add_column(ctx: ScenarioContext, boards: Boards, who: str, title: str, docstring: str) -> None:
    found = boards.board(title)
    ctx.response = acting(ctx, who, ProjectsApi).create_column(found.scope, found.id, json_option(ctx, docstring))


@when(phrase('"{who}" orders the columns of the board "{title}" as "{columns}"'))
def when_order(ctx: ScenarioContext, boards: Boards, who: str, title: str, columns: str) -> None:
    found = boards.board(title)
    ids = [column_id(ctx, boards, title, name) for name in comma_list(columns)]
    ctx.response = acting(ctx, who, ProjectsApi).move_columns(found.scope, found.id, {"column_ids": ids})


@when(phrase('"{who}" orders the columns of the board "{title}" as "{columns}" then "{column}" of the board "{other}"'))
def when_order_foreign(
    ctx: ScenarioContext, boards: Boards, *, who: str, title: str, columns: str, column: str, other: str
) -> None:
    """The board's columns followed by a column of another board."""
    found = boards.board(title)
    ids = [column_id(ctx, boards, title, name) for name in comma_list(columns)] + [
        column_id(ctx, boards, other, column)
    ]
    ctx.response = acting(ctx, who, ProjectsApi).move_columns(found.scope, found.id, {"column_ids": ids})


@when(phrase('"{who}" makes "{column}" the default column of the board "{title}"'))
def when_default(ctx: ScenarioContext, boards: Boards, who: str, column: str, title: str) -> None:
    found = boards.board(title)
    ctx.response = acting(ctx, who, ProjectsApi).set_default_column(
        found.scope, found.id, column_id(ctx, boards, title, column)
    )


@when(phrase('"{who}" deletes the column "{column}" of the board "{title}"'))
def when_delete_column(ctx: ScenarioContext, boards: Boards, who: str, column: str, title: str) -> None:
    found = boards.board(title)
    ctx.response = acting(ctx, who, ProjectsApi).delete_column(
        found.scope, found.id, column_id(ctx, boards, title, column)
    )


# ---------------------------------------------------------------- When: issues on a board


@when(phrase('"{who}" puts issue {index:d} of "{repo}" in the column "{column}" of the board "{title}"'))
def when_put(ctx: ScenarioContext, boards: Boards, *, who: str, index: int, repo: str, column: str, title: str) -> None:
    found = boards.board(title)
    ctx.response = acting(ctx, who, ProjectsApi).add_issue(
        found.scope, found.id, column_id(ctx, boards, title, column), issue_id(ctx, repo, index)
    )


@when(
    phrase(
        '"{who}" puts issue {index:d} of "{repo}" in the column "{column}" of the board "{other}"'
        ' through the board "{title}"'
    )
)
def when_put_through(
    ctx: ScenarioContext, boards: Boards, *, who: str, index: int, repo: str, column: str, other: str, title: str
) -> None:
    """The path names ``title`` but a column of ``other``: the column is not one of the board's."""
    found = boards.board(title)
    ctx.response = acting(ctx, who, ProjectsApi).add_issue(
        found.scope, found.id, column_id(ctx, boards, other, column), issue_id(ctx, repo, index)
    )


@when(phrase('"{who}" moves issue {index:d} of "{repo}" to the column "{column}" of the board "{title}"'))
def when_move(
    ctx: ScenarioContext, boards: Boards, *, who: str, index: int, repo: str, column: str, title: str
) -> None:
    found = boards.board(title)
    option = {"column_id": column_id(ctx, boards, title, column)}
    ctx.response = acting(ctx, who, ProjectsApi).move_issue(found.scope, found.id, issue_id(ctx, repo, index), option)


@when(
    phrase(
        '"{who}" moves issue {index:d} of "{repo}" to the column "{column}" at position {sorting:d}'
        ' of the board "{title}"'
    )
)
def when_move_at(
    ctx: ScenarioContext, boards: Boards, *, who: str, index: int, repo: str, column: str, sorting: int, title: str
) -> None:
    found = boards.board(title)
    option = {"column_id": column_id(ctx, boards, title, column), "sorting": sorting}
    ctx.response = acting(ctx, who, ProjectsApi).move_issue(found.scope, found.id, issue_id(ctx, repo, index), option)


@when(
    phrase(
        '"{who}" moves issue {index:d} of "{repo}" on the board "{title}"'
        ' to the column "{column}" of the board "{other}"'
    )
)
def when_move_foreign(
    ctx: ScenarioContext, boards: Boards, *, who: str, index: int, repo: str, title: str, column: str, other: str
) -> None:
    """The body names a column of another board."""
    found = boards.board(title)
    option = {"column_id": column_id(ctx, boards, other, column)}
    ctx.response = acting(ctx, who, ProjectsApi).move_issue(found.scope, found.id, issue_id(ctx, repo, index), option)


@when(phrase('"{who}" takes issue {index:d} of "{repo}" off the column "{column}" of the board "{title}"'))
def when_take_off(
    ctx: ScenarioContext, boards: Boards, *, who: str, index: int, repo: str, column: str, title: str
) -> None:
    found = boards.board(title)
    ctx.response = acting(ctx, who, ProjectsApi).remove_issue(
        found.scope, found.id, column_id(ctx, boards, title, column), issue_id(ctx, repo, index)
    )


@when(phrase('"{who}" lists the issues in the column "{column}" of the board "{title}"'))
def when_list_issues(ctx: ScenarioContext, boards: Boards, who: str, column: str, title: str) -> None:
    found = boards.board(title)
    ctx.response = acting(ctx, who, ProjectsApi).column_issues(
        found.scope, found.id, column_id(ctx, boards, title, column)
    )


# ---------------------------------------------------------------- Then


@then(phrase('the board "{title}" has the columns "{columns}"'))
def then_columns(ctx: ScenarioContext, boards: Boards, title: str, columns: str) -> None:
    """The board's column titles, left to right."""
    found = [item["title"] for item in _columns(ctx, boards, title)]
    assert found == comma_list(columns), f'the board "{title}" has the columns {found}'


@then(phrase('the default column of the board "{title}" is "{column}"'))
def then_default(ctx: ScenarioContext, boards: Boards, title: str, column: str) -> None:
    """Exactly one column is the default, and it is this one."""
    defaults = [item["title"] for item in _columns(ctx, boards, title) if item["default"] is True]
    assert defaults == [column], f'the default columns of "{title}" are {defaults}'


@then(phrase('the column "{column}" of the board "{title}" holds the issues "{titles}"'))
def then_holds(ctx: ScenarioContext, boards: Boards, column: str, title: str, titles: str) -> None:
    """The column's issues by title, in board order."""
    found = _column_titles(ctx, boards, title, column)
    assert found == comma_list(titles), f'the column "{column}" holds {found}'


@then(phrase('the column "{column}" of the board "{title}" holds no issue'))
def then_holds_nothing(ctx: ScenarioContext, boards: Boards, column: str, title: str) -> None:
    found = _column_titles(ctx, boards, title, column)
    assert found == [], f'the column "{column}" holds {found}'


@then(phrase('the board "{title}" is {state:w}'))
def then_state(ctx: ScenarioContext, boards: Boards, title: str, state: str) -> None:
    """``open`` or ``closed``, with ``is_closed`` and ``closed_at`` agreeing."""
    found = boards.board(title)
    body = expect_status(acting(ctx, ADMIN, ProjectsApi).get_project(found.scope, found.id), 200, "read the board")
    assert body["state"] == state, f'the board "{title}" is {body["state"]}'
    assert body["is_closed"] is (state == "closed")
    assert (body.get("closed_at") is not None) is (state == "closed"), f"closed_at is {body.get('closed_at')!r}"


@then(phrase('the board "{title}" no longer exists'))
def then_gone(ctx: ScenarioContext, boards: Boards, title: str) -> None:
    found = boards.board(title)
    response = acting(ctx, ADMIN, ProjectsApi).get_project(found.scope, found.id)
    assert response.status_code == 404, f'reading the board "{title}" answered {response.status_code}'


@then(phrase('the board "{title}" counts {opened:d} open and {closed:d} closed issues'))
def then_counts(ctx: ScenarioContext, boards: Boards, title: str, opened: int, closed: int) -> None:
    found = boards.board(title)
    body = expect_status(acting(ctx, ADMIN, ProjectsApi).get_project(found.scope, found.id), 200, "read the board")
    counts = (body["num_open_issues"], body["num_closed_issues"], body["num_issues"])
    assert counts == (opened, closed, opened + closed), f"the board counts {counts}"


@then(phrase('the {kind:w} "{short}" has the boards "{titles}"'))
def then_scope_boards(ctx: ScenarioContext, kind: str, short: str, titles: str) -> None:
    """Every board of the scope, open or closed, newest first (``nothing`` for none), read by the admin."""
    listed = acting(ctx, ADMIN, ProjectsApi).list_projects(scope_path(ctx, kind, short), state="all")
    found = [item["title"] for item in expect_status(listed, 200, "list the boards")]
    expected = [] if titles == "nothing" else comma_list(titles)
    assert found == expected, f'the {kind} "{short}" has the boards {found}'


@then(phrase('the response lists the boards "{titles}"'))
def then_listed(ctx: ScenarioContext, titles: str) -> None:
    """The last response's boards by title, in order (``nothing`` for none)."""
    expected = [] if titles == "nothing" else comma_list(titles)
    found = [item["title"] for item in json_of(ctx.last_response())]
    assert found == expected, f"the response lists {found}"


@then(phrase('the response lists the columns "{columns}"'))
def then_listed_columns(ctx: ScenarioContext, columns: str) -> None:
    found = [item["title"] for item in json_of(ctx.last_response())]
    assert found == comma_list(columns), f"the response lists {found}"


@then(phrase('the response lists the issues titled "{titles}"'))
def then_listed_issues(ctx: ScenarioContext, titles: str) -> None:
    expected = [] if titles == "nothing" else comma_list(titles)
    found = [item["title"] for item in json_of(ctx.last_response())]
    assert found == expected, f"the response lists {found}"


@then(phrase('the issue in the response is on the boards "{titles}"'))
def then_issue_on_boards(ctx: ScenarioContext, boards: Boards, titles: str) -> None:
    """The answered issue's ``projects`` are exactly these boards of the scenario (ids and titles, by id);
    ``nothing`` for none (Gitea answers an empty list)."""
    projects = json_of(ctx.last_response()).get("projects")
    assert isinstance(projects, list), f"the issue's projects are {projects!r}, not a list"
    expected = sorted((boards.board(title).id, title) for title in ([] if titles == "nothing" else comma_list(titles)))
    found = [(item["id"], item["title"]) for item in projects]
    assert found == expected, f"the issue is on the boards {found}, expected {expected}"


# ---------------------------------------------------------------- capability


@register_probe("project_boards")
def _project_boards_probe(admin: HttpClient) -> bool:
    """``GET /user/projects`` answers 200 to the admin (404 where the routes do not exist)."""
    try:
        return ProjectsApi(admin, admin.base_url).list_projects(OWN_PROJECTS, limit=1).status_code == 200
    except requests.RequestException:
        return False

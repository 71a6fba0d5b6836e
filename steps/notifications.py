"""Steps of the notifications area: the threads what happens to issues, pulls and releases makes for their
followers, marking them read or pinned, issue subscriptions, stopwatches and the issue search. Users and
repositories are short names; issue titles are the scenario's own."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from pytest_bdd import given, then, when

from conformance.api.issues import IssuesApi
from conformance.api.notifications import NotificationsApi
from conformance.api.times import TimesApi
from conformance.context import ScenarioContext
from steps.actors import ADMIN, acting
from steps.common import comma_list, expect_status, response_json, user_name
from steps.parsing import phrase

__all__: list[str] = []


def _api(ctx: ScenarioContext, who: str) -> NotificationsApi:
    return acting(ctx, who, NotificationsApi)


def _query(ctx: ScenarioContext, text: str) -> list[tuple[str, str]]:
    """``a=1&b=2`` as ordered pairs; a value ``@short`` is that user's real name."""
    return [(key, user_name(ctx, value[1:]) if value.startswith("@") else value) for key, value in parse_qsl(text)]


def _threads_of(ctx: ScenarioContext, who: str) -> list[dict[str, Any]]:
    """Every thread of ``who`` (read ones too), asked as ``who``."""
    body = expect_status(_api(ctx, who).threads([("all", "true")]), 200, f'list the threads of "{who}"')
    assert isinstance(body, list), f"expected a list of threads, got {str(body)[:200]}"
    return body


def _thread_about(threads: list[dict[str, Any]], title: str) -> dict[str, Any]:
    found = [thread for thread in threads if thread.get("subject", {}).get("title") == title]
    assert len(found) == 1, f'expected one thread about "{title}", got {[t.get("subject") for t in threads]}'
    return found[0]


def _listed(ctx: ScenarioContext) -> list[dict[str, Any]]:
    body = response_json(ctx)
    assert isinstance(body, list), f"expected a list, got {str(body)[:200]}"
    return body


def _titles(items: list[dict[str, Any]]) -> list[str]:
    return [str(item.get("subject", item).get("title")) for item in items]


def _expected(text: str) -> list[str]:
    return [] if text == "none" else comma_list(text)


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" subscribed to issue {index:d} of "{repo}"'))
def given_subscribed(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    response = _api(ctx, who).subscribe(ref.owner, ref.name, index, user_name(ctx, who))
    expect_status(response, 201, f'"{who}" subscribes to issue {index}')


@given(phrase('"{who}" unsubscribed from issue {index:d} of "{repo}"'))
def given_unsubscribed(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    response = _api(ctx, who).unsubscribe(ref.owner, ref.name, index, user_name(ctx, who))
    expect_status(response, 201, f'"{who}" unsubscribes from issue {index}')


@given(phrase('"{who}" started the stopwatch on issue {index:d} of "{repo}"'))
def given_stopwatch(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    expect_status(_api(ctx, who).start_stopwatch(ref.owner, ref.name, index), 201, "start the stopwatch")


@given(phrase('"{who}" marked the notification thread about "{title}" as {status:w}'))
def given_marked_thread(ctx: ScenarioContext, who: str, title: str, status: str) -> None:
    thread = _thread_about(_threads_of(ctx, who), title)
    expect_status(_api(ctx, who).mark_thread(thread["id"], status), 205, f"mark the thread {status}")


@given(phrase('"{who}" commented on issue {index:d} of "{repo}" mentioning "{user}"'))
def given_mentioning(ctx: ScenarioContext, who: str, index: int, repo: str, user: str) -> None:
    ref = ctx.repo(repo)
    body = f"Could you look, @{user_name(ctx, user)}?"
    expect_status(acting(ctx, who, IssuesApi).create_comment(ref.owner, ref.name, index, body), 201, "comment")


# ---------------------------------------------------------------- When: threads


@when(phrase('"{who}" lists their notification threads'))
def when_list(ctx: ScenarioContext, who: str) -> None:
    ctx.response = _api(ctx, who).threads()


@when(phrase('"{who}" lists their notification threads with "{query}"'))
def when_list_query(ctx: ScenarioContext, who: str, query: str) -> None:
    ctx.response = _api(ctx, who).threads(_query(ctx, query))


@when(phrase('"{who}" lists their notification threads of "{repo}"'))
def when_list_repo(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = _api(ctx, who).repo_threads(ref.owner, ref.name)


@when(phrase('"{who}" marks their notification threads with "{query}"'))
def when_mark_query(ctx: ScenarioContext, who: str, query: str) -> None:
    ctx.response = _api(ctx, who).mark_threads(_query(ctx, query))


@when(phrase('"{who}" marks their notification threads as read'))
def when_mark_all(ctx: ScenarioContext, who: str) -> None:
    ctx.response = _api(ctx, who).mark_threads()


@when(phrase('"{who}" marks their notification threads of "{repo}" as read'))
def when_mark_repo(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = _api(ctx, who).mark_repo_threads(ref.owner, ref.name)


@when(phrase('"{who}" asks how many new notifications they have'))
def when_new(ctx: ScenarioContext, who: str) -> None:
    ctx.response = _api(ctx, who).new_count()


@when(phrase('"{who}" reads the notification thread of "{owner}" about "{title}"'))
def when_read_thread(ctx: ScenarioContext, who: str, owner: str, title: str) -> None:
    thread = _thread_about(_threads_of(ctx, owner), title)
    ctx.response = _api(ctx, who).thread(thread["id"])


@when(phrase('"{who}" reads a notification thread that does not exist'))
def when_read_missing(ctx: ScenarioContext, who: str) -> None:
    ctx.response = _api(ctx, who).thread(2**62)


@when(phrase('"{who}" marks the notification thread of "{owner}" about "{title}" as {status:w}'))
def when_mark_thread(ctx: ScenarioContext, who: str, owner: str, title: str, status: str) -> None:
    thread = _thread_about(_threads_of(ctx, owner), title)
    ctx.response = _api(ctx, who).mark_thread(thread["id"], status)


@when(phrase('"{who}" comments on issue {index:d} of "{repo}" mentioning "{user}"'))
def when_mentioning(ctx: ScenarioContext, who: str, index: int, repo: str, user: str) -> None:
    ref = ctx.repo(repo)
    body = f"Could you look, @{user_name(ctx, user)}?"
    ctx.response = acting(ctx, who, IssuesApi).create_comment(ref.owner, ref.name, index, body)


# ---------------------------------------------------------------- When: subscriptions, stopwatches, search


@when(phrase('"{who}" lists the subscribers of issue {index:d} of "{repo}"'))
def when_subscribers(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = _api(ctx, who).subscribers(ref.owner, ref.name, index)


@when(phrase('"{who}" checks whether they are subscribed to issue {index:d} of "{repo}"'))
def when_check_subscription(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = _api(ctx, who).check_subscription(ref.owner, ref.name, index)


@when(phrase('"{who}" subscribes "{user}" to issue {index:d} of "{repo}"'))
def when_subscribe(ctx: ScenarioContext, who: str, user: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = _api(ctx, who).subscribe(ref.owner, ref.name, index, user_name(ctx, user))


@when(phrase('"{who}" unsubscribes "{user}" from issue {index:d} of "{repo}"'))
def when_unsubscribe(ctx: ScenarioContext, who: str, user: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = _api(ctx, who).unsubscribe(ref.owner, ref.name, index, user_name(ctx, user))


@when(phrase('"{who}" {action:w} the stopwatch on issue {index:d} of "{repo}"'))
def when_stopwatch(ctx: ScenarioContext, who: str, action: str, index: int, repo: str) -> None:
    """``starts``, ``stops`` or ``cancels``."""
    ref = ctx.repo(repo)
    api = _api(ctx, who)
    operations = {"starts": api.start_stopwatch, "stops": api.stop_stopwatch, "cancels": api.delete_stopwatch}
    assert action in operations, f"unknown stopwatch action {action!r}: starts, stops or cancels"
    ctx.response = operations[action](ref.owner, ref.name, index)


@when(phrase('"{who}" lists their stopwatches'))
def when_stopwatches(ctx: ScenarioContext, who: str) -> None:
    ctx.response = _api(ctx, who).stopwatches()


@when(phrase('"{who}" searches issues with "{query}"'))
def when_search(ctx: ScenarioContext, who: str, query: str) -> None:
    ctx.response = _api(ctx, who).search_issues(_query(ctx, query))


# ---------------------------------------------------------------- Then


@then(phrase('the threads listed are about "{titles}"'))
def then_threads(ctx: ScenarioContext, titles: str) -> None:
    """The subjects' titles in any order (``none`` for no thread): threads updated within the same second have
    no order in Gitea, which keeps whole seconds."""
    found = _titles(_listed(ctx))
    assert sorted(found) == sorted(_expected(titles)), f"the threads are about {found}, expected {_expected(titles)}"


@then(phrase('the thread about "{title}" is {unread:w} and {pinned:w}'))
def then_thread_status(ctx: ScenarioContext, title: str, unread: str, pinned: str) -> None:
    """``unread``/``read`` and ``pinned``/``unpinned``, of the listed threads or the one answered."""
    body = response_json(ctx)
    thread = _thread_about(body if isinstance(body, list) else [body], title)
    assert thread["unread"] is (unread == "unread"), f"unread is {thread['unread']}"
    assert thread["pinned"] is (pinned == "pinned"), f"pinned is {thread['pinned']}"


@then(phrase('the thread about "{title}" is a "{kind}" of issue {index:d} of "{repo}" in the state "{state}"'))
def then_thread_subject(ctx: ScenarioContext, *, title: str, kind: str, index: int, repo: str, state: str) -> None:
    """The subject points at the issue the scenario made, in its repository."""
    body = response_json(ctx)
    thread = _thread_about(body if isinstance(body, list) else [body], title)
    ref = ctx.repo(repo)
    subject = thread["subject"]
    assert subject["type"] == kind and subject["state"] == state, f"the subject is {subject}"
    assert subject["url"].endswith(f"/repos/{ref.owner}/{ref.name}/issues/{index}"), subject["url"]
    page = "pulls" if kind == "Pull" else "issues"
    assert subject["html_url"].endswith(f"/{ref.owner}/{ref.name}/{page}/{index}"), subject["html_url"]
    assert thread["repository"]["full_name"] == f"{ref.owner}/{ref.name}", thread["repository"]["full_name"]
    assert thread["url"].endswith(f"/notifications/threads/{thread['id']}"), thread["url"]


@then(phrase('the thread about "{title}" points at the last comment of issue {index:d} of "{repo}"'))
def then_latest_comment(ctx: ScenarioContext, title: str, index: int, repo: str) -> None:
    thread = _thread_about(_listed(ctx), title)
    ref = ctx.repo(repo)
    comments = expect_status(acting(ctx, ADMIN, IssuesApi).list_comments(ref.owner, ref.name, index), 200, "comments")
    last = comments[-1]
    assert thread["subject"]["latest_comment_url"].endswith(f"/issues/comments/{last['id']}"), thread["subject"]
    assert thread["subject"]["latest_comment_html_url"] == last["html_url"], thread["subject"]


@then(phrase('"{user}" has no notification threads'))
def then_no_threads(ctx: ScenarioContext, user: str) -> None:
    """Asked as the user, read ones included."""
    found = _titles(_threads_of(ctx, user))
    assert found == [], f'"{user}" has threads about {found}'


@then(phrase('"{user}" has an unread notification thread about "{title}"'))
def then_has_thread(ctx: ScenarioContext, user: str, title: str) -> None:
    thread = _thread_about(_threads_of(ctx, user), title)
    assert thread["unread"], f"the thread is read: {thread}"


@then(phrase('the subscribers listed are "{users}"'))
def then_subscribers(ctx: ScenarioContext, users: str) -> None:
    """Short names, in the order listed; ``none`` for nobody."""
    found = [item["login"] for item in _listed(ctx)]
    expected = [user_name(ctx, short) for short in _expected(users)]
    assert found == expected, f"the subscribers are {found}, expected {expected}"


@then(phrase('"{user}" is {state:w} to issue {index:d} of "{repo}"'))
def then_subscription(ctx: ScenarioContext, user: str, state: str, index: int, repo: str) -> None:
    """``subscribed`` or ``unsubscribed``, as the user's own check answers."""
    ref = ctx.repo(repo)
    answer = expect_status(_api(ctx, user).check_subscription(ref.owner, ref.name, index), 200, "check")
    assert answer["subscribed"] is (state == "subscribed"), f"the subscription is {answer}"
    assert answer["ignored"] is (state != "subscribed"), f"the subscription is {answer}"


@then(phrase('the stopwatches listed are on the issues "{titles}" of "{repo}"'))
def then_stopwatches(ctx: ScenarioContext, titles: str, repo: str) -> None:
    ref = ctx.repo(repo)
    listed = _listed(ctx)
    assert [item["issue_title"] for item in listed] == _expected(titles), f"the stopwatches are {listed}"
    for item in listed:
        assert (item["repo_owner_name"], item["repo_name"]) == (ref.owner, ref.name), item
        assert item["seconds"] >= 0 and item["created"], item


@then(phrase('"{user}" has {count:d} running stopwatches'))
def then_stopwatch_count(ctx: ScenarioContext, user: str, count: int) -> None:
    listed = expect_status(_api(ctx, user).stopwatches(), 200, "list the stopwatches")
    assert len(listed) == count, f'"{user}" has the stopwatches {listed}'


@then(phrase('"{user}" has a running stopwatch on the issue "{title}" of "{repo}" only'))
def then_stopwatch_on(ctx: ScenarioContext, user: str, title: str, repo: str) -> None:
    ref = ctx.repo(repo)
    listed = expect_status(_api(ctx, user).stopwatches(), 200, "list the stopwatches")
    found = [(item["repo_owner_name"], item["repo_name"], item["issue_title"]) for item in listed]
    assert found == [(ref.owner, ref.name, title)], f'"{user}" has the stopwatches {listed}'


@then(phrase('issue {index:d} of "{repo}" has {count:d} tracked times of "{user}"'))
def then_tracked(ctx: ScenarioContext, index: int, repo: str, count: int, user: str) -> None:
    """Read as the admin: the entries of ``user`` on the issue."""
    ref = ctx.repo(repo)
    times = expect_status(acting(ctx, ADMIN, TimesApi).issue_times(ref.owner, ref.name, index), 200, "times")
    mine = [item for item in times if item["user_name"] == user_name(ctx, user)]
    assert len(mine) == count, f"the tracked times of issue {index} are {times}"


@then(phrase('the issues found are "{titles}"'))
def then_found(ctx: ScenarioContext, titles: str) -> None:
    """Titles, newest first; ``none`` for nothing."""
    found = [str(item["title"]) for item in _listed(ctx)]
    assert found == _expected(titles), f"the issues found are {found}, expected {_expected(titles)}"

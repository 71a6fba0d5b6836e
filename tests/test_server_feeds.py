"""Activity feeds: actions recorded from repository, push, issue and pull events, and who sees them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from test_server_issues_support import Forge, assert_error, forge_env

from reference_server.context import forge
from reference_server.events import PushEvent
from reference_server.gitcli import ZERO_SHA
from reference_server.repos import models as repos
from reference_server.users import models as users

__all__ = ["forge_env"]

FEEDS = "/api/v1/users/{}/activities/feeds"
REPO_FEED = "/activities/feeds"
TEAM = {"name": "devs", "permission": "read", "units": ["repo.code", "repo.issues"]}


def _ops(feed: Any) -> list[str]:
    return [item["op_type"] for item in feed]


def _user_feed(env: Forge, name: str, who: dict[str, str] | None, **query: str) -> Any:
    response = env.client.get(FEEDS.format(name), headers=who or {}, query_string=query)
    assert response.status_code == 200, response.data
    return response


def test_repository_creation_issue_comment_close_and_reopen_are_recorded(forge_env: Forge) -> None:
    forge_env.issue("Broken build")
    comment = forge_env.ok("POST", "/issues/1/comments", forge_env.bob, 201, json={"body": "Me too"})
    forge_env.ok("PATCH", "/issues/1", forge_env.ann, 201, json={"state": "closed"})
    forge_env.ok("PATCH", "/issues/1", forge_env.ann, 201, json={"state": "open"})
    feed = forge_env.ok("GET", REPO_FEED, None, 200)
    assert _ops(feed) == ["reopen_issue", "close_issue", "comment_issue", "create_issue", "create_repo"]
    reopened, closed, commented, created, repo_created = feed
    assert created["content"] == "1|Broken build"
    assert (commented["content"], commented["comment_id"], commented["act_user"]["login"]) == (
        "1|Me too",
        comment["id"],
        "bob",
    )
    assert commented["comment"]["body"] == "Me too"
    assert closed["content"] == "1|" and reopened["content"] == "1|"
    assert repo_created["act_user"]["login"] == "ann" and repo_created["repo"]["full_name"] == "ann/code"
    assert {item["user_id"] for item in feed} == {repo_created["repo"]["owner"]["id"]}
    assert all(item["is_private"] is False and item["ref_name"] == "" for item in feed)


def test_pushes_record_commits_with_gitea_push_commits_content(forge_env: Forge) -> None:
    first = forge_env.commit("a.txt", "one")
    second = forge_env.commit("a.txt", "two")
    feed = forge_env.ok("GET", REPO_FEED, None, 200)
    assert _ops(feed)[:2] == ["commit_repo", "commit_repo"]
    content = json.loads(feed[0]["content"])
    assert feed[0]["ref_name"] == "refs/heads/main"
    assert content["Len"] == 1 and content["HeadCommit"]["Sha1"] == second
    assert content["Commits"][0]["Sha1"] == second and content["CompareURL"] == ""
    assert json.loads(feed[1]["content"])["HeadCommit"]["Sha1"] == first


def test_branch_and_tag_pushes_and_deletions_are_recorded(app: Flask, forge_env: Forge) -> None:
    head = forge_env.commit("a.txt", "one")
    forge_env.ok("POST", "/branches", forge_env.ann, 201, json={"new_branch_name": "dev", "old_branch_name": "main"})
    forge_env.ok("DELETE", "/branches/dev", forge_env.ann, 204)
    with app.app_context():
        ann = users.get_user_by_name("ann").id
        repo_id = repos.get_repo("ann", "code").id
        forge().events.publish(PushEvent(repo_id, "refs/tags/v1", ZERO_SHA, head, ann))
        forge().events.publish(PushEvent(repo_id, "refs/tags/v1", head, ZERO_SHA, ann))
        forge().events.publish(PushEvent(repo_id, "refs/pull/1/head", ZERO_SHA, head, ann))
    feed = forge_env.ok("GET", REPO_FEED, None, 200)
    assert [(item["op_type"], item["ref_name"], item["content"]) for item in feed[:4]] == [
        ("delete_tag", "refs/tags/v1", ""),
        ("push_tag", "refs/tags/v1", ""),
        ("delete_branch", "refs/heads/dev", ""),
        ("commit_repo", "refs/heads/dev", feed[3]["content"]),
    ]
    new_branch = json.loads(feed[3]["content"])
    assert (new_branch["Len"], new_branch["HeadCommit"]["Sha1"], new_branch["CompareURL"]) == (1, head, "")


def test_pull_request_open_and_merge_are_recorded(forge_env: Forge) -> None:
    forge_env.commit("a.txt", "base")
    forge_env.commit("b.txt", "feature", new_branch="feature")
    forge_env.ok("POST", "/pulls", forge_env.ann, 201, json={"title": "Add b", "head": "feature", "base": "main"})
    forge_env.ok("POST", "/pulls/1/merge", forge_env.ann, 200, json={"Do": "merge"})
    ops = _ops(forge_env.ok("GET", REPO_FEED, None, 200))
    assert ops[:3] == ["commit_repo", "merge_pull_request", "create_pull_request"]
    merged = forge_env.ok("GET", REPO_FEED, None, 200)[1]
    assert merged["content"] == "1|Add b"


def test_user_feed_holds_own_actions_and_actions_in_owned_repositories(forge_env: Forge) -> None:
    assert forge_env.client.post("/api/v1/user/repos", headers=forge_env.bob, json={"name": "own"}).status_code == 201
    forge_env.issue("By bob", who=forge_env.bob)
    ann_feed = _user_feed(forge_env, "ann", None).json
    assert _ops(ann_feed) == ["create_issue", "create_repo"]
    assert {item["user_id"] for item in ann_feed} == {ann_feed[1]["act_user_id"]}
    bob_feed = _user_feed(forge_env, "bob", None).json
    assert _ops(bob_feed) == ["create_issue", "create_repo"]
    assert [item["repo"]["name"] for item in bob_feed] == ["code", "own"]
    only = _user_feed(forge_env, "ann", None, **{"only-performed-by": "true"}).json
    assert _ops(only) == ["create_repo"]


def test_paging_and_total_count(forge_env: Forge) -> None:
    for title in ("one", "two", "three"):
        forge_env.issue(title)
    response = forge_env.call("GET", REPO_FEED, None, query_string={"limit": 2, "page": 2})
    assert response.status_code == 200
    assert response.headers["X-Total-Count"] == "4"
    assert "Link" not in response.headers
    assert [item["content"] for item in response.json] == ["1|one", ""]


def test_date_filters_one_utc_day_and_bad_dates_are_400(forge_env: Forge) -> None:
    forge_env.issue("Today")
    day = forge_env.ok("GET", REPO_FEED, None, 200)[0]["created"][:10]
    assert len(forge_env.ok("GET", REPO_FEED, None, 200, query_string={"date": day})) == 2
    assert forge_env.ok("GET", REPO_FEED, None, 200, query_string={"date": "2001-01-01"}) == []
    for bad in ("yesterday", "2026-13-01", "2026-1-1"):
        assert_error(forge_env.call("GET", REPO_FEED, None, query_string={"date": bad}), 400, "YYYY-MM-DD")
    bad_flag = forge_env.client.get(FEEDS.format("ann"), query_string={"only-performed-by": "maybe"})
    assert_error(bad_flag, 400, "only-performed-by")


def test_private_repository_actions_only_for_those_who_read_them(forge_env: Forge) -> None:
    forge_env.ok("PATCH", "", forge_env.ann, 200, json={"private": True})
    forge_env.issue("Secret")
    assert_error(forge_env.call("GET", REPO_FEED, forge_env.bob), 404)
    assert _user_feed(forge_env, "ann", None).json == []
    assert _user_feed(forge_env, "ann", forge_env.bob).json == []
    own = _user_feed(forge_env, "ann", forge_env.ann).json
    assert _ops(own) == ["create_issue", "create_repo"] and own[0]["is_private"] is True
    assert _ops(_user_feed(forge_env, "ann", forge_env.admin).json) == ["create_issue", "create_repo"]


def test_hidden_activity_is_shown_only_to_the_user(forge_env: Forge) -> None:
    forge_env.issue("Visible?", who=forge_env.bob)
    hide = forge_env.client.patch("/api/v1/user/settings", headers=forge_env.bob, json={"hide_activity": True})
    assert hide.status_code == 200
    assert _user_feed(forge_env, "bob", None).json == []
    assert _ops(_user_feed(forge_env, "bob", forge_env.bob).json) == ["create_issue"]
    assert _ops(forge_env.ok("GET", REPO_FEED, forge_env.ann, 200)) == ["create_repo"]
    assert _ops(forge_env.ok("GET", REPO_FEED, forge_env.bob, 200)) == ["create_issue", "create_repo"]


@pytest.mark.parametrize("path", ["/api/v1/users/nobody/activities/feeds", "/api/v1/repos/ann/none/activities/feeds"])
def test_unknown_owner_or_repository_is_404(forge_env: Forge, path: str) -> None:
    assert_error(forge_env.client.get(path), 404)


def test_rename_is_recorded_and_deletion_drops_the_repository_actions(forge_env: Forge) -> None:
    forge_env.ok("PATCH", "", forge_env.ann, 200, json={"name": "renamed"})
    feed: Any = forge_env.client.get("/api/v1/repos/ann/renamed/activities/feeds").json
    assert (feed[0]["op_type"], feed[0]["content"]) == ("rename_repo", "code")
    assert forge_env.client.delete("/api/v1/repos/ann/renamed", headers=forge_env.ann).status_code == 204
    assert _user_feed(forge_env, "ann", forge_env.ann).json == []


def test_org_and_team_feeds(forge_env: Forge) -> None:
    client, ann, bob = forge_env.client, forge_env.ann, forge_env.bob
    assert client.post("/api/v1/orgs", headers=ann, json={"username": "acme"}).status_code == 201
    assert client.post("/api/v1/orgs/acme/repos", headers=ann, json={"name": "open"}).status_code == 201
    created = client.post("/api/v1/orgs/acme/repos", headers=ann, json={"name": "closed", "private": True})
    assert created.status_code == 201
    public = client.get("/api/v1/orgs/acme/activities/feeds")
    assert [item["repo"]["name"] for item in public.json or []] == ["open"]
    assert public.headers["X-Total-Count"] == "1"
    member: Any = client.get("/api/v1/orgs/acme/activities/feeds", headers=ann).json
    assert [item["repo"]["name"] for item in member] == ["closed", "open"]
    assert {item["user_id"] for item in member} == {member[0]["repo"]["owner"]["id"]}
    team: Any = client.post("/api/v1/orgs/acme/teams", headers=ann, json=TEAM).json
    assert client.put(f"/api/v1/teams/{team['id']}/repos/acme/open", headers=ann).status_code == 204
    assert _ops(client.get(f"/api/v1/teams/{team['id']}/activities/feeds", headers=ann).json) == ["create_repo"]
    assert_error(client.get(f"/api/v1/teams/{team['id']}/activities/feeds"), 401)
    assert_error(client.get(f"/api/v1/teams/{team['id']}/activities/feeds", headers=bob), 404)

"""The cleanup ledger: dependency order, already-gone things, and leaks recorded instead of raised."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
import requests

from conformance.api import ForgeApi
from conformance.api.packages import PackagesApi
from conformance.client import HttpClient
from conformance.ledger import CleanupLedger, Leak


def _answer(status: int, text: str = "") -> requests.Response:
    response = requests.Response()
    response.status_code = status
    response._content = text.encode()
    return response


@dataclass
class FakeAdmin:
    """Records delete calls in order; answers from a table (default 204), or raises for a name."""

    answers: dict[str, int] = field(default_factory=dict)
    unreachable: set[str] = field(default_factory=set)
    calls: list[str] = field(default_factory=list)

    def _delete(self, what: str) -> requests.Response:
        self.calls.append(what)
        if what in self.unreachable:
            raise requests.ConnectionError("connection refused")
        return _answer(self.answers.get(what, 204), "nope")


class FakeRepos:
    def __init__(self, admin: FakeAdmin) -> None:
        self.admin = admin

    def delete(self, owner: str, name: str) -> requests.Response:
        return self.admin._delete(f"repository {owner}/{name}")


class FakeOrgs:
    def __init__(self, admin: FakeAdmin) -> None:
        self.admin = admin

    def delete(self, name: str) -> requests.Response:
        return self.admin._delete(f"organization {name}")


class FakeUsers:
    def __init__(self, admin: FakeAdmin) -> None:
        self.admin = admin

    def admin_delete(self, username: str, *, purge: bool = True) -> requests.Response:
        assert purge, "users are deleted with purge"
        return self.admin._delete(f"user {username}")


def _ledger(fake: FakeAdmin) -> CleanupLedger:
    api = ForgeApi(HttpClient("http://forge.test/api/v1/"), "http://forge.test/")
    api.repos = FakeRepos(fake)  # type: ignore[assignment]
    api.orgs = FakeOrgs(fake)  # type: ignore[assignment]
    api.users = FakeUsers(fake)  # type: ignore[assignment]
    return CleanupLedger(api)


def test_repositories_then_organizations_then_users_newest_first() -> None:
    fake = FakeAdmin()
    ledger = _ledger(fake)
    ledger.record_user("u1")
    ledger.record_org("o1")
    ledger.record_repo("u1", "r1")
    ledger.record_user("u2")
    ledger.record_repo("o1", "r2")
    ledger.record_repo("u1", "r1")
    assert ledger.cleanup() == []
    assert fake.calls == [
        "repository o1/r2",
        "organization o1",
        "user u2",
        "user u1",
    ], "u1/r1 goes with u1's purge"
    assert ledger.entries == []


def test_a_users_repository_goes_with_its_purge_only_when_the_user_goes_in_the_same_pass() -> None:
    fake = FakeAdmin()
    ledger = _ledger(fake)
    ledger.record_repo("someone", "kept-owner")
    ledger.record_user("leaving")
    ledger.record_repo("leaving", "mine")
    assert ledger.cleanup_scenario() == []
    assert fake.calls == ["repository someone/kept-owner", "user leaving"]


def test_already_gone_is_not_a_leak_but_a_refusal_or_an_outage_is() -> None:
    fake = FakeAdmin(answers={"repository u/gone": 404, "organization busy": 422}, unreachable={"user down"})
    ledger = _ledger(fake)
    ledger.record_repo("u", "gone")
    ledger.record_org("busy")
    ledger.record_user("down")
    ledger.record_user("fine")
    leaks = ledger.cleanup()
    assert leaks == [
        Leak("organization", "busy", "delete answered 422: nope"),
        Leak("user", "down", "request failed: connection refused"),
    ]
    assert ledger.leaks == leaks
    assert "user fine" in fake.calls, "one failure does not stop the cleanup"
    assert leaks[0].as_dict() == {"kind": "organization", "name": "busy", "reason": "delete answered 422: nope"}


def test_a_scenario_cleanup_deletes_only_what_was_recorded_since_the_last_one() -> None:
    fake = FakeAdmin()
    ledger = _ledger(fake)
    ledger.record_user("first")
    assert ledger.cleanup_scenario() == []
    ledger.record_user("second")
    ledger.record_repo("second", "r")
    assert ledger.cleanup_scenario() == []
    assert fake.calls == ["user first", "user second"]
    assert ledger.entries == [] and ledger.deferred == []


def test_what_a_scenario_cleanup_could_not_delete_is_retried_by_the_sweep_and_then_a_leak() -> None:
    fake = FakeAdmin(answers={"organization busy": 409, "user stuck": 500})
    ledger = _ledger(fake)
    ledger.record_org("busy")
    ledger.record_user("stuck")
    failures = ledger.cleanup_scenario()
    assert [(leak.kind, leak.name) for leak in failures] == [("organization", "busy"), ("user", "stuck")]
    assert ledger.leaks == [], "not a leak yet: the sweep tries again"
    ledger.record_user("next")
    assert ledger.cleanup_scenario() == []
    assert fake.calls[-1] == "user next", "a deferred entry is not retried after every scenario"
    fake.answers = {"user stuck": 500}
    leaks = ledger.cleanup()
    assert fake.calls[-2:] == ["organization busy", "user stuck"]
    assert [(leak.kind, leak.name) for leak in leaks] == [("user", "stuck")]
    assert ledger.leaks == leaks and ledger.deferred == [] and ledger.entries == []


def test_packages_go_before_the_organizations_that_own_them(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeAdmin()

    def delete_package(_api: PackagesApi, owner: str, package_type: str, name: str) -> requests.Response:
        return fake._delete(f"package {owner}/{package_type}/{name}")

    monkeypatch.setattr(PackagesApi, "delete_package", delete_package)
    ledger = _ledger(fake)
    ledger.record_org("o1")
    ledger.record_package("o1", "generic", "tool")
    ledger.record_repo("o1", "r1")
    assert ledger.cleanup() == []
    assert fake.calls == ["package o1/generic/tool", "repository o1/r1", "organization o1"]

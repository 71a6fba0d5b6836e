"""``conformance janitor``: remove what a crashed run left on a live forge, found by the run's name prefix.

Every user, organization and repository a run creates is named ``<run id>-<n>-<short>``, the run id
being ``ck`` and six base-36 characters (printed at the start of every run, and in results.json as
``run_prefix``). The janitor finds, through the admin token, every user and organization whose name
carries the prefix asked for (``--run-id``), or any kit prefix whose oldest user or repository is older
than ``--all-older-than`` hours, and deletes them with basic operations in dependency order:
repositories of each organization, then the organizations, then the users with ``purge`` (which takes
their repositories, tokens and memberships with them).

It is a dry run unless ``--delete`` is given: on a shared forge a person should see the list before
anything goes. Exit status: 0 done (or listed), 1 something could not be deleted, 4 bad usage or an
unusable target.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import requests

from .api.base import ApiArea, quote_path
from .client import HttpClient, Recorder, TokenAuth, json_of
from .target import TargetError, api_url_of, resolve_settings

__all__ = ["KIT_NAME", "RUN_ID", "Janitor", "Leftover", "build_parser", "main"]

RUN_ID = re.compile(r"^ck[0-9a-z]{6}$")
KIT_NAME = re.compile(r"^(ck[0-9a-z]{6})-\d+-")
PAGE_LIMIT = 50
GONE = frozenset({200, 202, 204, 404})
UNUSABLE_EXIT = 4


class JanitorApi(ApiArea):
    """The admin listings and deletions the janitor needs (all in Gitea 1.27's API)."""

    def search_users(self, keyword: str, page: int) -> requests.Response:
        """``GET /admin/users?q=`` (users whose name contains the keyword)."""
        return self.http.get("admin/users", params={"q": keyword, "page": page, "limit": PAGE_LIMIT})

    def all_orgs(self, page: int) -> requests.Response:
        """``GET /admin/orgs``."""
        return self.http.get("admin/orgs", params={"page": page, "limit": PAGE_LIMIT})

    def org_repos(self, org: str, page: int) -> requests.Response:
        """``GET /orgs/{org}/repos``."""
        return self.http.get(f"orgs/{quote_path(org)}/repos", params={"page": page, "limit": PAGE_LIMIT})

    def delete_repo(self, owner: str, name: str) -> requests.Response:
        """``DELETE /repos/{owner}/{repo}``."""
        return self.http.delete(f"repos/{quote_path(owner)}/{quote_path(name)}")

    def delete_org(self, org: str) -> requests.Response:
        """``DELETE /orgs/{org}``."""
        return self.http.delete(f"orgs/{quote_path(org)}")

    def delete_user(self, username: str) -> requests.Response:
        """``DELETE /admin/users/{username}?purge=true``."""
        return self.http.delete(f"admin/users/{quote_path(username)}", params={"purge": "true"})


@dataclass(frozen=True)
class Leftover:
    """A thing a run left: ``kind`` user, organization or repository; ``name`` is ``owner/repo`` for a repository."""

    kind: str
    name: str
    prefix: str
    created: datetime | None = None


class JanitorError(RuntimeError):
    """The forge refused a listing: the janitor cannot know what to delete."""


def _created(value: Any) -> datetime | None:
    if not isinstance(value, str) or not value or value.startswith("0001-"):
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


class Janitor:
    """Finds a run's leftovers by name and deletes them in dependency order."""

    def __init__(self, api: JanitorApi) -> None:
        self.api = api

    def _pages(self, fetch: Any, what: str) -> Iterator[dict[str, Any]]:
        page = 1
        while True:
            response: requests.Response = fetch(page)
            if response.status_code != 200:
                raise JanitorError(f"listing {what} answered {response.status_code}: {response.text[:200]}")
            body = json_of(response)
            items = body if isinstance(body, list) else []
            yield from (item for item in items if isinstance(item, dict))
            if len(items) < PAGE_LIMIT:
                return
            page += 1

    def find(self, *, run_id: str | None = None, older_than: timedelta | None = None) -> list[Leftover]:
        """The leftovers of ``run_id``, or of every kit prefix older than ``older_than``; in deletion order."""
        keyword = f"{run_id}-" if run_id else "ck"
        users = [
            Leftover("user", str(user["login"]), match.group(1), _created(user.get("created")))
            for user in self._pages(lambda page: self.api.search_users(keyword, page), "users")
            if (match := KIT_NAME.match(str(user.get("login", ""))))
        ]
        orgs = [
            Leftover("organization", str(org["username"]), match.group(1))
            for org in self._pages(self.api.all_orgs, "organizations")
            if (match := KIT_NAME.match(str(org.get("username") or org.get("name") or "")))
        ]
        if run_id:
            users = [user for user in users if user.prefix == run_id]
            orgs = [org for org in orgs if org.prefix == run_id]
        repos = [
            Leftover("repository", str(repo["full_name"]), org.prefix, _created(repo.get("created_at")))
            for org in orgs
            for repo in self._pages(lambda page, org=org: self.api.org_repos(org.name, page), f"{org.name}'s repos")
        ]
        found = repos + orgs + users
        if older_than is not None:
            old = _old_prefixes(found, datetime.now(UTC) - older_than)
            found = [leftover for leftover in found if leftover.prefix in old]
        return found

    def delete(self, leftovers: Sequence[Leftover]) -> list[tuple[Leftover, str]]:
        """Delete in the given order; the ones that failed, with the reason."""
        failures: list[tuple[Leftover, str]] = []
        for leftover in leftovers:
            try:
                response = self._delete(leftover)
            except requests.RequestException as error:
                failures.append((leftover, f"request failed: {error}"))
                continue
            if response.status_code not in GONE:
                failures.append((leftover, f"delete answered {response.status_code}: {response.text[:200]}"))
        return failures

    def _delete(self, leftover: Leftover) -> requests.Response:
        if leftover.kind == "repository":
            owner, _, name = leftover.name.partition("/")
            return self.api.delete_repo(owner, name)
        if leftover.kind == "organization":
            return self.api.delete_org(leftover.name)
        return self.api.delete_user(leftover.name)


def _old_prefixes(found: Sequence[Leftover], cutoff: datetime) -> set[str]:
    """Prefixes with a user or repository created before ``cutoff`` (organizations carry no creation time)."""
    return {leftover.prefix for leftover in found if leftover.created is not None and leftover.created < cutoff}


def build_parser() -> argparse.ArgumentParser:
    """The subcommand's options."""
    parser = argparse.ArgumentParser(
        prog="conformance janitor",
        description="Find (and with --delete, remove) the users, organizations and repositories a run left on a forge.",
    )
    parser.add_argument("--target", metavar="URL", help="base URL of the forge (env CONFORMANCE_TARGET)")
    parser.add_argument("--token", metavar="TOKEN", help="a site administrator's token (env CONFORMANCE_TOKEN)")
    parser.add_argument("--target-config", metavar="FILE", help="YAML file with the keys target and token")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "--run-id", metavar="ID", help="the run's prefix (ck and six characters; results.json run_prefix)"
    )
    which.add_argument(
        "--all-older-than",
        metavar="HOURS",
        type=float,
        help="every kit prefix with a user or repository created more than HOURS ago",
    )
    parser.add_argument("--delete", action="store_true", help="delete what was found (default: only list it)")
    return parser


def main(argv: Sequence[str]) -> int:
    """List, and with ``--delete`` remove, a run's leftovers; the exit status says how it went."""
    parser = build_parser()
    options = parser.parse_args(list(argv))
    if options.run_id is not None and not RUN_ID.match(options.run_id):
        parser.error(f"--run-id must be ck and six base-36 characters, got {options.run_id!r}")
    if options.all_older_than is not None and options.all_older_than < 0:
        parser.error("--all-older-than must not be negative")
    try:
        config = Path(options.target_config) if options.target_config else None
        settings = resolve_settings(options.target, options.token, config)
    except TargetError as error:
        print(f"conformance janitor: {error}", file=sys.stderr)
        return UNUSABLE_EXIT
    if settings.url is None or settings.token is None:
        print("conformance janitor: a live target is needed: --target URL --token TOKEN", file=sys.stderr)
        return UNUSABLE_EXIT
    http = HttpClient(api_url_of(settings.url), TokenAuth(settings.token), recorder=Recorder(), timeout=30)
    try:
        return _run(Janitor(JanitorApi(http, settings.url)), options)
    finally:
        http.close()


def _run(janitor: Janitor, options: argparse.Namespace) -> int:
    older = timedelta(hours=options.all_older_than) if options.all_older_than is not None else None
    try:
        found = janitor.find(run_id=options.run_id, older_than=older)
    except (JanitorError, requests.RequestException) as error:
        print(f"conformance janitor: {error}", file=sys.stderr)
        return UNUSABLE_EXIT
    for leftover in found:
        print(f"{leftover.kind:<12} {leftover.name}")
    if not options.delete:
        print(f"{len(found)} thing(s) found; nothing deleted (dry run: add --delete to remove them)")
        return 0
    failures = janitor.delete(found)
    for leftover, reason in failures:
        print(f"could not delete {leftover.kind} {leftover.name}: {reason}", file=sys.stderr)
    print(f"{len(found) - len(failures)} of {len(found)} deleted")
    return 1 if failures else 0

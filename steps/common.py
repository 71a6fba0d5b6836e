"""The shared vocabulary of every area: identities, repositories, generic requests, status, body and header checks.

Names in Gherkin are short ("alice", "alice/demo", "acme"); steps map them to the real prefixed
names. In paths and expected values, ``{alice}`` stands for the real name of the user or
organization "alice" and ``{alice/demo}`` for the real ``owner/name`` of a repository.
Negative checks have one shape: ``Then the request is refused with status 403`` asserts the status
and validates the body against the error schema; ``And the error message mentions "..."`` narrows it.
The helpers every area shares live here too: placeholders, JSON bodies, the status check of set-up
requests, and :class:`FileNotes` (the files Given steps committed).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import pytest
import requests
from pytest_bdd import given, then, when

from conformance.client import HttpClient, json_of
from conformance.context import ScenarioContext
from conformance.identities import IdentityFactory
from conformance.schemas import validate
from steps.actors import ADMIN, ANONYMOUS, acting_http, repo_owner
from steps.parsing import phrase

__all__ = [
    "FileNotes",
    "comma_list",
    "expand",
    "expect_status",
    "field_value",
    "json_document",
    "json_option",
    "parse_scopes",
    "response_json",
    "same_instant",
    "send_with",
    "user_name",
]

PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_.\-]+(?:/[A-Za-z0-9_.\-]+)?)\}")


def expand(ctx: ScenarioContext, text: str) -> str:
    """Replace ``{short}`` and ``{owner/repo}`` placeholders by the real names of the scenario."""

    def real(match: re.Match[str]) -> str:
        short = match.group(1)
        if "/" in short:
            return ctx.repo(short).full_name
        return ctx.owner_name(short)

    return PLACEHOLDER.sub(real, text)


def comma_list(text: str) -> list[str]:
    """``"a, b ,c"`` -> ``["a", "b", "c"]`` (empty items dropped): how features list names."""
    return [item.strip() for item in text.split(",") if item.strip()]


def parse_scopes(text: str) -> list[str]:
    """``"read:user, write:repository"`` -> ``["read:user", "write:repository"]``."""
    return comma_list(text)


def user_name(ctx: ScenarioContext, short: str) -> str:
    """A scenario user's real name, or a unique name nobody has for a short name the scenario never created."""
    return ctx.users[short].username if short in ctx.users else ctx.real_name(short)


def response_json(ctx: ScenarioContext) -> Any:
    """The last response's JSON body."""
    return json_of(ctx.last_response())


def field_value(document: Any, path: str) -> Any:
    """The value at a dotted path (``owner.login``, ``0.name``); an assertion names a missing step."""
    value = document
    walked: list[str] = []
    for part in path.split("."):
        walked.append(part)
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            raise AssertionError(f'the response has no field "{".".join(walked)}": {json.dumps(document)[:500]}')
    return value


def expect_status(response: requests.Response, status: int | tuple[int, ...], what: str) -> Any:
    """The JSON body (None when empty) of a request a step needs to succeed; an error naming ``what`` otherwise."""
    wanted = (status,) if isinstance(status, int) else status
    if response.status_code not in wanted:
        expected = " or ".join(str(code) for code in wanted)
        raise AssertionError(f"{what}: expected {expected}, got {response.status_code} {response.text[:300]}")
    return json_of(response) if response.content else None


def json_document(text: str) -> Any:
    """A step's docstring as JSON, exactly as written; an error that says so when it is not JSON."""
    try:
        return json.loads(text)
    except ValueError as error:
        raise AssertionError(f"the step's body is not valid JSON: {error}") from None


def same_instant(first: str, second: str) -> bool:
    """Whether two RFC 3339 times name the same instant, whatever offsets they are written with."""
    return bool(
        datetime.fromisoformat(first.replace("Z", "+00:00")) == datetime.fromisoformat(second.replace("Z", "+00:00"))
    )


def json_option(ctx: ScenarioContext, docstring: str) -> dict[str, Any]:
    """A docstring's JSON object with the scenario's placeholders expanded."""
    option = json_document(expand(ctx, docstring))
    assert isinstance(option, dict), "the body must be a JSON object"
    return option


@dataclass
class FileNotes:
    """The files Given steps committed through the contents API, with the answer each got (content, commit)."""

    answers: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)

    def note(self, repo: str, path: str, answer: dict[str, Any]) -> None:
        """Keep the contents API's answer for ``path`` of the repository (short name)."""
        self.answers[repo, path] = answer

    def get(self, repo: str, path: str) -> dict[str, Any] | None:
        """The answer a commit of ``path`` got, if the scenario made one."""
        return self.answers.get((repo, path))

    def answer(self, repo: str, path: str) -> dict[str, Any]:
        """The answer a Given step's commit of ``path`` got; an error naming the missing step."""
        found = self.get(repo, path)
        assert found is not None, f'the scenario did not add "{path}" to "{repo}" in a Given step'
        return found

    def last_commit(self, repo: str) -> str | None:
        """The commit of the last file noted for ``repo`` (the head the Given steps left)."""
        commits = [answer["commit"]["sha"] for (known, _path), answer in self.answers.items() if known == repo]
        return str(commits[-1]) if commits else None

    def last_of_path(self, path: str) -> dict[str, Any] | None:
        """The answer of the last commit of ``path`` in any repository of the scenario."""
        found = [answer for (_repo, known), answer in self.answers.items() if known == path]
        return found[-1] if found else None


@pytest.fixture
def file_notes() -> FileNotes:
    """The scenario's committed files."""
    return FileNotes()


# ---------------------------------------------------------------- Given: identities and repositories


@given(phrase('a user "{short}"'))
def given_user(identities: IdentityFactory, short: str) -> None:
    """A user with a token of every scope."""
    identities.user(short)


@given(phrase('a user "{short}" with a token scoped "{scopes}"'))
def given_user_with_scopes(identities: IdentityFactory, short: str, scopes: str) -> None:
    """A user whose token carries exactly the listed scopes (comma separated)."""
    identities.user(short, parse_scopes(scopes))


@given(phrase('an organization "{short}" owned by "{owner}"'))
def given_org(identities: IdentityFactory, short: str, owner: str) -> None:
    """An organization created by the user ``owner`` (who then acts as its owner: ``steps.actors.org_owner``)."""
    identities.org(short, owner)


@given(phrase('a repository "{short}"'))
def given_repository(identities: IdentityFactory, short: str) -> None:
    """A repository with an initial commit, created by its owner."""
    identities.repo(short)


@given(phrase('an empty repository "{short}"'))
def given_empty_repository(identities: IdentityFactory, short: str) -> None:
    """A repository without any commit."""
    identities.repo(short, auto_init=False)


@given(phrase('a private repository "{short}"'))
def given_private_repository(identities: IdentityFactory, short: str) -> None:
    """A private repository with an initial commit, created by its owner."""
    identities.repo(short, private=True)


@given(phrase('the repository "{short}" has the file "{path}" with content "{content}"'))
def given_file(identities: IdentityFactory, file_notes: FileNotes, short: str, path: str, content: str) -> None:
    """A file committed through the contents API by the repository's owner."""
    commit_file(identities, file_notes, short, path, content)


@given(phrase('the repository "{short}" has the file "{path}" with the content'))
def given_file_docstring(
    identities: IdentityFactory, file_notes: FileNotes, short: str, path: str, docstring: str
) -> None:
    """A multi-line file committed through the contents API."""
    commit_file(identities, file_notes, short, path, docstring + "\n")


def commit_file(identities: IdentityFactory, file_notes: FileNotes, short: str, path: str, content: str) -> None:
    """Commit ``path`` to the default branch as the repository's owner and note the answer."""
    repo = identities.repo(short)
    response = repo_owner(identities.ctx, short).contents.create(
        repo.owner, repo.name, path, content, message=f"add {path}"
    )
    file_notes.note(short, path, expect_status(response, 201, f'add "{path}" to "{short}"'))


# ---------------------------------------------------------------- When: generic requests


def send_with(ctx: ScenarioContext, http: HttpClient, method: str, path: str, body: str | None = None) -> None:
    """One request of a step with any credentials: placeholders expanded in the path and the JSON body."""
    payload = None if body is None else json_document(expand(ctx, body))
    ctx.response = http.request(method, expand(ctx, path).lstrip("/"), json=payload)


@when(phrase('"{who}" sends {method:w} "{path}"'))
def when_user_sends(ctx: ScenarioContext, who: str, method: str, path: str) -> None:
    """A request by a scenario user (or "the admin", "an anonymous client") to a path under the API root."""
    send_with(ctx, acting_http(ctx, who), method, path)


@when(phrase('"{who}" sends {method:w} "{path}" with the body'))
def when_user_sends_body(ctx: ScenarioContext, who: str, method: str, path: str, docstring: str) -> None:
    """A request with a JSON body (placeholders expanded)."""
    send_with(ctx, acting_http(ctx, who), method, path, docstring)


@when(phrase('the admin sends {method:w} "{path}"'))
def when_admin_sends(ctx: ScenarioContext, method: str, path: str) -> None:
    """A request with the admin token."""
    send_with(ctx, acting_http(ctx, ADMIN), method, path)


@when(phrase('the admin sends {method:w} "{path}" with the body'))
def when_admin_sends_body(ctx: ScenarioContext, method: str, path: str, docstring: str) -> None:
    """A request with the admin token and a JSON body."""
    send_with(ctx, acting_http(ctx, ADMIN), method, path, docstring)


@when(phrase('an anonymous client sends {method:w} "{path}"'))
def when_anonymous_sends(ctx: ScenarioContext, method: str, path: str) -> None:
    """A request without credentials."""
    send_with(ctx, acting_http(ctx, ANONYMOUS), method, path)


# ---------------------------------------------------------------- Then: status, errors, schema, fields, headers


@then(phrase("the response status is {status:d}"))
def then_status(ctx: ScenarioContext, status: int) -> None:
    """The last response has exactly this status."""
    response = ctx.last_response()
    assert response.status_code == status, (
        f"expected status {status}, got {response.status_code}: {response.text[:500]}"
    )


@then(phrase("the request is refused with status {status:d}"))
def then_refused(ctx: ScenarioContext, status: int) -> None:
    """The one shape of a negative check: the status, then the error body against its schema."""
    then_status(ctx, status)
    validate(response_json(ctx), "error")


@then(phrase('the error message mentions "{text}"'))
def then_error_mentions(ctx: ScenarioContext, text: str) -> None:
    """The error body's message contains the text (case-insensitive)."""
    body = response_json(ctx)
    validate(body, "error")
    message = str(body["message"])
    assert text.lower() in message.lower(), f'the error message {message!r} does not mention "{text}"'


@then(phrase('the response matches the schema "{schema}"'))
def then_schema(ctx: ScenarioContext, schema: str) -> None:
    """The body is valid against ``schemas/<schema>.json``: for documents the contract check leaves alone (the
    API description, LFS, a success status the operation does not declare); it validates the rest itself."""
    response = ctx.last_response()
    contract = ctx.admin.http.recorder.contract
    if contract is not None:
        checked = contract.covers(
            response.request.method or "", response.url, response.status_code, response.headers.get("Content-Type", "")
        )
        assert not checked, f'the contract check validates this answer against "{checked}" already: drop the step'
    validate(response_json(ctx), schema)


@then(phrase('the response field "{path}" is "{expected}"'))
def then_field_is_text(ctx: ScenarioContext, path: str, expected: str) -> None:
    """A string field equals the text (placeholders expanded)."""
    actual = field_value(response_json(ctx), path)
    wanted = expand(ctx, expected)
    assert actual == wanted, f'"{path}" is {actual!r}, expected {wanted!r}'


@then(phrase('the response field "{path}" is {expected:d}'))
def then_field_is_number(ctx: ScenarioContext, path: str, expected: int) -> None:
    """An integer field equals the number."""
    actual = field_value(response_json(ctx), path)
    assert actual == expected and not isinstance(actual, bool), f'"{path}" is {actual!r}, expected {expected}'


@then(phrase('the response field "{path}" is {expected:JsonLiteral}'))
def then_field_is_literal(ctx: ScenarioContext, path: str, expected: str) -> None:
    """A field is ``true``, ``false`` or ``null``."""
    literals: dict[str, Any] = {"true": True, "false": False, "null": None}
    actual = field_value(response_json(ctx), path)
    assert actual is literals[expected], f'"{path}" is {actual!r}, expected {expected}'


@then(phrase('the response field "{path}" is the name of "{short}"'))
def then_field_is_name_of(ctx: ScenarioContext, path: str, short: str) -> None:
    """A field holds the real name of a scenario user or organization."""
    actual = field_value(response_json(ctx), path)
    assert actual == ctx.owner_name(short), f'"{path}" is {actual!r}, expected the name of "{short}"'


@then(phrase('the response field "{path}" lists "{item}"'))
def then_field_lists(ctx: ScenarioContext, path: str, item: str) -> None:
    """An array field contains the text."""
    actual = field_value(response_json(ctx), path)
    assert isinstance(actual, list), f'"{path}" is not an array: {actual!r}'
    assert expand(ctx, item) in actual, f'"{path}" is {actual!r}, which does not list "{item}"'


@then(phrase('the response field "{path}" is the time "{moment}"'))
def then_field_time(ctx: ScenarioContext, path: str, moment: str) -> None:
    """The same instant, whatever the offset it is written with (``Z`` or ``+00:00``)."""
    value = field_value(response_json(ctx), path)
    assert isinstance(value, str), f'"{path}" is {value!r}, not a time'
    assert same_instant(value, moment), f'"{path}" is {value}, expected {moment}'


@then(phrase('the response field "{path}" is a non-empty text'))
def then_field_non_empty(ctx: ScenarioContext, path: str) -> None:
    """A field is a string with at least one character."""
    actual = field_value(response_json(ctx), path)
    assert isinstance(actual, str) and actual, f'"{path}" is {actual!r}, expected a non-empty text'


@then(phrase("the response is a list of {count:d} items"))
def then_list_count(ctx: ScenarioContext, count: int) -> None:
    """The body is an array of exactly this length."""
    body = response_json(ctx)
    assert isinstance(body, list), f"expected an array, got {type(body).__name__}: {json.dumps(body)[:300]}"
    assert len(body) == count, f"expected {count} items, got {len(body)}"


@then(phrase('the response header "{name}" is "{value}"'))
def then_header_is(ctx: ScenarioContext, name: str, value: str) -> None:
    """A header has exactly this value."""
    actual = ctx.last_response().headers.get(name)
    assert actual == value, f'header "{name}" is {actual!r}, expected {value!r}'


@then(phrase('the response has the header "{name}"'))
def then_has_header(ctx: ScenarioContext, name: str) -> None:
    """A header is present and not empty."""
    actual = ctx.last_response().headers.get(name)
    assert actual, f'the response has no header "{name}"; headers: {dict(ctx.last_response().headers)}'


@then(phrase('the response has no header "{name}"'))
def then_lacks_header(ctx: ScenarioContext, name: str) -> None:
    """A header is absent."""
    actual = ctx.last_response().headers.get(name)
    assert actual is None, f'the response has the header "{name}": {actual!r}'

"""The shared vocabulary of every area: identities, repositories, generic requests, status, body and header checks.

Names in Gherkin are short ("alice", "alice/demo", "acme"); steps map them to the real prefixed
names. In paths and expected values, ``{alice}`` stands for the real name of the user or
organization "alice" and ``{alice/demo}`` for the real ``owner/name`` of a repository.
Negative checks have one shape: ``Then the request is refused with status 403`` asserts the status
and validates the body against the error schema; ``And the error message mentions "..."`` narrows it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pytest_bdd import given, then, when

from conformance.client import HttpClient, json_of
from conformance.context import Identity, ScenarioContext
from conformance.identities import IdentityFactory
from conformance.schemas import validate
from steps.parsing import phrase

__all__ = ["expand", "field_value", "org_owner", "parse_scopes", "response_json", "send_with"]

PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_.\-]+(?:/[A-Za-z0-9_.\-]+)?)\}")


def expand(ctx: ScenarioContext, text: str) -> str:
    """Replace ``{short}`` and ``{owner/repo}`` placeholders by the real names of the scenario."""

    def real(match: re.Match[str]) -> str:
        short = match.group(1)
        if "/" in short:
            return ctx.repo(short).full_name
        return ctx.owner_name(short)

    return PLACEHOLDER.sub(real, text)


def parse_scopes(text: str) -> list[str]:
    """``"read:user, write:repository"`` -> ``["read:user", "write:repository"]``."""
    return [scope.strip() for scope in text.split(",") if scope.strip()]


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
    """An organization created by the user ``owner``."""
    identities.org(short, owner)
    identities.ctx.values[f"org owner:{short}"] = owner


def org_owner(ctx: ScenarioContext, short: str) -> Identity:
    """The scenario user who created (and so owns) the organization ``short``."""
    owner = ctx.values.get(f"org owner:{short}")
    assert isinstance(owner, str), f'no owner known for "{short}": add `Given an organization "{short}" owned by ...`'
    return ctx.user(owner)


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
def given_file(ctx: ScenarioContext, identities: IdentityFactory, short: str, path: str, content: str) -> None:
    """A file committed through the contents API by the repository's owner (or the admin for an org)."""
    _commit_file(ctx, identities, short, path, content)


@given(phrase('the repository "{short}" has the file "{path}" with the content'))
def given_file_docstring(
    ctx: ScenarioContext, identities: IdentityFactory, short: str, path: str, docstring: str
) -> None:
    """A multi-line file committed through the contents API."""
    _commit_file(ctx, identities, short, path, docstring + "\n")


def _commit_file(ctx: ScenarioContext, identities: IdentityFactory, short: str, path: str, content: str) -> None:
    repo = identities.repo(short)
    owner_short = short.split("/", 1)[0]
    api = ctx.users[owner_short].api if owner_short in ctx.users else ctx.admin
    response = api.contents.create(repo.owner, repo.name, path, content, message=f"add {path}")
    if response.status_code != 201:
        raise AssertionError(f'could not add "{path}" to "{short}": {response.status_code} {response.text[:300]}')
    ctx.remember(f"file:{short}:{path}", json_of(response))


# ---------------------------------------------------------------- When: generic requests


def _send(ctx: ScenarioContext, who: str, method: str, path: str, body: str | None) -> None:
    if who == "the admin":
        http = ctx.admin.http
    elif who == "an anonymous client":
        http = ctx.admin.http.with_auth(None)
    else:
        http = ctx.user(who).http
    send_with(ctx, http, method, path, body)


def send_with(ctx: ScenarioContext, http: HttpClient, method: str, path: str, body: str | None = None) -> None:
    """One request of a step with any credentials: placeholders expanded in the path and the JSON body."""
    payload = None
    if body is not None:
        try:
            payload = json.loads(expand(ctx, body))
        except ValueError as error:
            raise AssertionError(f"the step's body is not valid JSON: {error}") from None
    ctx.response = http.request(method, expand(ctx, path).lstrip("/"), json=payload)


@when(phrase('"{who}" sends {method:w} "{path}"'))
def when_user_sends(ctx: ScenarioContext, who: str, method: str, path: str) -> None:
    """A request by a scenario user to a path under the API root."""
    _send(ctx, who, method, path, None)


@when(phrase('"{who}" sends {method:w} "{path}" with the body'))
def when_user_sends_body(ctx: ScenarioContext, who: str, method: str, path: str, docstring: str) -> None:
    """A request with a JSON body (placeholders expanded)."""
    _send(ctx, who, method, path, docstring)


@when(phrase('the admin sends {method:w} "{path}"'))
def when_admin_sends(ctx: ScenarioContext, method: str, path: str) -> None:
    """A request with the admin token."""
    _send(ctx, "the admin", method, path, None)


@when(phrase('the admin sends {method:w} "{path}" with the body'))
def when_admin_sends_body(ctx: ScenarioContext, method: str, path: str, docstring: str) -> None:
    """A request with the admin token and a JSON body."""
    _send(ctx, "the admin", method, path, docstring)


@when(phrase('an anonymous client sends {method:w} "{path}"'))
def when_anonymous_sends(ctx: ScenarioContext, method: str, path: str) -> None:
    """A request without credentials."""
    _send(ctx, "an anonymous client", method, path, None)


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
    """The body is valid against ``schemas/<schema>.json``."""
    validate(response_json(ctx), schema)


@then(phrase('every item of the response matches the schema "{schema}"'))
def then_items_schema(ctx: ScenarioContext, schema: str) -> None:
    """The body is an array whose items are valid against the schema."""
    body = response_json(ctx)
    assert isinstance(body, list), f"expected an array, got {type(body).__name__}"
    for item in body:
        validate(item, schema)


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

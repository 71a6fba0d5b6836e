"""Steps of the settings area: a user's ``/user/settings``, repository topics and ``/topics/search``.

Topic names in the scenarios are short names; the target sees ``<run prefix>-<scenario>-<short>``,
so runs sharing a live forge never see each other's topics and a search for the scenario's prefix
finds exactly the scenario's topics. Names meant to be invalid are sent as written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.settings import SettingsApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from conformance.identities import IdentityFactory
from conformance.schemas import validate
from steps.actors import ADMIN, ANONYMOUS, acting, acting_api
from steps.common import comma_list, json_document, response_json
from steps.parsing import phrase

__all__: list[str] = []

TEXT_FIELDS = {"full name": "full_name", "website": "website", "description": "description", "location": "location"}


def _topic(ctx: ScenarioContext, short: str) -> str:
    """The real topic name of a short one (lower-case letters, digits and dashes: a valid topic)."""
    return ctx.real_name(short)


@dataclass
class SettingsNotes:
    """The settings a user had before an update a When step sent."""

    before: dict[str, Any] | None = None


@pytest.fixture
def settings_notes() -> SettingsNotes:
    """The scenario's settings notes."""
    return SettingsNotes()


def _settings_of(ctx: ScenarioContext, who: str) -> dict[str, Any]:
    response = acting(ctx, who, SettingsApi).user_settings()
    assert response.status_code == 200, f"reading the settings answered {response.status_code}: {response.text[:300]}"
    body = json_of(response)
    assert isinstance(body, dict), f"the settings are not an object: {response.text[:300]}"
    return body


# ---------------------------------------------------------------- user settings


@when(phrase('"{who}" reads their settings'))
def read_settings(ctx: ScenarioContext, who: str) -> None:
    """``GET /user/settings``."""
    ctx.response = acting(ctx, who, SettingsApi).user_settings()


@when(phrase("an anonymous client reads the user settings"))
def anonymous_reads_settings(ctx: ScenarioContext) -> None:
    """``GET /user/settings`` without credentials."""
    ctx.response = acting(ctx, ANONYMOUS, SettingsApi).user_settings()


@when(phrase('"{who}" updates their settings with'))
def update_settings(ctx: ScenarioContext, settings_notes: SettingsNotes, who: str, docstring: str) -> None:
    """``PATCH /user/settings`` with the JSON body of the step; the settings before are kept."""
    settings_notes.before = _settings_of(ctx, who)
    ctx.response = acting(ctx, who, SettingsApi).update_user_settings(json_document(docstring))


@when(phrase('"{who}" updates their settings with a {field} of {length:d} characters'))
def update_settings_length(
    ctx: ScenarioContext, settings_notes: SettingsNotes, who: str, field: str, length: int
) -> None:
    """``PATCH /user/settings`` with one text field of exactly ``length`` characters."""
    assert field in TEXT_FIELDS, f"unknown settings field {field!r}: {sorted(TEXT_FIELDS)}"
    value = "https://example.com/" + "x" * (length - 20) if field == "website" else "x" * length
    settings_notes.before = _settings_of(ctx, who)
    ctx.response = acting(ctx, who, SettingsApi).update_user_settings({TEXT_FIELDS[field]: value})


@when(phrase('"{who}" updates their settings with the website "{url}"'))
def update_settings_website(ctx: ScenarioContext, settings_notes: SettingsNotes, who: str, url: str) -> None:
    """``PATCH /user/settings`` with a website value as written."""
    settings_notes.before = _settings_of(ctx, who)
    ctx.response = acting(ctx, who, SettingsApi).update_user_settings({"website": url})


@then(phrase('the settings of "{who}" are unchanged'))
def settings_unchanged(ctx: ScenarioContext, settings_notes: SettingsNotes, who: str) -> None:
    """The settings read now equal those read before the refused update."""
    before = settings_notes.before
    assert before is not None, "the settings were not read before the update"
    now = _settings_of(ctx, who)
    assert now == before, f"the settings changed: before {before!r}, now {now!r}"


@then(phrase('the user "{who}" shows the full name "{full_name}" and the location "{location}"'))
def user_shows_profile(ctx: ScenarioContext, who: str, full_name: str, location: str) -> None:
    """The ``User`` JSON of ``GET /user`` carries what the settings set."""
    response = acting_api(ctx, who).users.me()
    assert response.status_code == 200, f"GET /user answered {response.status_code}"
    body = json_of(response)
    seen = (body.get("full_name"), body.get("location"))
    assert seen == (full_name, location), f"(full_name, location) of the user is {seen}"


# ---------------------------------------------------------------- topics of a repository


@given(phrase('the repository "{short}" has the topics "{names}"'))
def given_topics(ctx: ScenarioContext, identities: IdentityFactory, short: str, names: str) -> None:
    """``PUT .../topics`` as the admin (who administers every repository)."""
    repo = identities.repo(short)
    topics = [_topic(ctx, name) for name in comma_list(names)]
    response = acting(ctx, ADMIN, SettingsApi).replace_topics(repo.owner, repo.name, topics)
    assert response.status_code == 204, f"setting the topics answered {response.status_code}: {response.text[:300]}"


@when(phrase('"{who}" lists the topics of "{short}"'))
def list_topics(ctx: ScenarioContext, who: str, short: str) -> None:
    """``GET /repos/{owner}/{repo}/topics``."""
    repo = ctx.repo(short)
    ctx.response = acting(ctx, who, SettingsApi).repo_topics(repo.owner, repo.name)


@when(phrase('"{who}" replaces the topics of "{short}" with "{names}"'))
def replace_topics(ctx: ScenarioContext, who: str, short: str, names: str) -> None:
    """``PUT .../topics`` with the scenario's topics (short names made real)."""
    repo = ctx.repo(short)
    topics = [_topic(ctx, name) for name in comma_list(names)]
    ctx.response = acting(ctx, who, SettingsApi).replace_topics(repo.owner, repo.name, topics)


@when(phrase('"{who}" replaces the topics of "{short}" with "{name}" and the invalid names "{invalid}"'))
def replace_topics_invalid(ctx: ScenarioContext, who: str, short: str, name: str, invalid: str) -> None:
    """``PUT .../topics`` with one valid scenario topic and names sent exactly as written."""
    repo = ctx.repo(short)
    topics = [_topic(ctx, name), *[item.strip() for item in invalid.split(",")]]
    ctx.response = acting(ctx, who, SettingsApi).replace_topics(repo.owner, repo.name, topics)


@when(phrase('"{who}" replaces the topics of "{short}" with {count:d} topics'))
def replace_many_topics(ctx: ScenarioContext, who: str, short: str, count: int) -> None:
    """``PUT .../topics`` with ``count`` distinct valid topics."""
    repo = ctx.repo(short)
    topics = [_topic(ctx, f"t{index:02d}") for index in range(count)]
    ctx.response = acting(ctx, who, SettingsApi).replace_topics(repo.owner, repo.name, topics)


@when(phrase('"{who}" adds the topic "{name}" to "{short}"'))
def add_topic(ctx: ScenarioContext, who: str, name: str, short: str) -> None:
    """``PUT .../topics/{topic}``."""
    repo = ctx.repo(short)
    ctx.response = acting(ctx, who, SettingsApi).add_topic(repo.owner, repo.name, _topic(ctx, name))


@when(phrase('"{who}" adds the invalid topic "{literal}" to "{short}"'))
def add_invalid_topic(ctx: ScenarioContext, who: str, literal: str, short: str) -> None:
    """``PUT .../topics/{topic}`` with a name sent exactly as written."""
    repo = ctx.repo(short)
    ctx.response = acting(ctx, who, SettingsApi).add_topic(repo.owner, repo.name, literal)


@when(phrase('"{who}" removes the topic "{name}" from "{short}"'))
def remove_topic(ctx: ScenarioContext, who: str, name: str, short: str) -> None:
    """``DELETE .../topics/{topic}``."""
    repo = ctx.repo(short)
    ctx.response = acting(ctx, who, SettingsApi).delete_topic(repo.owner, repo.name, _topic(ctx, name))


@then(phrase('the topic list is exactly "{names}"'))
def topic_list_exact(ctx: ScenarioContext, names: str) -> None:
    """The answer's ``topics`` are the scenario's topics, in this order."""
    body = response_json(ctx)
    expected = [_topic(ctx, name) for name in comma_list(names)]
    assert body["topics"] == expected, f"topics are {body['topics']!r}, expected {expected!r}"


@then(phrase('the topics of "{short}" are exactly "{names}"'))
def topics_of_repo(ctx: ScenarioContext, short: str, names: str) -> None:
    """Read back: the repository carries exactly these topics (by name)."""
    repo = ctx.repo(short)
    response = ctx.admin.area(SettingsApi).repo_topics(repo.owner, repo.name)
    assert response.status_code == 200, f"listing topics answered {response.status_code}: {response.text[:300]}"
    expected = sorted(_topic(ctx, name) for name in comma_list(names))
    listed = json_of(response).get("topics")
    assert listed == expected, f"the topics of {short} are {listed!r}, expected {expected!r}"
    assert response.headers.get("X-Total-Count") == str(len(expected)), (
        f"X-Total-Count is {response.headers.get('X-Total-Count')!r}, expected {len(expected)}"
    )


@then(phrase('"{short}" has no topics'))
def repo_has_no_topics(ctx: ScenarioContext, short: str) -> None:
    """Read back: the repository carries no topic."""
    repo = ctx.repo(short)
    response = ctx.admin.area(SettingsApi).repo_topics(repo.owner, repo.name)
    assert response.status_code == 200, f"listing topics answered {response.status_code}"
    assert json_of(response).get("topics") == [], f"topics remain: {response.text[:300]}"


@then(phrase("the request is refused with status 422 naming invalid topics"))
def refused_invalid_topics(ctx: ScenarioContext) -> None:
    """Status 422, then the body against Gitea's invalidTopicsError shape."""
    response = ctx.last_response()
    assert response.status_code == 422, f"expected 422, got {response.status_code}: {response.text[:300]}"
    validate(response_json(ctx), "invalid_topics_error")


@then(phrase('the refused topics are "{literal}"'))
def refused_topics_are(ctx: ScenarioContext, literal: str) -> None:
    """``invalidTopics`` names the refused names as the server normalized them (trimmed, lower-cased)."""
    expected = [item.strip().lower() for item in literal.split(",")]
    invalid = response_json(ctx).get("invalidTopics")
    found = invalid if isinstance(invalid, list) else [invalid]
    assert found == expected, f"invalidTopics is {invalid!r}, expected {expected!r}"


# ---------------------------------------------------------------- topic search


@when(phrase('"{who}" searches the topics for "{keyword}"'))
def search_topics(ctx: ScenarioContext, who: str, keyword: str) -> None:
    """``GET /topics/search?q=`` with the scenario's real name of the keyword (its prefix is unique)."""
    ctx.response = acting(ctx, who, SettingsApi).search_topics(_topic(ctx, keyword))


@when(phrase("{who} searches the topics of this scenario"))
def search_scenario_topics(ctx: ScenarioContext, who: str) -> None:
    """``GET /topics/search?q=<the scenario's prefix>``: exactly the scenario's topics match."""
    caller = who.strip('"')
    ctx.response = acting(ctx, caller, SettingsApi).search_topics(_topic(ctx, ""))


@then(phrase('the search finds, in order, "{pairs}"'))
def search_finds(ctx: ScenarioContext, pairs: str) -> None:
    """``topics`` lists these topics with these repository counts (``name:count``), most used first."""
    body = response_json(ctx)
    expected = [(_topic(ctx, pair.split(":")[0].strip()), int(pair.split(":")[1])) for pair in pairs.split(",")]
    found = [(item["topic_name"], item["repo_count"]) for item in body["topics"]]
    assert found == expected, f"the search found {found!r}, expected {expected!r}"
    total = ctx.last_response().headers.get("X-Total-Count")
    assert total == str(len(expected)), f"X-Total-Count is {total!r}, expected {len(expected)}"

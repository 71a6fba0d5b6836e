"""Steps of the avatars area: upload and delete the avatar of a user, a repository or an organization, and
check the ``avatar_url`` the JSON then shows and the picture behind it.

The subject of a step is a short name: ``"alice/demo"`` is a repository, an organization of the scenario
is an organization, anything else a user (whose avatar only that user changes, through ``/user/avatar``).
Pictures are drawn with Pillow in memory.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass, field
from typing import Any

import pytest
from PIL import Image
from pytest_bdd import given, then, when

from conformance.api.avatars import AvatarsApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from conformance.seeding import SeededData
from steps.actors import acting, org_owner
from steps.parsing import phrase


@dataclass
class AvatarNotes:
    """Per subject: its ``avatar_url`` before the scenario's last upload, and after a successful one."""

    before: dict[str, str] = field(default_factory=dict)
    uploaded: dict[str, str] = field(default_factory=dict)

    def url_before(self, subject: str) -> str:
        """The avatar URL the subject had before the last upload."""
        assert subject in self.before, f'no avatar of "{subject}" was uploaded in this scenario'
        return self.before[subject]

    def uploaded_url(self, subject: str) -> str:
        """The avatar URL a successful upload gave the subject."""
        assert subject in self.uploaded, f'no avatar of "{subject}" was uploaded successfully in this scenario'
        return self.uploaded[subject]


@pytest.fixture
def avatar_notes() -> AvatarNotes:
    """The scenario's avatar URLs."""
    return AvatarNotes()


def picture(width: int, height: int, colour: tuple[int, int, int] = (200, 40, 40)) -> bytes:
    """A PNG of the given size in one colour with a stripe, so the bytes differ from a blank picture."""
    image = Image.new("RGB", (width, height), colour)
    for x in range(width):
        image.putpixel((x, height // 2), (20, 20, 160))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _target(ctx: ScenarioContext, subject: str) -> tuple[str, ...]:
    if "/" in subject:
        ref = ctx.repo(subject)
        return (ref.owner, ref.name)
    if subject in ctx.orgs:
        return (ctx.orgs[subject],)
    return ()


def avatar_url(ctx: ScenarioContext, subject: str) -> str:
    """The ``avatar_url`` of the subject as the admin reads it."""
    if "/" in subject:
        ref = ctx.repo(subject)
        response = ctx.admin.repos.get(ref.owner, ref.name)
    elif subject in ctx.orgs:
        response = ctx.admin.orgs.get(ctx.orgs[subject])
    else:
        response = ctx.admin.users.get(ctx.user(subject).username)
    assert response.status_code == 200, f"reading {subject}: {response.status_code} {response.text[:300]}"
    value = json_of(response).get("avatar_url")
    assert isinstance(value, str), f"{subject} has no avatar_url: {value!r}"
    return value


def _upload(ctx: ScenarioContext, avatar_notes: AvatarNotes, who: str, subject: str, body: Any) -> None:
    avatar_notes.before[subject] = avatar_url(ctx, subject)
    ctx.response = acting(ctx, who, AvatarsApi).upload(_target(ctx, subject), body)
    if ctx.response.status_code == 204:
        avatar_notes.uploaded[subject] = avatar_url(ctx, subject)


def _uploader(ctx: ScenarioContext, subject: str) -> str:
    """Who may change the subject's avatar: the user, the repository's owner, the organization's owner."""
    if "/" in subject:
        return subject.split("/", 1)[0]
    if subject in ctx.orgs:
        return org_owner(ctx, subject).short
    return subject


@given(phrase('"{subject}" has an uploaded avatar'))
def given_avatar(ctx: ScenarioContext, avatar_notes: AvatarNotes, fake: SeededData, subject: str) -> None:
    """An avatar (of a drawn colour) uploaded by whoever may change it; the URL before it is kept for later checks."""
    image = picture(64, 64, fake.colour())
    _upload(ctx, avatar_notes, _uploader(ctx, subject), subject, {"image": base64.b64encode(image).decode()})
    assert ctx.response is not None and ctx.response.status_code == 204, (
        f"uploading the avatar of {subject}: {ctx.response.status_code if ctx.response else '-'}"
    )
    ctx.response = None


@when(phrase('"{who}" uploads a {width:d}x{height:d} picture as the avatar of "{subject}"'))
def upload_picture(
    ctx: ScenarioContext, avatar_notes: AvatarNotes, *, who: str, width: int, height: int, subject: str
) -> None:
    """``POST .../avatar`` with a PNG of that size."""
    _upload(ctx, avatar_notes, who, subject, {"image": base64.b64encode(picture(width, height)).decode()})


@when(phrase('"{who}" uploads the image text "{text}" as the avatar of "{subject}"'))
def upload_text(ctx: ScenarioContext, avatar_notes: AvatarNotes, who: str, text: str, subject: str) -> None:
    """``POST .../avatar`` whose ``image`` is the text as given (for example invalid base64)."""
    _upload(ctx, avatar_notes, who, subject, {"image": text})


@when(phrase('"{who}" uploads the base64 of "{text}" as the avatar of "{subject}"'))
def upload_non_image(ctx: ScenarioContext, avatar_notes: AvatarNotes, who: str, text: str, subject: str) -> None:
    """``POST .../avatar`` with valid base64 of something that is no picture."""
    _upload(ctx, avatar_notes, who, subject, {"image": base64.b64encode(text.encode()).decode()})


@when(phrase('"{who}" uploads an avatar without an image for "{subject}"'))
def upload_without_image(ctx: ScenarioContext, avatar_notes: AvatarNotes, who: str, subject: str) -> None:
    """``POST .../avatar`` with an empty object."""
    _upload(ctx, avatar_notes, who, subject, {})


@when(phrase('"{who}" deletes the avatar of "{subject}"'))
def delete_avatar(ctx: ScenarioContext, who: str, subject: str) -> None:
    """``DELETE .../avatar``."""
    ctx.response = acting(ctx, who, AvatarsApi).delete(_target(ctx, subject))


def _serves_picture(ctx: ScenarioContext, url: str) -> Image.Image:
    response = ctx.admin.area(AvatarsApi).fetch(url)
    assert response.status_code == 200, f"{url} answers {response.status_code}"
    assert response.headers.get("Content-Type", "").startswith("image/"), response.headers.get("Content-Type")
    image = Image.open(io.BytesIO(response.content))
    image.load()
    return image


@then(phrase('the avatar of "{subject}" is a new picture of at most {size:d} pixels square'))
def avatar_is_new(ctx: ScenarioContext, avatar_notes: AvatarNotes, subject: str, size: int) -> None:
    """``avatar_url`` changed, and it serves a square picture no larger than ``size``."""
    now = avatar_url(ctx, subject)
    assert now and now != avatar_notes.url_before(subject), f"the avatar URL of {subject} did not change"
    image = _serves_picture(ctx, now)
    assert image.width == image.height <= size, f"the stored avatar is {image.width}x{image.height}"


@then(phrase('the avatar of "{subject}" is unchanged'))
def avatar_unchanged(ctx: ScenarioContext, avatar_notes: AvatarNotes, subject: str) -> None:
    """A refused upload left the ``avatar_url`` as it was before the request."""
    assert avatar_url(ctx, subject) == avatar_notes.url_before(subject), f"the avatar of {subject} changed"


@then(phrase('the avatar of "{subject}" is the default one again'))
def avatar_default(ctx: ScenarioContext, avatar_notes: AvatarNotes, subject: str) -> None:
    """Back to the URL from before the upload (a repository: no avatar URL at all)."""
    now = avatar_url(ctx, subject)
    before = avatar_notes.url_before(subject)
    assert now == before, f"the avatar URL of {subject} is {now!r}, expected the default {before!r}"
    assert now != avatar_notes.uploaded_url(subject), "the uploaded avatar is still in use"


@then(phrase('the removed avatar picture of "{subject}" is no longer served'))
def removed_picture_gone(ctx: ScenarioContext, avatar_notes: AvatarNotes, subject: str) -> None:
    """The URL of the deleted upload answers 404: the stored picture is gone."""
    uploaded = avatar_notes.uploaded_url(subject)
    response = ctx.admin.area(AvatarsApi).fetch(uploaded)
    assert response.status_code == 404, f"{uploaded} still answers {response.status_code}"


@then(phrase('the default avatar of "{subject}" serves a picture'))
def default_serves(ctx: ScenarioContext, subject: str) -> None:
    """An account without an upload still has a working ``avatar_url``."""
    _serves_picture(ctx, avatar_url(ctx, subject))

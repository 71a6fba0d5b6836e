"""Badge definitions and user badges.

Gitea has no API to define badges (its ``badge`` table is seeded by the operator); the reference
reads definitions from ``Config.badges`` (``reference-server --badges FILE``, a YAML or JSON list of
``{slug, description, image_url}``) at every start, and with ``--test-hooks`` also from a
reference-only route. Assignments follow Gitea's admin API, with two documented differences: an
unknown slug is a 422 (Gitea: 500) and nothing is assigned, and a badge is held at most once (Gitea
inserts a second row).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..context import forge
from ..db import Row
from . import store
from .errors import BadgeFileError, BadgeNotDefined, BadgeNotFound, InvalidBadge

__all__ = [
    "Badge",
    "BadgeDefinition",
    "add_user_badges",
    "all_badges",
    "define_badge",
    "forget_badge",
    "load_badge_file",
    "parse_definitions",
    "remove_user_badges",
    "seed_badges",
    "user_badges",
]

MAX_SLUG = 255
MAX_TEXT = 2048


@dataclass(frozen=True)
class BadgeDefinition:
    """One badge as an operator configures it."""

    slug: str
    description: str = ""
    image_url: str = ""


@dataclass(frozen=True)
class Badge:
    """A stored badge."""

    id: int
    slug: str
    description: str
    image_url: str

    @classmethod
    def from_row(cls, row: Row) -> Badge:
        return cls(row["id"], row["slug"], row["description"], row["image_url"])


def _definition(item: object, where: str) -> BadgeDefinition:
    """One definition from a mapping; ``ValueError`` naming ``where`` when it is not a valid one."""
    if not isinstance(item, Mapping):
        raise ValueError(f"{where}: a badge is an object with slug, description and image_url")
    slug, description, image_url = item.get("slug"), item.get("description", ""), item.get("image_url", "")
    if not isinstance(slug, str) or not slug.strip() or len(slug) > MAX_SLUG or any(ch.isspace() for ch in slug):
        raise ValueError(f"{where}: slug must be a non-empty text without spaces of at most {MAX_SLUG} characters")
    for name, value in (("description", description), ("image_url", image_url)):
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            raise ValueError(f"{where}: {name} must be a text of at most {MAX_TEXT} characters")
    return BadgeDefinition(slug, description, image_url)


def parse_definitions(document: object) -> tuple[BadgeDefinition, ...]:
    """A list of definitions (a list of objects with unique slugs); ``BadgeFileError`` otherwise."""
    if not isinstance(document, list):
        raise BadgeFileError("the badge definitions must be a list of {slug, description, image_url} objects")
    found: dict[str, BadgeDefinition] = {}
    for index, item in enumerate(document):
        try:
            definition = _definition(item, f"badge {index + 1}")
        except ValueError as exc:
            raise BadgeFileError(str(exc)) from None
        if definition.slug in found:
            raise BadgeFileError(f"badge {index + 1}: the slug {definition.slug!r} is defined twice")
        found[definition.slug] = definition
    return tuple(found.values())


def load_badge_file(path: Path) -> tuple[BadgeDefinition, ...]:
    """Definitions from a YAML or JSON file (JSON is YAML; ``.json`` files are read as strict JSON)."""
    try:
        text = path.read_text(encoding="utf-8")
        document = json.loads(text) if path.suffix.lower() == ".json" else yaml.safe_load(text)
    except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError) as exc:
        raise BadgeFileError(f"cannot read the badge definitions in {path}: {exc}") from exc
    return parse_definitions(document)


def seed_badges(definitions: Iterable[BadgeDefinition]) -> None:
    """Store the configured definitions (existing slugs take the configured description and image)."""
    with forge().db.transaction():
        for definition in definitions:
            store.upsert_badge(definition.slug, definition.description, definition.image_url)


def define_badge(slug: str, options: Mapping[str, Any]) -> Badge:
    """Reference-only: define or redefine one badge; 422 when the definition is invalid."""
    try:
        definition = _definition({**options, "slug": slug}, "badge")
    except ValueError as exc:
        raise InvalidBadge(str(exc)) from None
    seed_badges([definition])
    row = store.badge_by_slug(slug)
    assert row is not None
    return Badge.from_row(row)


def forget_badge(slug: str) -> None:
    """Reference-only: delete one definition and its assignments; 404 when there is none."""
    with forge().db.transaction():
        if not store.delete_badge(slug):
            raise BadgeNotFound(f"badge does not exist [slug: {slug}]")


def all_badges() -> list[Badge]:
    """Every defined badge, in the order they were defined."""
    return [Badge.from_row(row) for row in store.all_badges()]


def user_badges(user_id: int) -> list[Badge]:
    """The badges a user holds."""
    return [Badge.from_row(row) for row in store.badges_of_user(user_id)]


def add_user_badges(user_id: int, slugs: Sequence[str]) -> None:
    """Give the user these badges; every slug must name a badge, else nothing is given (422)."""
    with forge().db.transaction():
        ids: list[int] = []
        for slug in slugs:
            row = store.badge_by_slug(slug)
            if row is None:
                raise BadgeNotDefined(f"badge does not exist [slug: {slug}]")
            ids.append(row["id"])
        store.assign(user_id, ids)


def remove_user_badges(user_id: int, slugs: Sequence[str]) -> None:
    """Take these badges from the user; slugs the user does not hold (or that name nothing) are ignored."""
    with forge().db.transaction():
        store.unassign(user_id, slugs)

"""Topic rules (Gitea's): lower-cased, trimmed, ``^[a-z0-9][-.a-z0-9]*$`` up to 35 characters, at most 25
per repository; the topics of a repository; the search of all topics by a keyword."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..context import forge, now_seconds
from ..db import Row
from ..events import RepoDeletedEvent
from . import store
from .errors import InvalidTopics, TooManyTopics, TopicNotFound

__all__ = [
    "MAX_TOPICS",
    "MAX_TOPIC_LENGTH",
    "Topic",
    "add_topic",
    "delete_topic",
    "on_repo_deleted",
    "replace_topics",
    "sanitize_topics",
    "search_topics",
    "topic_names",
    "topics_page",
    "valid_topic",
]

MAX_TOPICS = 25
MAX_TOPIC_LENGTH = 35
TOPIC_PATTERN = re.compile(r"[a-z0-9][-.a-z0-9]*")


@dataclass(frozen=True)
class Topic:
    """A topic and how many repositories carry it."""

    id: int
    name: str
    repo_count: int
    created: int
    updated: int

    @classmethod
    def from_row(cls, row: Row) -> Topic:
        return cls(row["id"], row["name"], row["repo_count"], row["created"], row["updated"])


def _normalize(name: str) -> str:
    return name.strip().lower()


def valid_topic(name: str) -> bool:
    """Gitea's ``ValidateTopic`` on an already normalized name."""
    return len(name) <= MAX_TOPIC_LENGTH and TOPIC_PATTERN.fullmatch(name) is not None


def sanitize_topics(names: Sequence[str]) -> tuple[list[str], list[str]]:
    """``(valid, invalid)``: each name trimmed and lower-cased, empty ones and repeats dropped, order kept."""
    valid: list[str] = []
    invalid: list[str] = []
    for raw in names:
        name = _normalize(raw)
        if not name or name in valid or name in invalid:
            continue
        (valid if valid_topic(name) else invalid).append(name)
    return valid, invalid


def topics_page(repo_id: int, limit: int, offset: int) -> tuple[list[str], int]:
    """One page of the repository's topic names (by name) and how many it has."""
    return store.names_of_repo(repo_id, limit, offset), store.count_of_repo(repo_id)


def topic_names(repo_id: int) -> list[str]:
    """All topic names of a repository, by name (the ``topics`` of Gitea's ``Repository``)."""
    return store.all_names_of_repo(repo_id)


def replace_topics(repo_id: int, names: Sequence[str]) -> None:
    """``PUT .../topics``: the repository's topics become exactly ``names`` (validated before any change)."""
    valid, invalid = sanitize_topics(names)
    if len(valid) > MAX_TOPICS:
        raise TooManyTopics("Exceeding maximum number of topics per repo", None)
    if invalid:
        raise InvalidTopics("Topic names are invalid", invalid)
    with forge().db.transaction():
        current = store.all_names_of_repo(repo_id)
        store.unlink(repo_id, [name for name in current if name not in valid], now_seconds())
        store.link(repo_id, [name for name in valid if name not in current], now_seconds())


def _single(name: str) -> str:
    topic = _normalize(name)
    if not valid_topic(topic):
        raise InvalidTopics("Topic name is invalid", topic)
    return topic


def add_topic(repo_id: int, name: str) -> None:
    """``PUT .../topics/{topic}``: attach one topic (already attached is fine); 422 past 25."""
    topic = _single(name)
    with forge().db.transaction():
        current = store.all_names_of_repo(repo_id)
        if topic in current:
            return
        if len(current) >= MAX_TOPICS:
            raise TooManyTopics("Exceeding maximum allowed topics per repo.", None)
        store.link(repo_id, [topic], now_seconds())


def delete_topic(repo_id: int, name: str) -> None:
    """``DELETE .../topics/{topic}``: detach one topic; 404 when the repository does not carry it."""
    topic = _single(name)
    with forge().db.transaction():
        if not store.unlink(repo_id, [topic], now_seconds()):
            raise TopicNotFound("not found")


def search_topics(keyword: str, limit: int, offset: int) -> tuple[list[Topic], int]:
    """Topics whose name contains the keyword (case-insensitive), most used first, and the total."""
    rows, total = store.search(keyword, limit, offset)
    return [Topic.from_row(row) for row in rows], total


def on_repo_deleted(event: RepoDeletedEvent) -> None:
    """A deleted repository's topics count one repository less."""
    with forge().db.transaction():
        store.unlink(event.repo_id, store.all_names_of_repo(event.repo_id), now_seconds())

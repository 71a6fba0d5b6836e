"""Gitea's ``TopicResponse`` as the API shows it; above the models, which never render."""

from __future__ import annotations

from typing import Any

from ..timefmt import iso
from .models import Topic

__all__ = ["topic_to_api"]


def topic_to_api(topic: Topic) -> dict[str, Any]:
    """Gitea's ``TopicResponse``."""
    return {
        "id": topic.id,
        "topic_name": topic.name,
        "repo_count": topic.repo_count,
        "created": iso(topic.created),
        "updated": iso(topic.updated),
    }

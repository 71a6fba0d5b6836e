"""REST routes of topics: a repository's topics (read by readers, changed by repository admins) and the search."""

from __future__ import annotations

from flask import Flask, Response, request

from ..access import token
from ..context import forge
from ..endpoints import EMPTY, Endpoint
from ..errors import Unprocessable
from ..events import RepoDeletedEvent
from ..permissions import current_repo
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import models
from .errors import InvalidTopics
from .presenters import topic_to_api

__all__ = ["ENDPOINTS", "register"]

API = "/api/v1"


def list_topics(owner: str, repo: str) -> Response:
    """Get list of topics that a repository has."""
    found = current_repo()
    page = page_params()
    names, total = models.topics_page(found.id, page.limit, page.offset)
    return paged_response({"topics": names}, page, total)


def update_topics(owner: str, repo: str) -> Response:
    """Replace list of topics for a repository."""
    found = current_repo()
    names = json_body().get("topics")
    if names is None:
        names = []
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise Unprocessable("[Topics]: must be an array of strings")
    models.replace_topics(found.id, names)
    return empty()


def add_topic(owner: str, repo: str, topic: str) -> Response:
    """Add a topic to a repository."""
    found = current_repo()
    models.add_topic(found.id, topic)
    return empty()


def delete_topic(owner: str, repo: str, topic: str) -> Response:
    """Delete a topic from a repository."""
    found = current_repo()
    models.delete_topic(found.id, topic)
    return empty()


def topic_search() -> Response:
    """Search topics via keyword."""
    page = page_params()
    topics, total = models.search_topics(request.args.get("q", ""), page.limit, page.offset)
    return paged_response({"topics": [topic_to_api(topic) for topic in topics]}, page, total)


def _invalid_topics(error: InvalidTopics) -> Response:
    """Gitea's body for refused topics: the message and the offending names (``invalidTopics``)."""
    body = {"message": error.message, "url": forge().url("api/swagger"), "invalidTopics": error.invalid}
    return json_response(body, status=error.status)


def register(app: Flask) -> None:
    """Answer invalid topics as Gitea does; forget a deleted repository's topics."""
    app.register_error_handler(InvalidTopics, _invalid_topics)
    forge().events.subscribe(RepoDeletedEvent, models.on_repo_deleted)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/topics",
        "repoListTopics",
        list_topics,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="topic_names",
        errors=(404,),
    ),
    Endpoint(
        "PUT",
        API + "/repos/<owner>/<repo>/topics",
        "repoUpdateTopics",
        update_topics,
        "repository",
        token("repository", repo="admin"),
        status=204,
        returns=EMPTY,
        body="RepoTopicOptions",
        errors=(404, 422),
    ),
    Endpoint(
        "PUT",
        API + "/repos/<owner>/<repo>/topics/<topic>",
        "repoAddTopic",
        add_topic,
        "repository",
        token("repository", repo="admin"),
        status=204,
        returns=EMPTY,
        errors=(404, 422),
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/topics/<topic>",
        "repoDeleteTopic",
        delete_topic,
        "repository",
        token("repository", repo="admin"),
        status=204,
        returns=EMPTY,
        errors=(404, 422),
    ),
    Endpoint(
        "GET",
        API + "/topics/search",
        "topicSearch",
        topic_search,
        "miscellaneous",
        token("repository", anonymous_read=True),
        returns="topic_search",
        errors=(403, 404),
    ),
)

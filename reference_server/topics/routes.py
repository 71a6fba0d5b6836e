"""REST routes of topics: a repository's topics (read by readers, changed by repository admins) and the search."""

from __future__ import annotations

from flask import Flask, Response, request

from ..auth import check_scope
from ..context import forge
from ..errors import Unprocessable
from ..events import RepoDeletedEvent
from ..repos.models import Need, Repo, require_repo
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import models
from .errors import InvalidTopics

__all__ = ["register"]

API = "/api/v1"


def _repo(owner: str, name: str, need: Need = "read") -> Repo:
    """Scope first (403 before any lookup), then the repository with the needed permission."""
    check_scope("repository", anonymous_ok=need == "read")
    return require_repo(owner, name, need)


def list_topics(owner: str, repo: str) -> Response:
    """Get list of topics that a repository has."""
    found = _repo(owner, repo)
    page = page_params()
    names, total = models.topics_page(found.id, page.limit, page.offset)
    return paged_response({"topics": names}, page, total)


def update_topics(owner: str, repo: str) -> Response:
    """Replace list of topics for a repository."""
    found = _repo(owner, repo, "admin")
    names = json_body().get("topics")
    if names is None:
        names = []
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise Unprocessable("[Topics]: must be an array of strings")
    models.replace_topics(found.id, names)
    return empty()


def add_topic(owner: str, repo: str, topic: str) -> Response:
    """Add a topic to a repository."""
    found = _repo(owner, repo, "admin")
    models.add_topic(found.id, topic)
    return empty()


def delete_topic(owner: str, repo: str, topic: str) -> Response:
    """Delete a topic from a repository."""
    found = _repo(owner, repo, "admin")
    models.delete_topic(found.id, topic)
    return empty()


def topic_search() -> Response:
    """Search topics via keyword."""
    check_scope("repository", anonymous_ok=True)
    page = page_params()
    topics, total = models.search_topics(request.args.get("q", ""), page.limit, page.offset)
    return paged_response({"topics": [models.topic_to_api(topic) for topic in topics]}, page, total)


def _invalid_topics(error: InvalidTopics) -> Response:
    """Gitea's body for refused topics: the message and the offending names (``invalidTopics``)."""
    body = {"message": error.message, "url": forge().url("api/swagger"), "invalidTopics": error.invalid}
    return json_response(body, status=error.status)


def register(app: Flask) -> None:
    """Mount the topic routes with Gitea's operation ids; forget a deleted repository's topics."""
    repo_topics = f"{API}/repos/<owner>/<repo>/topics"
    app.add_url_rule(repo_topics, endpoint="repoListTopics", view_func=list_topics, methods=["GET"])
    app.add_url_rule(repo_topics, endpoint="repoUpdateTopics", view_func=update_topics, methods=["PUT"])
    app.add_url_rule(f"{repo_topics}/<topic>", endpoint="repoAddTopic", view_func=add_topic, methods=["PUT"])
    app.add_url_rule(f"{repo_topics}/<topic>", endpoint="repoDeleteTopic", view_func=delete_topic, methods=["DELETE"])
    app.add_url_rule(f"{API}/topics/search", endpoint="topicSearch", view_func=topic_search, methods=["GET"])
    app.register_error_handler(InvalidTopics, _invalid_topics)
    forge().events.subscribe(RepoDeletedEvent, models.on_repo_deleted)

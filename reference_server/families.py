"""Every resource family, in dependency order: its endpoint table, its wiring besides routes, and its tables.

The app builds itself from this one list. A family over Git data or configuration only keeps no tables, so it
has no ``store`` module and declares no schema; a family package's ``__init__`` imports nothing, so loading one
module of a family never loads the rest of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask

from .actions import routes as actions_routes
from .actions import store as actions_store
from .actions.attempts import SCHEMA as ACTIONS_ATTEMPTS_SCHEMA
from .actions.config_store import SCHEMA as ACTIONS_CONFIG_SCHEMA
from .artifacts import routes as artifacts_routes
from .artifacts import store as artifacts_store
from .assignees import routes as assignees_routes
from .assignees import store as assignees_store
from .attachments import routes as attachments_routes
from .attachments import store as attachments_store
from .avatars import routes as avatars_routes
from .avatars import store as avatars_store
from .badges import routes as badges_routes
from .badges import store as badges_store
from .branches import routes as branches_routes
from .collaborators import routes as collaborators_routes
from .collaborators import store as collaborators_store
from .commits import routes as commits_routes
from .cron import routes as cron_routes
from .cron import store as cron_store
from .dependencies import routes as dependencies_routes
from .dependencies import store as dependencies_store
from .deploy_tokens import routes as deploy_tokens_routes
from .deploy_tokens import store as deploy_tokens_store
from .endpoints import Endpoint
from .feeds import routes as feeds_routes
from .feeds import store as feeds_store
from .forks import routes as forks_routes
from .forks import store as forks_store
from .gitdata import routes as gitdata_routes
from .issue_config import routes as issue_config_routes
from .issue_search import routes as issue_search_routes
from .issues import routes as issues_routes
from .issues import store as issues_store
from .keys import routes as keys_routes
from .keys import store as keys_store
from .labels import routes as labels_routes
from .labels import store as labels_store
from .lfs import routes as lfs_routes
from .lfs import store as lfs_store
from .licenses import routes as licenses_routes
from .licenses import store as licenses_store
from .markup import routes as markup_routes
from .milestones import routes as milestones_routes
from .milestones import store as milestones_store
from .mirrors import routes as mirrors_routes
from .mirrors import store as mirrors_store
from .misc import routes as misc_routes
from .notifications import routes as notifications_routes
from .notifications import store as notifications_store
from .orgs import routes as orgs_routes
from .orgs import store as orgs_store
from .packages import routes as packages_routes
from .packages import store as packages_store
from .people import routes as people_routes
from .people import store as people_store
from .pins import routes as pins_routes
from .pins import store as pins_store
from .projects import routes as projects_routes
from .projects import store as projects_store
from .protections import routes as protections_routes
from .protections import store as protections_store
from .pulls import routes as pulls_routes
from .pulls import store as pulls_store
from .reactions import routes as reactions_routes
from .reactions import store as reactions_store
from .releases import routes as releases_routes
from .releases import store as releases_store
from .repo_generate import routes as repo_generate_routes
from .repo_search import routes as repo_search_routes
from .repo_teams import routes as repo_teams_routes
from .repo_transfers import routes as repo_transfers_routes
from .repo_transfers import store as repo_transfers_store
from .repos import routes as repos_routes
from .repos import store as repos_store
from .stars import routes as stars_routes
from .stars import store as stars_store
from .statuses import routes as statuses_routes
from .statuses import store as statuses_store
from .templates import routes as templates_routes
from .times import routes as times_routes
from .times import store as times_store
from .topics import routes as topics_routes
from .topics import store as topics_store
from .users import routes as users_routes
from .users import store as users_store
from .webhooks import routes as webhooks_routes
from .webhooks import store as webhooks_store
from .wiki import routes as wiki_routes

__all__ = ["FAMILIES", "SCHEMAS", "Family"]


@dataclass(frozen=True)
class Family:
    """One resource family as the app needs it."""

    name: str
    endpoints: tuple[Endpoint, ...]
    """``routes.ENDPOINTS``: every operation the family serves."""
    schema: str = ""
    """The ``store.SCHEMA`` of its tables; empty for a family that keeps none."""
    register: Callable[[Flask], None] | None = None
    """``routes.register``: wiring besides routes (event subscriptions, hooks, workers), if any."""


FAMILIES: tuple[Family, ...] = (
    Family("users", users_routes.ENDPOINTS, users_store.SCHEMA, users_routes.register),
    Family("orgs", orgs_routes.ENDPOINTS, orgs_store.SCHEMA, orgs_routes.register),
    Family("repos", repos_routes.ENDPOINTS, repos_store.SCHEMA),
    Family("collaborators", collaborators_routes.ENDPOINTS, collaborators_store.SCHEMA),
    Family("stars", stars_routes.ENDPOINTS, stars_store.SCHEMA, stars_routes.register),
    Family("repo_teams", repo_teams_routes.ENDPOINTS),
    Family("commits", commits_routes.ENDPOINTS),
    Family("branches", branches_routes.ENDPOINTS),
    Family("forks", forks_routes.ENDPOINTS, forks_store.SCHEMA),
    Family("actions", actions_routes.ENDPOINTS, actions_store.SCHEMA, actions_routes.register),
    Family("artifacts", artifacts_routes.ENDPOINTS, artifacts_store.SCHEMA, artifacts_routes.register),
    Family("webhooks", webhooks_routes.ENDPOINTS, webhooks_store.SCHEMA, webhooks_routes.register),
    Family("deploy_tokens", deploy_tokens_routes.ENDPOINTS, deploy_tokens_store.SCHEMA, deploy_tokens_routes.register),
    Family("keys", keys_routes.ENDPOINTS, keys_store.SCHEMA),
    Family("lfs", lfs_routes.ENDPOINTS, lfs_store.SCHEMA, lfs_routes.register),
    Family("gitdata", gitdata_routes.ENDPOINTS),
    Family("protections", protections_routes.ENDPOINTS, protections_store.SCHEMA, protections_routes.register),
    Family("statuses", statuses_routes.ENDPOINTS, statuses_store.SCHEMA, statuses_routes.register),
    Family("misc", misc_routes.ENDPOINTS, register=misc_routes.register),
    Family("templates", templates_routes.ENDPOINTS),
    Family("labels", labels_routes.ENDPOINTS, labels_store.SCHEMA, labels_routes.register),
    Family("licenses", licenses_routes.ENDPOINTS, licenses_store.SCHEMA, licenses_routes.register),
    Family("avatars", avatars_routes.ENDPOINTS, avatars_store.SCHEMA, avatars_routes.register),
    Family("milestones", milestones_routes.ENDPOINTS, milestones_store.SCHEMA, milestones_routes.register),
    Family("issues", issues_routes.ENDPOINTS, issues_store.SCHEMA, issues_routes.register),
    Family("attachments", attachments_routes.ENDPOINTS, attachments_store.SCHEMA, attachments_routes.register),
    Family("reactions", reactions_routes.ENDPOINTS, reactions_store.SCHEMA, reactions_routes.register),
    Family("pulls", pulls_routes.ENDPOINTS, pulls_store.SCHEMA, pulls_routes.register),
    Family("topics", topics_routes.ENDPOINTS, topics_store.SCHEMA, topics_routes.register),
    Family("repo_search", repo_search_routes.ENDPOINTS),
    Family("repo_generate", repo_generate_routes.ENDPOINTS),
    Family(
        "repo_transfers", repo_transfers_routes.ENDPOINTS, repo_transfers_store.SCHEMA, repo_transfers_routes.register
    ),
    Family("badges", badges_routes.ENDPOINTS, badges_store.SCHEMA, badges_routes.register),
    Family("pins", pins_routes.ENDPOINTS, pins_store.SCHEMA),
    Family("dependencies", dependencies_routes.ENDPOINTS, dependencies_store.SCHEMA),
    Family("assignees", assignees_routes.ENDPOINTS, assignees_store.SCHEMA),
    Family("issue_config", issue_config_routes.ENDPOINTS),
    Family("projects", projects_routes.ENDPOINTS, projects_store.SCHEMA, projects_routes.register),
    Family("feeds", feeds_routes.ENDPOINTS, feeds_store.SCHEMA, feeds_routes.register),
    Family("people", people_routes.ENDPOINTS, people_store.SCHEMA),
    Family("markup", markup_routes.ENDPOINTS),
    Family("releases", releases_routes.ENDPOINTS, releases_store.SCHEMA, releases_routes.register),
    Family("wiki", wiki_routes.ENDPOINTS, register=wiki_routes.register),
    Family("mirrors", mirrors_routes.ENDPOINTS, mirrors_store.SCHEMA, mirrors_routes.register),
    Family("cron", cron_routes.ENDPOINTS, cron_store.SCHEMA),
    Family("times", times_routes.ENDPOINTS, times_store.SCHEMA, times_routes.register),
    Family("packages", packages_routes.ENDPOINTS, packages_store.SCHEMA, packages_routes.register),
    Family("notifications", notifications_routes.ENDPOINTS, notifications_store.SCHEMA, notifications_routes.register),
    Family("issue_search", issue_search_routes.ENDPOINTS),
)

SCHEMAS: tuple[str, ...] = (
    *(family.schema for family in FAMILIES if family.schema),
    ACTIONS_CONFIG_SCHEMA,
    ACTIONS_ATTEMPTS_SCHEMA,
)
"""Every table's schema in the order the app applies them: the families', then the Actions configuration's
and run attempts'."""

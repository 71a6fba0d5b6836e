"""The tag vocabulary of DESIGN.md section 2: areas, sources, and the special tags the harness reads."""

from __future__ import annotations

__all__ = ["AREAS", "SOURCES", "SPECIAL_TAGS"]

AREAS: tuple[str, ...] = (
    "artifacts",
    "runs",
    "jobs",
    "workflows",
    "runners",
    "secrets",
    "variables",
    "webhooks",
    "contents",
    "commits",
    "branches",
    "protections",
    "releases",
    "statuses",
    "forks",
    "licenses",
    "templates",
    "avatars",
    "orgs",
    "users",
    "keys",
    "deploy_tokens",
    "issues",
    "milestones",
    "reactions",
    "attachments",
    "pulls",
    "pins",
    "locks",
    "dependencies",
    "assignees",
    "issue_config",
    "projects",
    "feeds",
    "markup",
    "wiki",
    "mirrors",
    "notifications",
    "badges",
    "tokens",
    "activitypub",
    "settings",
    "admin",
    "search",
    "stars",
    "transfers",
    "api_description",
    "auth",
    "gitdata",
    "packages",
)

SOURCES: dict[str, str] = {
    "spec": "the scenario checks a clause of the specification",
    "gitea": "the scenario checks behaviour of Gitea 1.27 where the specification is silent",
    "reference": "the scenario checks a documented choice of the reference server",
}

SPECIAL_TAGS: dict[str, str] = {
    "reference_only": "needs control that only the reference server offers (its clock, its host names)",
    "slow": "takes more than a few seconds",
    "destructive": "changes instance-wide state or the admin's own credentials: disabled on a live target "
    "unless --allow-destructive",
}

"""REST routes of organizations (thin: parse, call the model, render)."""

from __future__ import annotations

from flask import Flask, Response

from ..auth import check_scope, current_principal, optional_principal
from ..rest import empty, json_body, json_response
from . import models

__all__ = ["register"]

API = "/api/v1"


def org_create() -> Response:
    """Create an organization; the caller becomes its owner."""
    check_scope("organization")
    principal = current_principal()
    org = models.create_org(json_body(required=("username",)), principal)
    return json_response(models.org_to_api(org), status=201)


def org_get(org: str) -> Response:
    """An organization by name."""
    check_scope("organization", anonymous_ok=True)
    return json_response(models.org_to_api(models.get_org(org, optional_principal())))


def org_delete(org: str) -> Response:
    """Delete an organization without repositories (owner or site admin)."""
    check_scope("organization")
    models.delete_org(org, current_principal())
    return empty()


def register(app: Flask) -> None:
    """Attach the organization routes; endpoint names are Gitea's operation ids."""
    app.add_url_rule(f"{API}/orgs", endpoint="orgCreate", view_func=org_create, methods=["POST"])
    app.add_url_rule(f"{API}/orgs/<org>", endpoint="orgGet", view_func=org_get, methods=["GET"])
    app.add_url_rule(f"{API}/orgs/<org>", endpoint="orgDelete", view_func=org_delete, methods=["DELETE"])

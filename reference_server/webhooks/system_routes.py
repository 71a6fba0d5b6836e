"""The instance's system webhooks (``/admin/hooks``, site administrators): Gitea fires them for every repository.

Gitea's API creates system hooks only (default hooks, copied into new repositories, are made in its web
interface), so ``?type=default`` lists none here; ``system`` (the default) and ``all`` list the system hooks.
"""

from __future__ import annotations

from flask import Response, request

from ..access import ADMIN
from ..endpoints import API, EMPTY, Endpoint
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import models
from .presenters import hook_to_api

__all__ = ["ENDPOINTS"]


def admin_list_hooks() -> Response:
    page = page_params()
    if request.args.get("type", "system") == "default":
        return paged_response([], page, 0)
    hooks, total = models.hooks_of(models.SYSTEM, page.limit, page.offset)
    return paged_response([hook_to_api(hook) for hook in hooks], page, total)


def admin_create_hook() -> Response:
    return json_response(hook_to_api(models.create_hook(models.SYSTEM, json_body())), status=201)


def admin_get_hook(id: str) -> Response:
    return json_response(hook_to_api(models.get_hook(models.SYSTEM, id)))


def admin_edit_hook(id: str) -> Response:
    return json_response(hook_to_api(models.edit_hook(models.SYSTEM, id, json_body())))


def admin_delete_hook(id: str) -> Response:
    models.delete_hook(models.SYSTEM, id)
    return empty()


HOOK = API + "/admin/hooks/<id>"
ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("GET", API + "/admin/hooks", "adminListHooks", admin_list_hooks, "admin", ADMIN, returns="[hook]"),
    Endpoint(
        "POST",
        API + "/admin/hooks",
        "adminCreateHook",
        admin_create_hook,
        "admin",
        ADMIN,
        body="CreateHookOption",
        status=201,
        returns="hook",
    ),
    Endpoint("GET", HOOK, "adminGetHook", admin_get_hook, "admin", ADMIN, returns="hook"),
    Endpoint("PATCH", HOOK, "adminEditHook", admin_edit_hook, "admin", ADMIN, body="EditHookOption", returns="hook"),
    Endpoint("DELETE", HOOK, "adminDeleteHook", admin_delete_hook, "admin", ADMIN, status=204, returns=EMPTY),
)

"""The webhooks of an organization (``/orgs/{org}/hooks``, its owners) and of the caller (``/user/hooks``).

They are the repository hooks' model with an account as owner (:class:`.models.HookOwner`): Gitea fires them
for the events of every repository the organization or the user owns.
"""

from __future__ import annotations

from flask import Response

from ..access import token
from ..auth import current_principal
from ..endpoints import API, EMPTY, Endpoint
from ..permissions import current_org
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import models
from .models import HookOwner
from .presenters import hook_to_api

__all__ = ["ENDPOINTS"]


def _list(owner: HookOwner) -> Response:
    page = page_params()
    hooks, total = models.hooks_of(owner, page.limit, page.offset)
    return paged_response([hook_to_api(hook) for hook in hooks], page, total)


def _org() -> HookOwner:
    return HookOwner.account(current_org().id)


def _caller() -> HookOwner:
    return HookOwner.account(current_principal().user_id)


def org_list_hooks(org: str) -> Response:
    return _list(_org())


def org_create_hook(org: str) -> Response:
    return json_response(hook_to_api(models.create_hook(_org(), json_body())), status=201)


def org_get_hook(org: str, id: str) -> Response:
    return json_response(hook_to_api(models.get_hook(_org(), id)))


def org_edit_hook(org: str, id: str) -> Response:
    return json_response(hook_to_api(models.edit_hook(_org(), id, json_body())))


def org_delete_hook(org: str, id: str) -> Response:
    models.delete_hook(_org(), id)
    return empty()


def user_list_hooks() -> Response:
    return _list(_caller())


def user_create_hook() -> Response:
    return json_response(hook_to_api(models.create_hook(_caller(), json_body())), status=201)


def user_get_hook(id: str) -> Response:
    return json_response(hook_to_api(models.get_hook(_caller(), id)))


def user_edit_hook(id: str) -> Response:
    return json_response(hook_to_api(models.edit_hook(_caller(), id, json_body())))


def user_delete_hook(id: str) -> Response:
    models.delete_hook(_caller(), id)
    return empty()


ORG_HOOKS = API + "/orgs/<org>/hooks"
ORG_RULE = token("organization", org="owner")
USER_HOOKS = API + "/user/hooks"
USER_RULE = token("user")
ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET", ORG_HOOKS, "orgListHooks", org_list_hooks, "organization", ORG_RULE, returns="[hook]", errors=(404,)
    ),
    Endpoint(
        "POST",
        ORG_HOOKS,
        "orgCreateHook",
        org_create_hook,
        "organization",
        ORG_RULE,
        body="CreateHookOption",
        status=201,
        returns="hook",
        errors=(404,),
    ),
    Endpoint(
        "GET", ORG_HOOKS + "/<id>", "orgGetHook", org_get_hook, "organization", ORG_RULE, returns="hook", errors=(404,)
    ),
    Endpoint(
        "PATCH",
        ORG_HOOKS + "/<id>",
        "orgEditHook",
        org_edit_hook,
        "organization",
        ORG_RULE,
        body="EditHookOption",
        returns="hook",
        errors=(404,),
    ),
    Endpoint(
        "DELETE",
        ORG_HOOKS + "/<id>",
        "orgDeleteHook",
        org_delete_hook,
        "organization",
        ORG_RULE,
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint("GET", USER_HOOKS, "userListHooks", user_list_hooks, "user", USER_RULE, returns="[hook]"),
    Endpoint(
        "POST",
        USER_HOOKS,
        "userCreateHook",
        user_create_hook,
        "user",
        USER_RULE,
        body="CreateHookOption",
        status=201,
        returns="hook",
    ),
    Endpoint("GET", USER_HOOKS + "/<id>", "userGetHook", user_get_hook, "user", USER_RULE, returns="hook"),
    Endpoint(
        "PATCH",
        USER_HOOKS + "/<id>",
        "userEditHook",
        user_edit_hook,
        "user",
        USER_RULE,
        body="EditHookOption",
        returns="hook",
    ),
    Endpoint(
        "DELETE", USER_HOOKS + "/<id>", "userDeleteHook", user_delete_hook, "user", USER_RULE, status=204, returns=EMPTY
    ),
)

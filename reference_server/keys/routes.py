"""REST routes of users' SSH keys, GPG keys and e-mail addresses (thin: parse, call the model, render)."""

from __future__ import annotations

from flask import Response, request

from ..access import ADMIN, token
from ..auth import current_principal
from ..endpoints import API, EMPTY, TEXT, Endpoint
from ..permissions import current_user
from ..rest import empty, json_body, json_response, page_params, paged_response
from ..users import emails
from ..users.models import User, get_user, get_user_by_name
from ..users.presenters import email_to_api
from . import gpg, ssh
from .presenters import gpg_key_to_api, public_key_to_api

__all__ = ["ENDPOINTS"]

ME = API + "/user"


def _me() -> User:
    return get_user(current_principal().user_id)


def _list_ssh(owner: User, *, everyone: bool) -> Response:
    """A page of ``owner``'s keys; with ``?fingerprint=`` the keys with it, of every account when
    ``everyone`` (Gitea's ``/user/keys``), counted without paging."""
    principal = current_principal()
    page = page_params()
    fingerprint = request.args.get("fingerprint", "")
    if fingerprint:
        found = ssh.keys_with_fingerprint(fingerprint, None if everyone else owner)
        total = len(found)
    else:
        found, total = ssh.keys_of(owner, page)
    return paged_response([public_key_to_api(key, principal) for key in found], page, total)


def user_current_list_keys() -> Response:
    """The caller's SSH keys."""
    return _list_ssh(_me(), everyone=True)


def user_list_keys(username: str) -> Response:
    """An account's SSH keys."""
    return _list_ssh(current_user(), everyone=False)


def user_current_post_key() -> Response:
    """Add an SSH key to the caller's account."""
    key = ssh.add_key(_me(), json_body())
    return json_response(public_key_to_api(key, current_principal()), status=201)


def user_current_get_key(key_id: int) -> Response:
    """An SSH key by id."""
    return json_response(public_key_to_api(ssh.get_key(key_id), current_principal()))


def user_current_delete_key(key_id: int) -> Response:
    """Remove an SSH key (the caller's, or any for a site administrator)."""
    ssh.delete_key(_me(), key_id)
    return empty()


def admin_create_public_key(username: str) -> Response:
    """Add an SSH key to an account (site admin)."""
    key = ssh.add_key(get_user_by_name(username), json_body())
    return json_response(public_key_to_api(key, current_principal()), status=201)


def admin_delete_user_public_key(username: str, key_id: int) -> Response:
    """Remove an account's SSH key (site admin), judged as that account would be: another's key is a 403."""
    ssh.delete_key(get_user_by_name(username), key_id)
    return empty()


def _list_gpg(owner: User) -> Response:
    page = page_params()
    found, total = gpg.keys_of(owner, page)
    return paged_response([gpg_key_to_api(key) for key in found], page, total)


def user_current_list_gpg_keys() -> Response:
    """The caller's GPG keys."""
    return _list_gpg(_me())


def user_list_gpg_keys(username: str) -> Response:
    """An account's GPG keys."""
    return _list_gpg(current_user())


def user_current_post_gpg_key() -> Response:
    """Import a GPG key for the caller."""
    return json_response(gpg_key_to_api(gpg.add_key(_me(), json_body())), status=201)


def user_current_get_gpg_key(key_id: int) -> Response:
    """One of the caller's GPG keys."""
    return json_response(gpg_key_to_api(gpg.get_own_key(_me(), key_id)))


def user_current_delete_gpg_key(key_id: int) -> Response:
    """Remove a GPG key and its subkeys."""
    gpg.delete_key(_me(), key_id)
    return empty()


def get_verification_token() -> Response:
    """The token to sign to prove a GPG key, as plain text."""
    return Response(gpg.verification_token(_me(), 1), status=200, content_type="text/plain; charset=utf-8")


def user_verify_gpg_key() -> Response:
    """Verify one of the caller's GPG keys with a signature of the token (200, as Gitea answers)."""
    return json_response(gpg_key_to_api(gpg.verify_key(_me(), json_body())))


def _addresses(field: str = "emails") -> list[object]:
    values = json_body().get(field) or []
    return list(values) if isinstance(values, list) else []


def user_list_emails() -> Response:
    """The caller's e-mail addresses, the primary first."""
    return json_response([email_to_api(address) for address in emails.list_emails(_me())])


def user_add_email() -> Response:
    """Add e-mail addresses; the answer lists all the caller's addresses."""
    added = emails.add_emails(_me(), _addresses())
    return json_response([email_to_api(address) for address in added], status=201)


def user_delete_email() -> Response:
    """Remove e-mail addresses (an empty list changes nothing)."""
    emails.delete_emails(_me(), _addresses())
    return empty()


_USER = token("user")
_VISIBLE = token("user", user="visible")

ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("GET", ME + "/keys", "userCurrentListKeys", user_current_list_keys, "user", _USER, returns="[public_key]"),
    Endpoint(
        "POST",
        ME + "/keys",
        "userCurrentPostKey",
        user_current_post_key,
        "user",
        _USER,
        body="CreateKeyOption",
        status=201,
        returns="public_key",
        errors=(422,),
    ),
    Endpoint(
        "GET",
        ME + "/keys/<int:key_id>",
        "userCurrentGetKey",
        user_current_get_key,
        "user",
        _USER,
        returns="public_key",
        errors=(404,),
    ),
    Endpoint(
        "DELETE",
        ME + "/keys/<int:key_id>",
        "userCurrentDeleteKey",
        user_current_delete_key,
        "user",
        _USER,
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "GET",
        API + "/users/<username>/keys",
        "userListKeys",
        user_list_keys,
        "user",
        _VISIBLE,
        returns="[public_key]",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/admin/users/<username>/keys",
        "adminCreatePublicKey",
        admin_create_public_key,
        "admin",
        ADMIN,
        body="CreateKeyOption",
        status=201,
        returns="public_key",
        errors=(403, 404, 422),
    ),
    Endpoint(
        "DELETE",
        API + "/admin/users/<username>/keys/<int:key_id>",
        "adminDeleteUserPublicKey",
        admin_delete_user_public_key,
        "admin",
        ADMIN,
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "GET",
        ME + "/gpg_keys",
        "userCurrentListGPGKeys",
        user_current_list_gpg_keys,
        "user",
        _USER,
        returns="[gpg_key]",
    ),
    Endpoint(
        "POST",
        ME + "/gpg_keys",
        "userCurrentPostGPGKey",
        user_current_post_gpg_key,
        "user",
        _USER,
        body="CreateGPGKeyOption",
        status=201,
        returns="gpg_key",
        errors=(404, 422),
    ),
    Endpoint(
        "GET",
        ME + "/gpg_keys/<int:key_id>",
        "userCurrentGetGPGKey",
        user_current_get_gpg_key,
        "user",
        _USER,
        returns="gpg_key",
        errors=(404,),
    ),
    Endpoint(
        "DELETE",
        ME + "/gpg_keys/<int:key_id>",
        "userCurrentDeleteGPGKey",
        user_current_delete_gpg_key,
        "user",
        _USER,
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "GET",
        ME + "/gpg_key_token",
        "getVerificationToken",
        get_verification_token,
        "user",
        _USER,
        returns=TEXT,
        errors=(404,),
    ),
    Endpoint(
        "POST",
        ME + "/gpg_key_verify",
        "userVerifyGPGKey",
        user_verify_gpg_key,
        "user",
        _USER,
        body="VerifyGPGKeyOption",
        returns="gpg_key",
        errors=(404, 422),
    ),
    Endpoint(
        "GET",
        API + "/users/<username>/gpg_keys",
        "userListGPGKeys",
        user_list_gpg_keys,
        "user",
        _VISIBLE,
        returns="[gpg_key]",
        errors=(404,),
    ),
    Endpoint("GET", ME + "/emails", "userListEmails", user_list_emails, "user", _USER, returns="[email]"),
    Endpoint(
        "POST",
        ME + "/emails",
        "userAddEmail",
        user_add_email,
        "user",
        _USER,
        body="CreateEmailOption",
        status=201,
        returns="[email]",
        errors=(422,),
    ),
    Endpoint(
        "DELETE",
        ME + "/emails",
        "userDeleteEmail",
        user_delete_email,
        "user",
        _USER,
        body="DeleteEmailOption",
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
)

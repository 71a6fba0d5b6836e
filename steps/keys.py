"""Steps of users' SSH keys, GPG keys and e-mail addresses.

SSH key lines come from the deploy key steps' seeded maker (``deploy_keys``), so one scenario can offer the
same key as an account's key and as a deploy key. GPG key pairs are made on the fly (``conformance.gpgkeys``),
their user ids naming the addresses a scenario chooses; signatures are real, over the forge's own token.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.keys import KeysApi
from conformance.context import ScenarioContext
from conformance.gpgkeys import GpgKeyPair, make_key
from conformance.seeding import SeededData
from steps.actors import acting
from steps.common import expect_status, response_json
from steps.deploy_keys import DeployKeys
from steps.parsing import phrase

__all__ = ["KeyNotes"]


@dataclass
class KeyNotes:
    """The scenario's SSH key ids by title, GPG key pairs by name and extra e-mail addresses by label."""

    ssh_ids: dict[str, int] = field(default_factory=dict)
    gpg_pairs: dict[str, GpgKeyPair] = field(default_factory=dict)
    gpg_ids: dict[str, int] = field(default_factory=dict)
    addresses: dict[str, str] = field(default_factory=dict)


@pytest.fixture
def key_notes() -> KeyNotes:
    """The scenario's keys and addresses."""
    return KeyNotes()


def _keys(ctx: ScenarioContext, who: str) -> KeysApi:
    return acting(ctx, who, KeysApi)


def _address(ctx: ScenarioContext, notes: KeyNotes, fake: SeededData, who: str, label: str) -> str:
    """The address ``label`` of ``who``: ``primary`` is the account's own, another label a fresh one."""
    if label == "primary":
        return ctx.user(who).email
    key = f"{who}/{label}"
    if key not in notes.addresses:
        notes.addresses[key] = fake.email(f"{ctx.user(who).username}-{label}")
    return notes.addresses[key]


# ---------------------------------------------------------------- SSH keys


@given(phrase('"{who}" has the SSH key "{name}" titled "{title}"'))
def given_ssh_key(
    ctx: ScenarioContext,
    deploy_keys: DeployKeys,
    key_notes: KeyNotes,
    fake: SeededData,
    *,
    who: str,
    name: str,
    title: str,
) -> None:
    """An Ed25519 key added by the user."""
    response = _keys(ctx, who).add_ssh_key(title, deploy_keys.make(fake, name, "ed25519"))
    key_notes.ssh_ids[title] = int(expect_status(response, 201, f'adding the SSH key "{title}"')["id"])


@when(phrase('"{who}" adds the "{kind}" public key "{name}" to their account titled "{title}"'))
def when_add_ssh_key(
    ctx: ScenarioContext, deploy_keys: DeployKeys, fake: SeededData, *, who: str, kind: str, name: str, title: str
) -> None:
    """``POST /user/keys`` with a public key line (``ed25519`` or ``weak rsa``)."""
    ctx.response = _keys(ctx, who).add_ssh_key(title, deploy_keys.make(fake, name, kind))


@when(phrase('"{who}" adds the text "{text}" to their account as an SSH key titled "{title}"'))
def when_add_ssh_text(ctx: ScenarioContext, who: str, text: str, title: str) -> None:
    """``POST /user/keys`` with a text that is no public key."""
    ctx.response = _keys(ctx, who).add_ssh_key(title, text)


@when(phrase('the admin adds the "{kind}" public key "{name}" to the account of "{owner}" titled "{title}"'))
def when_admin_add_ssh_key(
    ctx: ScenarioContext, deploy_keys: DeployKeys, fake: SeededData, *, kind: str, name: str, owner: str, title: str
) -> None:
    """``POST /admin/users/{username}/keys``."""
    key = deploy_keys.make(fake, name, kind)
    ctx.response = _keys(ctx, "the admin").admin_add_ssh_key(ctx.user(owner).username, title, key)


@when(phrase('"{who}" reads the SSH key titled "{title}"'))
def when_read_ssh_key(ctx: ScenarioContext, key_notes: KeyNotes, who: str, title: str) -> None:
    """``GET /user/keys/{id}``."""
    ctx.response = _keys(ctx, who).ssh_key(key_notes.ssh_ids[title])


@when(phrase('"{who}" reads an SSH key that does not exist'))
def when_read_missing_ssh_key(ctx: ScenarioContext, who: str) -> None:
    """``GET /user/keys/{id}`` of an id no key has."""
    ctx.response = _keys(ctx, who).ssh_key(2**62)


@when(phrase('"{who}" deletes the SSH key titled "{title}"'))
def when_delete_ssh_key(ctx: ScenarioContext, key_notes: KeyNotes, who: str, title: str) -> None:
    """``DELETE /user/keys/{id}``."""
    ctx.response = _keys(ctx, who).delete_ssh_key(key_notes.ssh_ids[title])


@when(phrase('the admin deletes the SSH key titled "{title}" through the account of "{owner}"'))
def when_admin_delete_ssh_key(ctx: ScenarioContext, key_notes: KeyNotes, title: str, owner: str) -> None:
    """``DELETE /admin/users/{username}/keys/{id}``."""
    ctx.response = _keys(ctx, "the admin").admin_delete_ssh_key(ctx.user(owner).username, key_notes.ssh_ids[title])


@when(phrase('"{who}" lists their SSH keys'))
def when_list_my_ssh_keys(ctx: ScenarioContext, who: str) -> None:
    """``GET /user/keys``."""
    ctx.response = _keys(ctx, who).my_ssh_keys()


@when(phrase('"{who}" lists their SSH keys with the fingerprint of "{name}"'))
def when_list_my_ssh_keys_by_fingerprint(ctx: ScenarioContext, deploy_keys: DeployKeys, who: str, name: str) -> None:
    """``GET /user/keys?fingerprint=``: Gitea searches every account's keys."""
    ctx.response = _keys(ctx, who).my_ssh_keys(deploy_keys.fingerprint(name))


@when(phrase('"{who}" lists the SSH keys of "{owner}"'))
def when_list_ssh_keys_of(ctx: ScenarioContext, who: str, owner: str) -> None:
    """``GET /users/{username}/keys``."""
    ctx.response = _keys(ctx, who).ssh_keys_of(ctx.user(owner).username)


@when(phrase('"{who}" lists the SSH keys of "{owner}" with the fingerprint of "{name}"'))
def when_list_ssh_keys_of_by_fingerprint(
    ctx: ScenarioContext, deploy_keys: DeployKeys, who: str, owner: str, name: str
) -> None:
    """``GET /users/{username}/keys?fingerprint=``: that account's keys only."""
    ctx.response = _keys(ctx, who).ssh_keys_of(ctx.user(owner).username, deploy_keys.fingerprint(name))


def _check_ssh_key(body: Any, deploy_keys: DeployKeys, name: str, title: str) -> None:
    expected = " ".join(deploy_keys.lines[name].split()[:2])
    assert body["key"] == expected, f"key is {body['key']!r}, expected {expected!r}"
    assert body["fingerprint"] == deploy_keys.fingerprint(name), f"fingerprint is {body['fingerprint']!r}"
    assert body["title"] == title, f"title is {body['title']!r}"
    assert str(body["url"]).endswith(f"/user/keys/{body['id']}"), f"url is {body['url']!r}"


@then(phrase('the answer is the SSH key "{name}" titled "{title}" of "{owner}"'))
def then_ssh_key_answer(ctx: ScenarioContext, deploy_keys: DeployKeys, name: str, title: str, owner: str) -> None:
    """The ``PublicKey`` with what its owner (or an administrator) sees: the owner, the type, the access."""
    body = response_json(ctx)
    _check_ssh_key(body, deploy_keys, name, title)
    assert body.get("key_type") == "user", f"key_type is {body.get('key_type')!r}"
    assert body.get("read_only") is False, f"read_only is {body.get('read_only')!r}"
    assert (body.get("user") or {}).get("login") == ctx.user(owner).username, f"user is {body.get('user')!r}"


@then(phrase('the list holds only the SSH key "{name}" titled "{title}" of "{owner}"'))
def then_ssh_key_listed(ctx: ScenarioContext, deploy_keys: DeployKeys, name: str, title: str, owner: str) -> None:
    """A list of exactly that key, as its owner sees it."""
    body = response_json(ctx)
    assert isinstance(body, list) and len(body) == 1, f"listed: {body!r}"
    _check_ssh_key(body[0], deploy_keys, name, title)
    assert (body[0].get("user") or {}).get("login") == ctx.user(owner).username, f"user is {body[0].get('user')!r}"


@then(phrase('the list holds only the SSH key "{name}" titled "{title}", without its owner'))
def then_ssh_key_listed_public(ctx: ScenarioContext, deploy_keys: DeployKeys, name: str, title: str) -> None:
    """A list of exactly that key as another user sees it: no owner, type or access."""
    body = response_json(ctx)
    assert isinstance(body, list) and len(body) == 1, f"listed: {body!r}"
    _check_ssh_key(body[0], deploy_keys, name, title)
    hidden = {"user", "key_type", "read_only"} & set(body[0])
    assert not hidden, f"another user sees {sorted(hidden)}"


@then(phrase('"{owner}" has no SSH keys'))
def then_no_ssh_keys(ctx: ScenarioContext, owner: str) -> None:
    """The owner's own list is empty."""
    listed = expect_status(_keys(ctx, owner).my_ssh_keys(), 200, "listing the SSH keys")
    assert listed == [], f"still listed: {listed!r}"


# ---------------------------------------------------------------- GPG keys


@given(phrase('a GPG key pair "{name}" naming the "{label}" e-mail address of "{who}"'))
def given_gpg_pair(
    ctx: ScenarioContext, key_notes: KeyNotes, fake: SeededData, *, name: str, label: str, who: str
) -> None:
    """A fresh key pair whose only user id carries that address (``primary``: the account's own)."""
    key_notes.gpg_pairs[name] = make_key(ctx.user(who).username, [_address(ctx, key_notes, fake, who, label)])


@given(phrase('"{who}" has imported the GPG key "{name}"'))
def given_gpg_imported(ctx: ScenarioContext, key_notes: KeyNotes, who: str, name: str) -> None:
    """``POST /user/gpg_keys`` without a signature succeeded."""
    body = expect_status(_keys(ctx, who).add_gpg_key(key_notes.gpg_pairs[name].armored_public), 201, "import")
    key_notes.gpg_ids[name] = int(body["id"])


@when(phrase('"{who}" imports the GPG key "{name}"'))
def when_import_gpg(ctx: ScenarioContext, key_notes: KeyNotes, who: str, name: str) -> None:
    """``POST /user/gpg_keys`` without a signature."""
    ctx.response = _keys(ctx, who).add_gpg_key(key_notes.gpg_pairs[name].armored_public)


def _token(ctx: ScenarioContext, who: str) -> str:
    response = _keys(ctx, who).verification_token()
    assert response.status_code == 200, f"reading the verification token: {response.status_code} {response.text[:200]}"
    return response.text.strip()


@when(phrase('"{who}" imports the GPG key "{name}" signed by "{signer}" over their verification token'))
def when_import_gpg_signed(ctx: ScenarioContext, key_notes: KeyNotes, who: str, name: str, signer: str) -> None:
    """``POST /user/gpg_keys`` with a detached signature of the caller's token made by the key ``signer``."""
    signature = key_notes.gpg_pairs[signer].sign(_token(ctx, who))
    ctx.response = _keys(ctx, who).add_gpg_key(key_notes.gpg_pairs[name].armored_public, signature)


@when(phrase('"{who}" imports the text "{text}" as a GPG key'))
def when_import_gpg_text(ctx: ScenarioContext, who: str, text: str) -> None:
    """``POST /user/gpg_keys`` with a text that is no armored key."""
    ctx.response = _keys(ctx, who).add_gpg_key(text)


@when(phrase('"{who}" verifies the GPG key "{name}" with a signature by "{signer}" of their verification token'))
def when_verify_gpg(ctx: ScenarioContext, key_notes: KeyNotes, who: str, name: str, signer: str) -> None:
    """``POST /user/gpg_key_verify``."""
    signature = key_notes.gpg_pairs[signer].sign(_token(ctx, who))
    ctx.response = _keys(ctx, who).verify_gpg_key(key_notes.gpg_pairs[name].key_id, signature)


@when(phrase('"{who}" asks for their GPG verification token'))
def when_ask_token(ctx: ScenarioContext, who: str) -> None:
    """``GET /user/gpg_key_token``."""
    ctx.response = _keys(ctx, who).verification_token()


@when(phrase('"{who}" reads the GPG key "{name}"'))
def when_read_gpg(ctx: ScenarioContext, key_notes: KeyNotes, who: str, name: str) -> None:
    """``GET /user/gpg_keys/{id}``."""
    ctx.response = _keys(ctx, who).gpg_key(key_notes.gpg_ids[name])


@when(phrase('"{who}" deletes the GPG key "{name}"'))
def when_delete_gpg(ctx: ScenarioContext, key_notes: KeyNotes, who: str, name: str) -> None:
    """``DELETE /user/gpg_keys/{id}``."""
    ctx.response = _keys(ctx, who).delete_gpg_key(key_notes.gpg_ids[name])


@when(phrase('"{who}" lists their GPG keys'))
def when_list_my_gpg(ctx: ScenarioContext, who: str) -> None:
    """``GET /user/gpg_keys``."""
    ctx.response = _keys(ctx, who).my_gpg_keys()


@when(phrase('"{who}" lists the GPG keys of "{owner}"'))
def when_list_gpg_of(ctx: ScenarioContext, who: str, owner: str) -> None:
    """``GET /users/{username}/gpg_keys``."""
    ctx.response = _keys(ctx, who).gpg_keys_of(ctx.user(owner).username)


def _check_gpg(body: Any, pair: GpgKeyPair, *, verified: bool, emails: list[str]) -> None:
    assert body["key_id"] == pair.key_id, f"key_id is {body['key_id']!r}, expected {pair.key_id!r}"
    assert body["primary_key_id"] == "", f"primary_key_id is {body['primary_key_id']!r}"
    assert body["verified"] is verified, f"verified is {body['verified']!r}"
    found = [item["email"].lower() for item in body["emails"] or []]
    assert found == [email.lower() for email in emails], f"emails are {body['emails']!r}, expected {emails!r}"
    assert body["can_sign"] is True and body["can_certify"] is True, f"an Ed25519 key signs: {body!r}"
    assert body["can_encrypt_comms"] is False, f"an Ed25519 key does not encrypt: {body!r}"
    subkeys = body["subkeys"] or []
    assert [sub["key_id"] for sub in subkeys] == pair.subkey_ids, f"subkeys are {subkeys!r}"
    assert all(sub["primary_key_id"] == pair.key_id and sub["can_encrypt_storage"] for sub in subkeys), subkeys


@then(phrase('the answer is the GPG key "{name}", unverified, naming the "{label}" e-mail address of "{who}"'))
def then_gpg_unverified(
    ctx: ScenarioContext, key_notes: KeyNotes, fake: SeededData, *, name: str, label: str, who: str
) -> None:
    """The ``GPGKey``: its ids, its encryption subkey, and the one address of the user its user id names."""
    email = _address(ctx, key_notes, fake, who, label)
    _check_gpg(response_json(ctx), key_notes.gpg_pairs[name], verified=False, emails=[email])


@then(phrase('the answer is the GPG key "{name}", verified, naming no e-mail address'))
def then_gpg_verified_bare(ctx: ScenarioContext, key_notes: KeyNotes, name: str) -> None:
    """A signed key whose user id names none of the user's addresses: verified, with no address."""
    _check_gpg(response_json(ctx), key_notes.gpg_pairs[name], verified=True, emails=[])


@then(phrase('the answer is the GPG key "{name}", verified, naming the "{label}" e-mail address of "{who}"'))
def then_gpg_verified(
    ctx: ScenarioContext, key_notes: KeyNotes, fake: SeededData, *, name: str, label: str, who: str
) -> None:
    """The key after a verification."""
    email = _address(ctx, key_notes, fake, who, label)
    _check_gpg(response_json(ctx), key_notes.gpg_pairs[name], verified=True, emails=[email])


@then(phrase('the list holds only the GPG key "{name}"'))
def then_gpg_listed(ctx: ScenarioContext, key_notes: KeyNotes, name: str) -> None:
    """A list of exactly that primary key (its subkeys inside it, not beside it)."""
    body = response_json(ctx)
    assert isinstance(body, list), f"not a list: {body!r}"
    assert [item["key_id"] for item in body] == [key_notes.gpg_pairs[name].key_id], f"listed: {body!r}"


@then(phrase('"{owner}" has no GPG keys'))
def then_no_gpg(ctx: ScenarioContext, owner: str) -> None:
    """The owner's own list is empty."""
    listed = expect_status(_keys(ctx, owner).my_gpg_keys(), 200, "listing the GPG keys")
    assert listed == [], f"still listed: {listed!r}"


@then(phrase("the answer is a verification token of 64 hexadecimal digits"))
def then_token_text(ctx: ScenarioContext) -> None:
    """Gitea's token: a SHA-256 in hexadecimal, as plain text."""
    text = ctx.last_response().text.strip()
    assert re.fullmatch(r"[0-9a-f]{64}", text), f"token is {text!r}"


@then(phrase('the error message mentions the verification token of "{who}"'))
def then_message_has_token(ctx: ScenarioContext, who: str) -> None:
    """Gitea's refusal tells the token to sign."""
    message = str(response_json(ctx).get("message", ""))
    token = _token(ctx, who)
    assert token in message, f"{token!r} not in {message!r}"


# ---------------------------------------------------------------- e-mail addresses


@given(phrase('"{who}" has added the "{label}" e-mail address'))
def given_email(ctx: ScenarioContext, key_notes: KeyNotes, fake: SeededData, who: str, label: str) -> None:
    """``POST /user/emails`` of one fresh address succeeded."""
    address = _address(ctx, key_notes, fake, who, label)
    expect_status(_keys(ctx, who).add_emails([address]), 201, f"adding {address}")


@when(phrase('"{who}" adds the "{label}" e-mail address of "{owner}"'))
def when_add_email(
    ctx: ScenarioContext, key_notes: KeyNotes, fake: SeededData, *, who: str, label: str, owner: str
) -> None:
    """``POST /user/emails`` of one address (``primary``: the owner's own; another label: a fresh one)."""
    ctx.response = _keys(ctx, who).add_emails([_address(ctx, key_notes, fake, owner, label)])


@when(phrase('"{who}" adds the e-mail addresses "{text}"'))
def when_add_email_text(ctx: ScenarioContext, who: str, text: str) -> None:
    """``POST /user/emails`` of the comma-separated texts as given (empty: an empty list)."""
    ctx.response = _keys(ctx, who).add_emails([part.strip() for part in text.split(",") if part.strip()])


@when(phrase('"{who}" deletes the "{label}" e-mail address of "{owner}"'))
def when_delete_email(
    ctx: ScenarioContext, key_notes: KeyNotes, fake: SeededData, *, who: str, label: str, owner: str
) -> None:
    """``DELETE /user/emails`` of one address."""
    ctx.response = _keys(ctx, who).delete_emails([_address(ctx, key_notes, fake, owner, label)])


@when(phrase('"{who}" lists their e-mail addresses'))
def when_list_emails(ctx: ScenarioContext, who: str) -> None:
    """``GET /user/emails``."""
    ctx.response = _keys(ctx, who).emails()


def _listed_emails(body: Any) -> list[tuple[str, bool]]:
    assert isinstance(body, list), f"not a list: {body!r}"
    return [(str(item["email"]).lower(), bool(item["primary"])) for item in body]


@then(phrase('the answer lists the primary e-mail address of "{who}" and its "{label}" one'))
def then_emails_two(ctx: ScenarioContext, key_notes: KeyNotes, fake: SeededData, who: str, label: str) -> None:
    """The primary address, then the added one (not primary, verified), all of the user's."""
    body = response_json(ctx)
    primary, extra = ctx.user(who).email.lower(), _address(ctx, key_notes, fake, who, label).lower()
    assert _listed_emails(body) == [(primary, True), (extra, False)], f"listed: {body!r}"
    assert all(item["verified"] is True and item["username"] == ctx.user(who).username for item in body), body


@then(phrase('the e-mail addresses of "{who}" are only its primary one'))
def then_emails_primary_only(ctx: ScenarioContext, who: str) -> None:
    """The user's own list holds its primary address alone."""
    listed = expect_status(_keys(ctx, who).emails(), 200, "listing the e-mail addresses")
    assert _listed_emails(listed) == [(ctx.user(who).email.lower(), True)], f"listed: {listed!r}"

"""Steps of SSH deploy keys (``POST /repos/{owner}/{repo}/keys``), listed with the deploy tokens.

Keys are made here without a key generator: an Ed25519 public key is any 32 bytes in the SSH wire format,
and a too-short RSA key any 2048-bit modulus, which is all a forge parses; the scenario's seed draws them.
"""

from __future__ import annotations

import base64
import hashlib
import struct
from dataclasses import dataclass, field

import pytest
from pytest_bdd import given, then, when

from conformance.api.deploy_tokens import DeployTokensApi
from conformance.context import ScenarioContext
from conformance.seeding import SeededData
from steps.actors import acting, repo_owner
from steps.common import expect_status, response_json
from steps.parsing import phrase

__all__ = ["DeployKeys"]


def _wire(*fields: bytes) -> bytes:
    return b"".join(struct.pack(">I", len(part)) + part for part in fields)


@dataclass
class DeployKeys:
    """The scenario's SSH public keys by name (``<type> <base64> <comment>``) and their blobs."""

    lines: dict[str, str] = field(default_factory=dict)
    blobs: dict[str, bytes] = field(default_factory=dict)
    ids: dict[str, int] = field(default_factory=dict)
    """The ids of the keys Given steps added, by title."""

    def make(self, fake: SeededData, name: str, kind: str) -> str:
        """A public key line of ``kind`` (``ed25519``, or ``weak rsa`` of 2048 bits) drawn from the seed."""
        if name not in self.lines:
            if kind == "ed25519":
                blob = _wire(b"ssh-ed25519", fake.data(32))
                key_type = "ssh-ed25519"
            else:
                modulus = int.from_bytes(fake.data(256), "big") | (1 << 2047) | 1
                blob = _wire(b"ssh-rsa", (65537).to_bytes(3, "big"), b"\x00" + modulus.to_bytes(256, "big"))
                key_type = "ssh-rsa"
            self.blobs[name] = blob
            self.lines[name] = f"{key_type} {base64.b64encode(blob).decode()} {name}@conformance"
        return self.lines[name]

    def fingerprint(self, name: str) -> str:
        """The SHA256 fingerprint ``ssh-keygen -l`` prints for the key."""
        return "SHA256:" + base64.b64encode(hashlib.sha256(self.blobs[name]).digest()).decode().rstrip("=")


@pytest.fixture
def deploy_keys() -> DeployKeys:
    """The scenario's SSH public keys."""
    return DeployKeys()


def _add(ctx: ScenarioContext, who: str, repo: str, title: str, line: str) -> None:
    """``POST .../keys`` of a read-only key, as ``who`` (the repository's owner when empty)."""
    ref = ctx.repo(repo)
    api = repo_owner(ctx, repo).area(DeployTokensApi) if who == "" else acting(ctx, who, DeployTokensApi)
    ctx.response = api.create_key(ref.owner, ref.name, title, line, read_only=True)


@given(phrase('the repository "{repo}" has the deploy key "{name}" titled "{title}"'))
def given_key(
    ctx: ScenarioContext, deploy_keys: DeployKeys, fake: SeededData, *, repo: str, name: str, title: str
) -> None:
    """A read-only Ed25519 deploy key added by the repository's owner."""
    _add(ctx, "", repo, title, deploy_keys.make(fake, name, "ed25519"))
    added = expect_status(ctx.last_response(), 201, f'adding the deploy key "{title}"')
    deploy_keys.ids[title] = int(added["id"])


@when(phrase('"{who}" reads the deploy key titled "{title}" of "{repo}"'))
def when_read_key(ctx: ScenarioContext, deploy_keys: DeployKeys, *, who: str, title: str, repo: str) -> None:
    """``GET .../keys/{id}`` of a key a Given step added."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, DeployTokensApi).get_key(ref.owner, ref.name, deploy_keys.ids[title])


@when(phrase('"{who}" adds the "{kind}" public key "{name}" to "{repo}" as a deploy key titled "{title}"'))
def when_add_key(
    ctx: ScenarioContext,
    deploy_keys: DeployKeys,
    fake: SeededData,
    *,
    who: str,
    kind: str,
    name: str,
    repo: str,
    title: str,
) -> None:
    """``POST .../keys`` with a public key line (``ed25519`` or ``weak rsa``), read-only."""
    _add(ctx, who, repo, title, deploy_keys.make(fake, name, kind))


@when(phrase('"{who}" adds the text "{text}" to "{repo}" as a deploy key titled "{title}"'))
def when_add_text(ctx: ScenarioContext, who: str, text: str, repo: str, title: str) -> None:
    """``POST .../keys`` with a key text that is no public key."""
    _add(ctx, who, repo, title, text)


@then(phrase('the answer is the read-only deploy key "{name}" titled "{title}" with its fingerprint'))
def then_key_answer(ctx: ScenarioContext, deploy_keys: DeployKeys, name: str, title: str) -> None:
    """The ``DeployKey``: the key without its comment, its SHA256 fingerprint, title and access."""
    body = response_json(ctx)
    expected_key = " ".join(deploy_keys.lines[name].split()[:2])
    assert body["key"] == expected_key, f"key is {body['key']!r}, expected {expected_key!r}"
    assert body["fingerprint"] == deploy_keys.fingerprint(name), f"fingerprint is {body['fingerprint']!r}"
    assert body["title"] == title and body["read_only"] is True, (
        f"title/read_only: {body['title']}, {body['read_only']}"
    )
    assert str(body["url"]).endswith(f"/keys/{body['id']}"), f"url is {body['url']!r}"


@then(phrase('the key list of "{repo}" holds the deploy key "{name}" titled "{title}"'))
def then_key_listed(ctx: ScenarioContext, deploy_keys: DeployKeys, repo: str, name: str, title: str) -> None:
    """The repository's ``/keys`` list (shared with deploy tokens) shows the key with its fingerprint."""
    ref = ctx.repo(repo)
    listed = expect_status(repo_owner(ctx, repo).area(DeployTokensApi).list_keys(ref.owner, ref.name), 200, "keys")
    found = {item["title"]: item for item in listed}
    assert title in found, f"{title!r} is not listed: {sorted(found)}"
    assert found[title]["fingerprint"] == deploy_keys.fingerprint(name), f"listed as {found[title]}"

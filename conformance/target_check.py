"""Whether a target answers as a forge and accepts the admin token, checked before anything runs: one clear
line and exit status 4 when it does not (used by the plugin and by the profile choice of the reports)."""

from __future__ import annotations

from typing import NoReturn

import pytest
import requests

from .client import HttpClient, Recorder, TokenAuth, json_of
from .target import Target, api_url_of

__all__ = ["TARGET_UNUSABLE_EXIT", "check_live_target", "check_target", "unusable"]

TARGET_UNUSABLE_EXIT = 4


def unusable(reason: str) -> NoReturn:
    """Stop the run with one line and the exit status of an unusable target."""
    pytest.exit(f"conformance: {reason}", returncode=TARGET_UNUSABLE_EXIT)


def check_live_target(base_url: str, token: str) -> str:
    """The version of a live target, read before collection to pick its profile (exit status 4 when unusable)."""
    return check_target(Target(base_url=base_url, admin_token=token, is_embedded=False))


def check_target(target: Target) -> str:
    """The target's version; exit with one clear line when it does not answer as a forge or refuses the token."""
    api_url = api_url_of(target.base_url)
    anonymous = HttpClient(api_url, recorder=Recorder(), timeout=15)
    admin = anonymous.with_auth(TokenAuth(target.admin_token))
    try:
        version = anonymous.get("version")
        me = admin.get("user")
    except requests.RequestException as error:
        unusable(f"the target {target.base_url} does not answer: {error}")
    finally:
        anonymous.close()
        admin.close()
    try:
        body = json_of(version)
    except AssertionError:
        unusable(f"{api_url}version did not answer JSON; is {target.base_url} a forge?")
    if version.status_code != 200 or not isinstance(body, dict) or not isinstance(body.get("version"), str):
        unusable(f"{api_url}version answered {version.status_code} without a version")
    if me.status_code != 200:
        unusable(f"the target refuses the admin token (GET {api_url}user answered {me.status_code})")
    return str(body["version"])

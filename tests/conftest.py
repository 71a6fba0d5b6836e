"""Fixtures for the kit's own unit tests: a fresh reference app per test (Flask's ``flaskr`` pattern)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from reference_server.app import create_app
from reference_server.config import Config
from reference_server.passwords import FAST_COST

ADMIN_TOKEN = "0123456789abcdef0123456789abcdef01234567"
ADMIN_PASSWORD = "admin-password-1"
LOCAL_TESTS_HOSTS = "external,loopback"
"""These tests run their webhook receivers and Git remotes on loopback; the default (``external``) refuses it."""


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """A reference server over a temporary data directory, with a known admin token.

    Passwords are hashed at scrypt's test cost, as by the embedded server of the suite (``--password-cost
    fast``): the standard cost spent ~50 ms of CPU per user made and per wrong password, in a thousand tests.
    Verification reads the cost from the hash, so the paths are the same; ``test_server_passwords`` holds the
    standard cost itself."""
    config = Config(
        data_dir=tmp_path / "data",
        base_url="http://forge.test/",
        admin_token=ADMIN_TOKEN,
        admin_password=ADMIN_PASSWORD,
        test_hooks=True,
        webhook_allowed_hosts=LOCAL_TESTS_HOSTS,
        migrations_allowed_hosts=LOCAL_TESTS_HOSTS,
        password_cost=FAST_COST,
    )
    application = create_app(config)
    application.testing = True
    yield application
    application.extensions["forge"].db.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def admin_headers() -> dict[str, str]:
    return {"Authorization": f"token {ADMIN_TOKEN}"}

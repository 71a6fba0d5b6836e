"""ActivityPub and nodeinfo answer 501 "Not implemented" in plain text, and stay out of the API description."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask.testing import FlaskClient

from reference_server.app import create_app
from reference_server.config import Config


@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "PATCH", "DELETE"])
@pytest.mark.parametrize(
    "path", ["/api/v1/activitypub", "/api/v1/activitypub/user-id/1", "/api/v1/activitypub/user-id/1/inbox"]
)
def test_activitypub_is_not_implemented_for_any_method_and_path(client: FlaskClient, method: str, path: str) -> None:
    response = client.open(path, method=method)
    assert response.status_code == 501
    assert response.mimetype == "text/plain"
    assert response.get_data(as_text=True) == "Not implemented"


def test_nodeinfo_is_not_implemented(client: FlaskClient) -> None:
    response = client.get("/api/v1/nodeinfo")
    assert (response.status_code, response.mimetype, response.get_data(as_text=True)) == (
        501,
        "text/plain",
        "Not implemented",
    )


def test_a_token_needs_the_activitypub_scope(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    created = client.post(
        "/api/v1/admin/users",
        json={"username": "carol", "email": "carol@example.test", "password": "pw-carol-carol"},
        headers=admin_headers,
    )
    assert created.status_code == 201
    token = client.post(
        "/api/v1/users/carol/tokens",
        json={"name": "narrow", "scopes": ["read:repository"]},
        auth=("carol", "pw-carol-carol"),
    )
    assert token.status_code == 201, token.get_data(as_text=True)
    narrow = {"Authorization": f"token {token.get_json()['sha1']}"}
    refused = client.get("/api/v1/activitypub/user-id/1", headers=narrow)
    assert refused.status_code == 403 and "activitypub" in refused.get_json()["message"]
    assert client.get("/api/v1/activitypub/user-id/1", headers=admin_headers).status_code == 501


def test_bad_credentials_are_refused_first(client: FlaskClient) -> None:
    assert client.get("/api/v1/activitypub/x", headers={"Authorization": "token nope"}).status_code == 401


def test_neighbouring_paths_are_untouched(client: FlaskClient) -> None:
    assert client.get("/api/v1/activitypubx").status_code == 404
    assert client.get("/api/v1/version").status_code == 200


def test_the_api_description_leaves_them_out(client: FlaskClient) -> None:
    for document in ("/swagger.v1.json", "/openapi3.v1.json"):
        paths = client.get(document).get_json()["paths"]
        assert not [path for path in paths if path.startswith(("/activitypub", "/nodeinfo"))]


def test_under_a_sub_path(tmp_path: Path) -> None:
    config = Config(data_dir=tmp_path / "data", base_url="http://forge.test/sub/", admin_token="a" * 40)
    app = create_app(config)
    try:
        response = app.test_client().get("/sub/api/v1/activitypub/user-id/1")
        assert (response.status_code, response.get_data(as_text=True)) == (501, "Not implemented")
    finally:
        app.extensions["forge"].db.close()

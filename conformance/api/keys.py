"""Users' SSH keys, GPG keys and e-mail addresses, and the site administrator's key routes."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["KeysApi"]


class KeysApi(ApiArea):
    """Gitea's key and e-mail operations of an account (``api.area(KeysApi)``)."""

    # -- SSH keys -----------------------------------------------------------------------------------

    def add_ssh_key(self, title: str, key: str) -> requests.Response:
        """``POST /user/keys`` (201 with the ``PublicKey``)."""
        return self.http.post("user/keys", json={"title": title, "key": key})

    def my_ssh_keys(self, fingerprint: str | None = None) -> requests.Response:
        """``GET /user/keys``, optionally ``?fingerprint=`` (which searches every account's keys)."""
        return self.http.get("user/keys", params={"fingerprint": fingerprint} if fingerprint else None)

    def ssh_keys_of(self, username: str, fingerprint: str | None = None) -> requests.Response:
        """``GET /users/{username}/keys``."""
        params = {"fingerprint": fingerprint} if fingerprint else None
        return self.http.get(f"users/{quote_path(username)}/keys", params=params)

    def ssh_key(self, key_id: int) -> requests.Response:
        """``GET /user/keys/{id}``."""
        return self.http.get(f"user/keys/{key_id}")

    def delete_ssh_key(self, key_id: int) -> requests.Response:
        """``DELETE /user/keys/{id}`` (204)."""
        return self.http.delete(f"user/keys/{key_id}")

    def admin_add_ssh_key(self, username: str, title: str, key: str) -> requests.Response:
        """``POST /admin/users/{username}/keys`` (site admin)."""
        return self.http.post(f"admin/users/{quote_path(username)}/keys", json={"title": title, "key": key})

    def admin_delete_ssh_key(self, username: str, key_id: int) -> requests.Response:
        """``DELETE /admin/users/{username}/keys/{id}`` (site admin)."""
        return self.http.delete(f"admin/users/{quote_path(username)}/keys/{key_id}")

    # -- GPG keys -----------------------------------------------------------------------------------

    def add_gpg_key(self, armored_key: str, signature: str | None = None) -> requests.Response:
        """``POST /user/gpg_keys`` with the armored public key and, optionally, a signature of the token."""
        body: dict[str, Any] = {"armored_public_key": armored_key}
        if signature is not None:
            body["armored_signature"] = signature
        return self.http.post("user/gpg_keys", json=body)

    def my_gpg_keys(self) -> requests.Response:
        """``GET /user/gpg_keys``."""
        return self.http.get("user/gpg_keys")

    def gpg_keys_of(self, username: str) -> requests.Response:
        """``GET /users/{username}/gpg_keys``."""
        return self.http.get(f"users/{quote_path(username)}/gpg_keys")

    def gpg_key(self, key_id: int) -> requests.Response:
        """``GET /user/gpg_keys/{id}``."""
        return self.http.get(f"user/gpg_keys/{key_id}")

    def delete_gpg_key(self, key_id: int) -> requests.Response:
        """``DELETE /user/gpg_keys/{id}`` (204)."""
        return self.http.delete(f"user/gpg_keys/{key_id}")

    def verification_token(self) -> requests.Response:
        """``GET /user/gpg_key_token``: the text to sign, as plain text."""
        return self.http.get("user/gpg_key_token")

    def verify_gpg_key(self, key_id: str, signature: str) -> requests.Response:
        """``POST /user/gpg_key_verify`` with the key id and a signature of the token."""
        return self.http.post("user/gpg_key_verify", json={"key_id": key_id, "armored_signature": signature})

    # -- e-mail addresses ---------------------------------------------------------------------------

    def emails(self) -> requests.Response:
        """``GET /user/emails``."""
        return self.http.get("user/emails")

    def add_emails(self, emails: list[str]) -> requests.Response:
        """``POST /user/emails`` (201 with all the caller's addresses)."""
        return self.http.post("user/emails", json={"emails": emails})

    def delete_emails(self, emails: list[str]) -> requests.Response:
        """``DELETE /user/emails`` (204)."""
        return self.http.delete("user/emails", json={"emails": emails})

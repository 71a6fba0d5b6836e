"""License, gitignore and label templates (public), and repository creation that names templates."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["TemplatesApi"]


class TemplatesApi(ApiArea):
    """``/licenses``, ``/gitignore/templates``, ``/label/templates`` and ``POST /user/repos`` with template options."""

    def list_licenses(self) -> requests.Response:
        """``GET /licenses``: ``[{key, name, url}]``."""
        return self.http.get("licenses")

    def get_license(self, name: str) -> requests.Response:
        """``GET /licenses/{name}``: ``{key, name, url, implementation, body}``."""
        return self.http.get(f"licenses/{quote_path(name)}")

    def list_gitignores(self) -> requests.Response:
        """``GET /gitignore/templates``: the template names."""
        return self.http.get("gitignore/templates")

    def get_gitignore(self, name: str) -> requests.Response:
        """``GET /gitignore/templates/{name}``: ``{name, source}``."""
        return self.http.get(f"gitignore/templates/{quote_path(name)}")

    def list_label_templates(self) -> requests.Response:
        """``GET /label/templates``: the template names."""
        return self.http.get("label/templates")

    def get_label_template(self, name: str) -> requests.Response:
        """``GET /label/templates/{name}``: the template's labels."""
        return self.http.get(f"label/templates/{quote_path(name)}")

    def create_repo(self, body: dict[str, Any], *, org: str | None = None) -> requests.Response:
        """``POST /user/repos`` (or ``/orgs/{org}/repos``) with ``CreateRepoOption`` exactly as given."""
        path = f"orgs/{quote_path(org)}/repos" if org else "user/repos"
        return self.http.post(path, json=body)

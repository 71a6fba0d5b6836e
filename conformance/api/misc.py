"""The version and the API description documents."""

from __future__ import annotations

import requests

from .base import ApiArea

__all__ = ["MiscApi"]


class MiscApi(ApiArea):
    """``GET /version`` under the API root; the description documents under the site root."""

    def version(self) -> requests.Response:
        """``GET /api/v1/version``."""
        return self.http.get("version")

    def swagger(self) -> requests.Response:
        """``GET /swagger.v1.json`` (Swagger 2.0)."""
        return self.http.get(self.absolute("swagger.v1.json"))

    def openapi3(self) -> requests.Response:
        """``GET /openapi3.v1.json`` (OpenAPI 3)."""
        return self.http.get(self.absolute("openapi3.v1.json"))

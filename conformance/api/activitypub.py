"""ActivityPub and nodeinfo routes, which the specification says answer 501 (not implemented)."""

from __future__ import annotations

import requests

from .base import ApiArea, quote_path

__all__ = ["ActivityPubApi"]


class ActivityPubApi(ApiArea):
    """Requests to ``/activitypub/*`` and ``/nodeinfo``; the answer is whatever the forge sends."""

    def activitypub(self, method: str, sub_path: str) -> requests.Response:
        """``<METHOD> /activitypub/<sub_path>`` (an empty ``sub_path`` is ``/activitypub`` itself)."""
        path = "activitypub" + (f"/{quote_path(sub_path)}" if sub_path else "")
        return self.http.request(method, path)

    def nodeinfo(self) -> requests.Response:
        """``GET /nodeinfo``."""
        return self.http.get("nodeinfo")

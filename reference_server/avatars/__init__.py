"""Avatars of users, organizations and repositories: upload (base64), delete, and serve the pictures."""

from . import images, models, routes, store

__all__ = ["images", "models", "routes", "store"]

"""Miscellaneous endpoints: version, API settings, the API description and the reference-only clock hook."""

from . import apidoc, models, routes, store

__all__ = ["apidoc", "models", "routes", "store"]

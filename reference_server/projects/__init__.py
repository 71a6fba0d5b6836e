"""Project boards at repository, organization and user scope: boards, columns and the issues on them."""

from . import cards, columns, models, routes, scopes, store

__all__ = ["cards", "columns", "models", "routes", "scopes", "store"]

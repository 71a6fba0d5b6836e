"""Repository labels: list, create, read, edit and delete; a label template's labels on repository creation."""

from . import models, routes, store

__all__ = ["models", "routes", "store"]

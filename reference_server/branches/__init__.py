"""Branches: list, get, create, delete, rename and move, every ref change through one choke point."""

from . import models, routes, store

__all__ = ["models", "routes", "store"]

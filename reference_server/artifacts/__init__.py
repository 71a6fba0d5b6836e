"""The artifacts family: the artifact protocol (Twirp), signed blob URLs, storage and REST artifacts."""

from . import routes, store

__all__ = ["routes", "store"]

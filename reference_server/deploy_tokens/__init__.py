"""Deploy tokens: repository-scoped credentials (read or read-write) for Git over HTTPS and LFS."""

from . import models, routes, store

__all__ = ["models", "routes", "store"]

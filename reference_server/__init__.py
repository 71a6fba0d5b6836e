"""Reference implementation of the forge specification: a Flask app built by :func:`create_app`."""

from .app import create_app
from .config import Config, Limits

__all__ = ["Config", "Limits", "create_app"]

"""Repository webhooks: their management over REST and the delivery of CI events (workflow_run, workflow_job)."""

from . import models, routes, store

__all__ = ["models", "routes", "store"]

"""The actions family: workflows, runs, jobs, tasks, runners, registration tokens and the runner protocol."""

from . import routes, store

__all__ = ["routes", "store"]

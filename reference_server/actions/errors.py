"""Named errors of the actions family: REST conditions and runner-protocol (Connect) conditions."""

from __future__ import annotations

from ..errors import BadRequest, Conflict, ConnectError, Forbidden, NotFound, Unprocessable

__all__ = [
    "ConnectStatusError",
    "InvalidListOrder",
    "InvalidStatusFilter",
    "JobNotFound",
    "LogNotFound",
    "RefNotFound",
    "RunAlreadyDone",
    "RunNotDone",
    "RunNotFound",
    "WorkflowDisabled",
    "WorkflowNotDispatchable",
    "WorkflowNotFound",
]


class WorkflowNotFound(NotFound):
    default_message = "workflow not found"


class WorkflowDisabled(Forbidden):
    default_message = "workflow is disabled"


class WorkflowNotDispatchable(Unprocessable):
    default_message = "workflow has no workflow_dispatch trigger"


class RefNotFound(NotFound):
    default_message = "ref not found"


class RunNotFound(NotFound):
    default_message = "workflow run not found"


class RunNotDone(BadRequest):
    default_message = "this workflow run is not done"


class RunAlreadyDone(Conflict):
    default_message = "this workflow run is already done"


class JobNotFound(NotFound):
    default_message = "workflow job not found"


class LogNotFound(NotFound):
    default_message = "the job has no log yet"


class InvalidListOrder(BadRequest):
    """A job list asked for a sort field or an order Gitea does not offer."""


class InvalidStatusFilter(BadRequest):
    default_message = "invalid status"


class ConnectStatusError(ConnectError):
    """A Connect error whose HTTP status is not the code's usual one (415 for a wrong content type,
    405 for a method other than POST), as connect-go answers them."""

    def __init__(self, code: str, message: str, http_status: int) -> None:
        super().__init__(code, message)
        self._http_status = http_status

    @property
    def status(self) -> int:
        return self._http_status

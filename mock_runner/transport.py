"""What the artifact client and the blob transfers share: the error type and the retry policy.

Retries follow the official client's rule: 429 and 5xx and dropped connections are retried with
exponential backoff; any other 4xx fails at once, because repeating a rejected request cannot help.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

import requests
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt, wait_exponential

__all__ = [
    "RETRYABLE_STATUSES",
    "BlobTransferError",
    "RetryPolicy",
    "TwirpCallError",
    "code_for_status",
    "error_from_response",
    "is_retryable",
]

log = logging.getLogger("mock_runner.artifacts")

RETRYABLE_STATUSES = frozenset({429, 500, 502, 503, 504})

_STATUS_CODES = {
    400: "invalid_argument",
    401: "unauthenticated",
    403: "permission_denied",
    404: "not_found",
    408: "deadline_exceeded",
    409: "already_exists",
    412: "failed_precondition",
    413: "resource_exhausted",
    416: "out_of_range",
    429: "resource_exhausted",
    501: "unimplemented",
    503: "unavailable",
}


class TwirpCallError(Exception):
    """An artifact call that failed: HTTP ``status`` (0 when no answer came), Twirp ``code`` and ``msg``."""

    def __init__(self, status: int, code: str, msg: str) -> None:
        self.status = status
        self.code = code
        self.msg = msg
        super().__init__(f"{code} (HTTP {status}): {msg}" if status else f"{code}: {msg}")


class BlobTransferError(TwirpCallError):
    """A signed-URL upload or download that failed (the blob side speaks HTTP, not Twirp)."""


def code_for_status(status: int) -> str:
    """The Twirp code a bare HTTP status stands for, when the body does not say."""
    return _STATUS_CODES.get(status, "internal" if status >= 500 else "unknown")


def error_from_response(
    response: requests.Response, what: str, error: type[TwirpCallError] = TwirpCallError
) -> TwirpCallError:
    """Read a Twirp JSON error, or describe plainly whatever else came back."""
    try:
        body = json.loads(response.content)
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("code"), str):
        message = body.get("msg", body.get("message", ""))
        return error(response.status_code, body["code"], f"{what}: {message}")
    text = response.content[:200].decode("utf-8", errors="replace").strip()
    content_type = response.headers.get("Content-Type", "no content type")
    detail = f"{content_type} body {text!r}" if text else f"empty {content_type} body"
    return error(
        response.status_code, code_for_status(response.status_code), f"{what}: HTTP {response.status_code}, {detail}"
    )


def is_retryable(exc: BaseException) -> bool:
    """Retry 429, 5xx and lost connections (status 0), nothing else."""
    return isinstance(exc, TwirpCallError) and (exc.status == 0 or exc.status in RETRYABLE_STATUSES)


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently to retry: ``attempts`` in all, waits doubling from ``initial_wait``."""

    attempts: int = 5
    initial_wait: float = 1.0
    max_wait: float = 30.0

    def retrying(self) -> Retrying:
        """A tenacity loop applying this policy; the last error is raised as is."""

        def note(state: RetryCallState) -> None:
            outcome = state.outcome.exception() if state.outcome else None
            log.warning("attempt %d failed (%s); retrying", state.attempt_number, outcome)

        return Retrying(
            stop=stop_after_attempt(max(1, self.attempts)),
            wait=wait_exponential(multiplier=self.initial_wait, min=self.initial_wait, max=self.max_wait),
            retry=retry_if_exception(is_retryable),
            before_sleep=note,
            reraise=True,
        )

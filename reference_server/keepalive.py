"""Connections kept open after answers that have no body (204, 304), which waitress would close.

Waitress 3 closes an HTTP/1.1 connection after any answer without a ``Content-Length``, so that a body of
unknown length can end with the connection. An answer that cannot have a body (204 No Content, 304 Not
Modified, 1xx) never carries that header, and is closed too. Every DELETE of the API answers 204, so a
client deleting things paid a new TCP connection (connect, accept, a new channel) for each. HTTP/1.1
keeps such a connection open (RFC 9112, section 9.3); Gitea's server does. The channel here keeps it
open when nothing else asks to close it (HTTP/1.0, ``Connection: close``, an error).
"""

from __future__ import annotations

from waitress.channel import HTTPChannel
from waitress.task import WSGITask

__all__ = ["KeepAliveChannel"]


class _BodilessKeepAliveTask(WSGITask):  # type: ignore[misc]
    """A task that does not close the connection only because a bodiless answer has no Content-Length."""

    _keep_open = False

    def build_response_header(self) -> bytes:
        self._keep_open = (
            not self.has_body
            and self.version == "1.1"
            and not self.close_on_finish
            and self.request.headers.get("CONNECTION", "").lower() != "close"
        )
        try:
            return super().build_response_header()  # type: ignore[no-any-return]
        finally:
            self._keep_open = False

    def set_close_on_finish(self) -> None:
        if not self._keep_open:
            super().set_close_on_finish()


class KeepAliveChannel(HTTPChannel):  # type: ignore[misc]
    """Waitress' channel, with tasks that keep the connection open after a bodiless answer."""

    task_class = _BodilessKeepAliveTask

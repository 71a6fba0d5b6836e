"""Whether the mock runner may run a server's ``run:`` steps on this host.

A ``run:`` step is a shell script chosen by whoever can push a workflow to the forge, run with bash on
the runner's host, as the runner's user, with the job's tokens in its environment. Against the kit's
own reference server on this machine that is the point; against any other server it hands that
server's users a shell here. So the rule is: host execution is on when the runner's server address is
a loopback address (``127.0.0.0/8``, ``::1`` or ``localhost``, by the literal host of the URL: no name is
resolved, so DNS cannot turn a name into "loopback"), and otherwise only when the operator opts in
with ``mock-runner daemon --allow-host-execution`` or ``MOCK_RUNNER_ALLOW_HOST_EXECUTION=1``. Without
it, the daemon still takes jobs, runs the native actions (checkout, upload and download of
artifacts), and fails each ``run:`` step with :data:`REFUSAL`.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from urllib.parse import urlsplit

__all__ = ["ENV_VAR", "REFUSAL", "env_allows", "host_execution_allowed", "is_loopback_url"]

ENV_VAR = "MOCK_RUNNER_ALLOW_HOST_EXECUTION"
REFUSAL = (
    "mock-runner does not run run: steps of a server that is not on this machine (loopback); they would run with "
    f"bash on this host. Trust the server? Start the daemon with --allow-host-execution or {ENV_VAR}=1"
)


def is_loopback_url(url: str) -> bool:
    """Whether ``url``'s literal host is a loopback address or ``localhost`` (no name is resolved)."""
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def env_allows(environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``MOCK_RUNNER_ALLOW_HOST_EXECUTION`` opts in (``1``, ``true`` or ``yes``)."""
    value = (os.environ if environ is None else environ).get(ENV_VAR, "")
    return value.strip().lower() in ("1", "true", "yes")


def host_execution_allowed(
    server_url: str, allow: bool | None = None, environ: Mapping[str, str] | None = None
) -> bool:
    """The rule: an explicit ``allow`` wins, then the environment's opt-in, then whether the server is loopback."""
    if allow is not None:
        return allow
    return env_allows(environ) or is_loopback_url(server_url)

"""``reference-server``: run the reference implementation standalone with waitress."""

from __future__ import annotations

import argparse
import contextlib
import logging
import signal
import sys
from dataclasses import replace
from pathlib import Path

from . import app as app_module
from . import spool
from .badges.errors import BadgeFileError
from .badges.models import load_badge_file
from .config import Config, Limits, SystemClock
from .keepalive import KeepAliveChannel
from .passwords import PASSWORD_COSTS

__all__ = ["RECV_BYTES", "main", "stop_on_sigint"]

RECV_BYTES = 256 * 1024
"""waitress' ``recv_bytes``: the size of each socket read of a request (benchmarks/README.md, "Load")."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="reference-server", description="Run the forge reference server.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=3000, help="port to listen on (default 3000; 0 picks a free one)")
    parser.add_argument("--data-dir", type=Path, default=Path("forge-data"), help="where state is kept")
    parser.add_argument("--admin-token", help="token of the bootstrap admin (generated and printed if omitted)")
    parser.add_argument("--admin-username", default="forge_admin", help="name of the bootstrap admin account")
    parser.add_argument("--base-url", help="public base URL, may include a sub-path (default http://HOST:PORT/)")
    parser.add_argument("--threads", type=int, default=16, help="waitress worker threads")
    parser.add_argument(
        "--recv-bytes",
        type=int,
        default=RECV_BYTES,
        help=f"bytes per socket read of a request body (default {RECV_BYTES}; see benchmarks/README.md)",
    )
    parser.add_argument("--max-pinned-issues", type=int, default=3, help="pinned issues allowed per repository")
    parser.add_argument(
        "--package-generic-max-bytes",
        type=int,
        default=-1,
        help="largest generic package file in bytes, -1 for no limit (Gitea's [packages] LIMIT_SIZE_GENERIC)",
    )
    parser.add_argument(
        "--test-hooks",
        action="store_true",
        help="expose /api/v1/-/reference/clock and /hosts so @reference_only scenarios can move the clock and "
        "pin host names (never in production)",
    )
    parser.add_argument(
        "--badges", type=Path, help="YAML or JSON list of badge definitions {slug, description, image_url} to store"
    )
    parser.add_argument(
        "--password-cost",
        choices=sorted(PASSWORD_COSTS),
        default="standard",
        help="scrypt cost of new password hashes (default standard; fast is for throw-away test servers only)",
    )
    parser.add_argument(
        "--webhook-allowed-hosts",
        default="external",
        help="where webhooks may deliver (Gitea's [webhook] ALLOWED_HOST_LIST: external, private, loopback, *, "
        "CIDRs, host globs; default external)",
    )
    parser.add_argument(
        "--migrations-allowed-hosts",
        default="external",
        help="where migrations and mirrors may fetch from (same vocabulary; default external, as Gitea's "
        "ALLOW_LOCALNETWORKS = false)",
    )
    parser.add_argument("--log-level", default="WARNING", help="Python log level")
    return parser


def stop_on_sigint() -> None:
    """Make SIGINT stop the server (``KeyboardInterrupt``) even when it was started with SIGINT ignored: a
    shell's background job ignores it and its children inherit that, so a harness or benchmark started that
    way could not stop its server but by killing it."""
    signal.signal(signal.SIGINT, signal.default_int_handler)


def main(argv: list[str] | None = None) -> int:
    options = build_parser().parse_args(argv)
    stop_on_sigint()
    logging.basicConfig(level=options.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s %(message)s")
    try:
        badges = load_badge_file(options.badges) if options.badges else ()
    except BadgeFileError as exc:
        print(f"reference-server: {exc}", file=sys.stderr)
        return 2
    config = Config(
        data_dir=options.data_dir,
        base_url=options.base_url or f"http://{options.host}:{options.port}/",
        admin_username=options.admin_username,
        admin_token=options.admin_token,
        limits=replace(
            Limits(),
            max_pinned_issues=options.max_pinned_issues,
            package_generic_max_bytes=None
            if options.package_generic_max_bytes < 0
            else options.package_generic_max_bytes,
        ),
        clock=SystemClock(),
        test_hooks=options.test_hooks,
        badges=badges,
        password_cost=PASSWORD_COSTS[options.password_cost],
        webhook_allowed_hosts=options.webhook_allowed_hosts,
        migrations_allowed_hosts=options.migrations_allowed_hosts,
    )
    try:
        app = app_module.create_app(config)
    except ValueError as exc:
        print(f"reference-server: {exc}", file=sys.stderr)
        return 2
    server = spool.create_server(
        app,
        config.data_dir / "spool",  # beside the blobs (same disk), so a spooled body can be linked among them
        channel_class=KeepAliveChannel,
        host=options.host,
        port=options.port,
        threads=options.threads,
        recv_bytes=options.recv_bytes,
        max_request_body_size=config.limits.max_block_bytes,
        channel_timeout=300,
        connection_limit=512,
        clear_untrusted_proxy_headers=True,
    )
    port = server.effective_port
    if options.base_url is None and options.port == 0:
        config.base_url = f"http://{options.host}:{port}/"
    generated = app.config.get("GENERATED_ADMIN_TOKEN")
    if generated:
        print(f"admin user {config.admin_username}, token: {generated}", flush=True)
    with contextlib.suppress(KeyboardInterrupt):  # from the announcement on: whoever read it may stop us at once
        print(f"reference-server listening on http://{options.host}:{port}/ (base URL {config.base_url})", flush=True)
        server.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())

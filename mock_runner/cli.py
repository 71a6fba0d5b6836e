"""``mock-runner``: register like act_runner, run the daemon, run a command as a job, use artifacts in a job."""

from __future__ import annotations

import argparse
import json
import logging
import mimetypes
import signal
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import FrameType
from urllib.parse import urlsplit

from .actions_builtin import save_artifact
from .archive import ZipStream, find_files, validate_artifact_name
from .artifacts import ArtifactClient, ArtifactTokenError
from .artifacts_v3 import LegacyArtifactClient, LegacyFile
from .cache_server import CacheServer, default_cache_dir
from .daemon import Daemon
from .jobenv import StepError
from .protocol import RunnerCallError, RunnerClient
from .reporter import result_name
from .runnerfile import DEFAULT_RUNNER_FILE, RunnerFile, RunnerFileError, parse_label
from .transport import TwirpCallError

__all__ = ["DEFAULT_LABELS", "NO_TASK_STATUS", "build_parser", "main"]

DEFAULT_LABELS = "ubuntu-latest:host"
NO_TASK_STATUS = 124
log = logging.getLogger("mock_runner")


class UsageError(Exception):
    """Wrong or missing arguments, explained to the user (exit status 2)."""


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runner-file", type=Path, default=Path(DEFAULT_RUNNER_FILE), help="the .runner file")
    parser.add_argument("--log-level", default="WARNING", help="Python log level (default WARNING)")


def _actions_url(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--actions-url",
        help="the instance owner/repo@ref actions are fetched from (default: the task's default actions URL "
        "unless it is github.com, else the forge this runner is registered with)",
    )


def _cache_options(parser: argparse.ArgumentParser) -> None:
    """The cache server's options, as act_runner's ``cache:`` configuration (enabled, dir, host, port)."""
    parser.add_argument("--no-cache", action="store_true", help="serve no actions cache (no ACTIONS_CACHE_URL)")
    parser.add_argument(
        "--cache-dir", type=Path, help="where cache entries are kept (default .cache/actcache beside the .runner file)"
    )
    parser.add_argument("--cache-port", type=int, default=0, help="the cache server's port (default: any free one)")
    parser.add_argument(
        "--cache-host",
        default="127.0.0.1",
        help="the address jobs reach the cache at, put in ACTIONS_CACHE_URL (default 127.0.0.1; the server "
        "listens on loopback only unless this is not a loopback address)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mock-runner", description="A CI runner for conformance testing.")
    commands = parser.add_subparsers(dest="command", required=True)

    register = commands.add_parser("register", help="register with a forge and write the .runner file")
    _common(register)
    register.add_argument("--instance", help="the forge's root URL")
    register.add_argument("--token", help="a runner registration token")
    register.add_argument("--name", help="the runner's name (default: the host name)")
    register.add_argument("--labels", help=f"comma-separated labels name[:host] (default {DEFAULT_LABELS})")
    register.add_argument("--ephemeral", action="store_true", help="take one job, then be removed")
    register.add_argument("--no-interactive", action="store_true", help="never prompt; use defaults")
    register.add_argument("--codec", choices=("proto", "json"), default="proto", help="wire codec (json to debug)")

    daemon = commands.add_parser("daemon", help="take jobs and run them in host mode")
    _common(daemon)
    daemon.add_argument("--once", action="store_true", help="take one job, then exit with its status")
    daemon.add_argument("--capacity", type=int, default=1, help="jobs run at the same time (default 1)")
    daemon.add_argument("--fetch-interval", type=float, default=2.0, help="seconds between polls (default 2)")
    daemon.add_argument("--workdir", type=Path, help="where task workspaces are made")
    daemon.add_argument("--keep-workdir", action="store_true", help="keep each task's workspace afterwards")
    daemon.add_argument("--quiet", action="store_true", help="do not print job logs")
    daemon.add_argument("--codec", choices=("proto", "json"), default="proto", help="wire codec (json to debug)")
    daemon.add_argument(
        "--allow-host-execution",
        action="store_true",
        default=None,
        help="run the run: steps of a server that is not on this machine (loopback) with bash on this host "
        "(also MOCK_RUNNER_ALLOW_HOST_EXECUTION=1); only for a server you trust",
    )
    _cache_options(daemon)

    _actions_url(daemon)

    exec_ = commands.add_parser("exec", help="take one job and run COMMAND as the whole job")
    _common(exec_)
    exec_.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for a job (default 60)")
    exec_.add_argument("--workdir", type=Path, help="where the task workspace is made")
    exec_.add_argument("--keep-workdir", action="store_true", help="keep the workspace afterwards")
    exec_.add_argument(
        "--keep-server-url",
        action="store_true",
        help="always export GITHUB_SERVER_URL (by default it is moved to GITEA_SERVER_URL when @actions/artifact "
        "would take the forge for GHES and refuse to work)",
    )
    _actions_url(exec_)
    _cache_options(exec_)
    exec_.add_argument("argv", nargs=argparse.REMAINDER, metavar="-- COMMAND ...")

    artifact = commands.add_parser("artifact", help="artifact operations inside a job (ACTIONS_* variables)")
    _common(artifact)
    artifact.add_argument(
        "--protocol", choices=("v4", "v3"), default="v4", help="v3: the legacy protocol of upload-artifact@v3"
    )
    actions = artifact.add_subparsers(dest="action", required=True)
    upload = actions.add_parser("upload", help="upload files as one artifact")
    upload.add_argument("name")
    upload.add_argument("paths", nargs="+", metavar="PATH")
    upload.add_argument("--no-archive", action="store_true", help="upload a single file as is, not zipped")
    upload.add_argument("--retention-days", type=int, default=0)
    upload.add_argument("--compression-level", type=int, default=6, choices=range(10), metavar="0-9")
    download = actions.add_parser("download", help="download an artifact (unzipped)")
    download.add_argument("name")
    download.add_argument("--path", type=Path, default=Path(), help="destination directory (default .)")
    listing = actions.add_parser("list", help="list the run's artifacts")
    listing.add_argument("--name", help="only this name")
    listing.add_argument("--json", action="store_true", help="print JSON")
    delete = actions.add_parser("delete", help="delete an artifact")
    delete.add_argument("name")
    return parser


# --- register ------------------------------------------------------------------------------------
def _ask(label: str, default: str | None) -> str:
    suffix = f" [{default}]" if default else ""
    answer = input(f"{label}{suffix}: ").strip()
    return answer or (default or "")


def _gather(options: argparse.Namespace) -> tuple[str, str, str, list[str]]:
    """Complete the registration flags: prompt on a terminal, defaults with --no-interactive, else fail."""
    values = {"instance": options.instance, "token": options.token, "name": options.name, "labels": options.labels}
    defaults = {"name": socket.gethostname(), "labels": DEFAULT_LABELS}
    missing = [key for key, value in values.items() if not value]
    if missing and not options.no_interactive:
        if not sys.stdin.isatty():
            flags = ", ".join(f"--{key}" for key in missing)
            raise UsageError(
                f"missing {flags}; stdin is not a terminal so mock-runner cannot ask "
                "(pass the flags, or --no-interactive to take the defaults for --name and --labels)"
            )
        prompts = {
            "instance": "Gitea instance URL",
            "token": "Runner registration token",
            "name": "Runner name",
            "labels": "Runner labels (comma-separated)",
        }
        for key in missing:
            values[key] = _ask(prompts[key], defaults.get(key))
    for key in ("name", "labels"):
        values[key] = values[key] or defaults[key]
    for key in ("instance", "token"):
        if not values[key]:
            raise UsageError(f"--{key} is required")
    instance = str(values["instance"]).rstrip("/")
    if urlsplit(instance).scheme not in ("http", "https") or not urlsplit(instance).netloc:
        raise UsageError(f"--instance {instance!r} is not an http(s) URL")
    labels = [label.strip() for label in str(values["labels"]).split(",") if label.strip()]
    try:
        for label in labels:
            parse_label(label)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    if not labels:
        raise UsageError("--labels names no label")
    return instance, str(values["token"]), str(values["name"]), labels


def _register(options: argparse.Namespace) -> int:
    instance, token, name, labels = _gather(options)
    client = RunnerClient(instance, codec=options.codec)
    for attempt in range(10):
        try:
            client.ping(name)
            break
        except RunnerCallError as exc:
            if attempt == 9:
                print(f"cannot reach the forge at {instance}: {exc}", file=sys.stderr)
                return 1
            time.sleep(1.0)
    names = [parse_label(label).name for label in labels]
    try:
        runner = client.register(token, name, names, ephemeral=options.ephemeral)
    except RunnerCallError as exc:
        print(f"registration refused: {exc}", file=sys.stderr)
        return 1
    if not runner.uuid or not runner.token:
        print("registration answered without a runner uuid and token", file=sys.stderr)
        return 1
    record = RunnerFile(
        id=runner.id,
        uuid=runner.uuid,
        name=runner.name or name,
        token=runner.token,
        address=instance,
        labels=labels,
        ephemeral=options.ephemeral,
    )
    record.save(options.runner_file)
    print(f"runner {record.name!r} registered (id {record.id}); wrote {options.runner_file}")
    return 0


# --- daemon and exec -----------------------------------------------------------------------------
def _on_signals(stop: Callable[[], None]) -> None:
    """First SIGINT/SIGTERM stops cleanly; a second one gets the default behaviour."""

    def handler(signum: int, _frame: FrameType | None) -> None:
        log.warning("signal %d: stopping (send it again to kill)", signum)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        stop()

    signal.signal(signal.SIGINT, handler)
    signal.signal(signal.SIGTERM, handler)


def _print_line(prefix: str) -> Callable[[str], None]:
    def echo(line: str) -> None:
        print(f"{prefix}{line}", flush=True)

    return echo


def _start_cache(options: argparse.Namespace) -> CacheServer | None:
    """The cache server for this run's jobs, unless ``--no-cache``."""
    if options.no_cache:
        return None
    if not 0 <= options.cache_port <= 65535:
        raise UsageError("--cache-port must be between 0 and 65535")
    if not options.runner_file.is_file():
        return None  # the daemon refuses to start and says why; no directory is made for nothing
    cache_dir = options.cache_dir or default_cache_dir(options.runner_file)
    return CacheServer(cache_dir, host=options.cache_host, port=options.cache_port)


def _daemon(options: argparse.Namespace) -> int:
    cache = _start_cache(options)
    try:
        return _run_daemon(options, cache)
    finally:
        if cache is not None:
            cache.close()


def _run_daemon(options: argparse.Namespace, cache: CacheServer | None) -> int:
    daemon = Daemon(
        options.runner_file,
        workdir=options.workdir,
        capacity=options.capacity,
        fetch_interval=options.fetch_interval,
        codec=options.codec,
        keep_workdir=options.keep_workdir,
        echo=None if options.quiet else _print_line(""),
        allow_host_execution=options.allow_host_execution,
        actions_url=options.actions_url,
        cache=cache,
    )
    _on_signals(daemon.stop)
    return daemon.run(once=options.once)


def _exec(options: argparse.Namespace) -> int:
    argv = list(options.argv)
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        raise UsageError("exec needs a command: mock-runner exec [--timeout S] -- COMMAND ...")
    cache = _start_cache(options)
    try:
        return _run_exec(options, argv, cache)
    finally:
        if cache is not None:
            cache.close()


def _run_exec(options: argparse.Namespace, argv: list[str], cache: CacheServer | None) -> int:
    daemon = Daemon(
        options.runner_file,
        workdir=options.workdir,
        keep_workdir=options.keep_workdir,
        echo=_print_line(""),
        fetch_interval=1.0,
        actions_url=options.actions_url,
        cache=cache,
    )
    _on_signals(daemon.stop)
    daemon.declare()
    task = daemon.wait_for_task(options.timeout)
    if task is None:
        why = "stopped by a signal" if daemon.stopping.is_set() else f"waited {options.timeout:g} seconds"
        print(f"no job was handed to this runner ({why}); the command did not run", file=sys.stderr)
        return NO_TASK_STATUS
    outcome, status = daemon.run_command(task, argv, keep_server_url=options.keep_server_url)
    log.info("task %d reported as %s", outcome.task_id, result_name(outcome.result))
    return status


# --- artifact ------------------------------------------------------------------------------------
def _artifact_v3(options: argparse.Namespace) -> int:
    """The artifact commands over the legacy protocol at ``ACTIONS_RUNTIME_URL`` (files, not a zip)."""
    client = LegacyArtifactClient.from_environment()
    if options.action == "upload":
        validate_artifact_name(options.name)
        search = find_files("\n".join(options.paths), Path.cwd(), include_hidden=True)
        if not search.files:
            raise UsageError(f"no file matches {' '.join(options.paths)}")
        files = [LegacyFile(search.archive_name(file), file) for file in search.files]
        result = client.upload(options.name, files, options.retention_days)
        print(f"artifact {options.name!r} uploaded (v3): {result.files} files, {result.size} bytes")
        return 0
    if options.action == "download":
        written = client.download(options.name, options.path)
        print(f"artifact {options.name!r} downloaded (v3): {len(written)} files to {options.path}")
        return 0
    if options.action == "list":
        names = [name for name in client.list() if not options.name or name == options.name]
        print(json.dumps(names) if options.json else "\n".join(names))
        return 0
    raise UsageError("the v3 protocol has no delete")


def _artifact(options: argparse.Namespace) -> int:
    if options.protocol == "v3":
        return _artifact_v3(options)
    client = ArtifactClient.from_environment()
    if options.action == "upload":
        return _artifact_upload(client, options)
    if options.action == "download":

        def fetch(scratch: Path) -> tuple[str, str]:
            result = client.download(options.name, scratch)
            return result.content_type, result.filename

        with tempfile.TemporaryDirectory(prefix="mock-runner-") as temp:
            save_artifact(fetch, options.path, Path(temp))
        print(f"artifact {options.name!r} downloaded to {options.path}")
        return 0
    if options.action == "list":
        items = client.list(name_filter=options.name)
        if options.json:
            rows = [
                {
                    "id": a.id,
                    "name": a.name,
                    "size": a.size,
                    "created_at": a.created_at.isoformat() if a.created_at else None,
                    "digest": a.digest,
                }
                for a in items
            ]
            print(json.dumps(rows, indent=2))
        else:
            for item in items:
                print(f"{item.id}\t{item.name}\t{item.size}\t{item.created_at.isoformat() if item.created_at else ''}")
        return 0
    artifact_id = client.delete(options.name)
    print(f"artifact {options.name!r} deleted (id {artifact_id})")
    return 0


def _artifact_upload(client: ArtifactClient, options: argparse.Namespace) -> int:
    validate_artifact_name(options.name)
    if not 0 <= options.retention_days <= 90:
        raise UsageError("--retention-days must be between 0 and 90")
    expires = datetime.now(UTC) + timedelta(days=options.retention_days) if options.retention_days else None
    if options.no_archive:
        if len(options.paths) != 1 or not Path(options.paths[0]).is_file():
            raise UsageError("--no-archive uploads exactly one regular file")
        path = Path(options.paths[0])
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        result = client.upload(options.name, path, version=7, mime_type=mime, expires_at=expires)
    else:
        search = find_files("\n".join(options.paths), Path.cwd(), include_hidden=True)
        if not search.files:
            raise UsageError(f"no file matches {' '.join(options.paths)}")
        with ZipStream(search, options.compression_level) as archive:
            result = client.upload(options.name, archive, expires_at=expires)  # type: ignore[arg-type]
    print(f"artifact {options.name!r} uploaded: id {result.artifact_id}, {result.size} bytes, sha256:{result.sha256}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    options = parser.parse_args(argv)
    level = logging.getLevelName(options.log_level.upper())
    if not isinstance(level, int):
        parser.error(f"--log-level {options.log_level!r} is not a log level (DEBUG, INFO, WARNING, ERROR)")
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    handlers: dict[str, Callable[[argparse.Namespace], int]] = {
        "register": _register,
        "daemon": _daemon,
        "exec": _exec,
        "artifact": _artifact,
    }
    try:
        return handlers[options.command](options)
    except UsageError as exc:
        print(f"mock-runner {options.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"mock-runner {options.command}: interrupted", file=sys.stderr)
        return 130
    except (
        RunnerFileError,
        RunnerCallError,
        TwirpCallError,
        ArtifactTokenError,
        StepError,
        OSError,
        ValueError,
    ) as exc:
        print(f"mock-runner {options.command}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())

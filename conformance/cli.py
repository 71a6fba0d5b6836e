"""``conformance``: run the kit's BDD suite against a forge and write the reports.

Without ``--target`` the suite runs against the embedded reference server. Options it does not know
are handed to pytest unchanged (for example ``--lf`` or ``-vv``); so is everything after ``--``.
``-n N|auto`` runs the scenarios on N pytest-xdist workers (one embedded server each);
``conformance janitor ...`` removes what a crashed run left on a live forge (``conformance.janitor``).
Exit status: see ``EXIT_CODES`` (pytest's own, plus 6 for a profile or expectations file the kit
cannot use).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from .janitor import main as janitor_main
from .merge import main as merge_main
from .paths import FEATURES_DIR, KIT_ROOT, SUITE_DIR

__all__ = [
    "EXIT_CODES",
    "MEMORY_SCRATCH",
    "UNUSED_PLUGINS",
    "build_parser",
    "main",
    "pytest_arguments",
    "scratch_folder",
]

MEMORY_SCRATCH = Path("/dev/shm")  # noqa: S108 - a TMPDIR only: mkdtemp makes private folders in it
"""Linux's memory-backed folder: a run's scratch files (the embedded servers' data, git work trees, the mock
runner's jobs) are made and removed there several times faster than on a disk's journaled file system."""
MEMORY_SCRATCH_MIN_FREE = 2 * 1024**3
"""Below this much free memory there, the run keeps the usual temporary folder."""

EPILOG = """\
examples:
  conformance                                   whole suite against the embedded reference server
  conformance -m artifacts                      one area
  conformance -m "spec and not slow"            the specification's clauses, quick ones only
  conformance --target https://forge.example/ --token $ADMIN_TOKEN
  conformance -n auto                           in parallel, 1.5 workers (each with its server) per core
  conformance --seed 1234 -k "A user"           replay the data a run with seed 1234 drew (see its summary)
  conformance -- -vv --lf                       anything after -- goes to pytest
  conformance --shard 2/4 --durations-from last/results.json --report-dir reports/shard-2
                                                the second of four shards, balanced by recorded durations
  conformance merge reports/shard-* --report-dir reports
                                                join the shards' reports into one (exit status as one run)
  conformance janitor --target URL --token T --run-id ck1a2b3c [--delete]
                                                list (and delete) what run ck1a2b3c left behind

profiles (--profile NAME|FILE): reference (everything; the default against the embedded server),
spec (the specification alone), gitea-1.26, gitea-1.27 (the specification plus Gitea's behaviour,
with that release's known deviations as its default expectations). Against a live target without
--profile: a version ending in +reference gets reference, a Gitea version (or Forgejo's
+gitea-X.Y) the Gitea profile of the highest release not newer than it, anything else spec.

expectations (--expectations FILE): YAML listing scenario ids expected to fail, each with a reason,
an optional link and an optional expires date (see conformance/expectations/*.yaml). A listed
scenario that fails is an expected failure; one that passes is reported "fixed: remove this entry";
an expired entry counts as failed.

baseline (--baseline FILE): the results.json of an earlier run (another target or profile is allowed,
and noted). Scenarios are matched by id; newly failing and newly passing scenarios, other changes,
added and removed scenarios and coverage deltas come first in the summary, in results.json
("comparison") and at the top of report.html.

reports (in --report-dir, default reports/): report.html (readable, self-contained), results.json
(schemas/results.schema.json), junit.xml, cucumber.json, and the embedded server's log.

exit status:
  0  nothing failed (expected failures, unsupported and disabled scenarios do not fail a run)
  1  some scenario failed or errored (an expired expectation counts as failed)
  2  interrupted (Ctrl-C); the reports hold what ran
  3  internal error of pytest or the kit
  4  the target is unusable (does not answer, is not a forge, refuses the token) or bad usage
  5  no scenario selected
  6  the profile, expectations or baseline file cannot be used (does not parse, names unknown
     tags, capabilities or scenarios); nothing ran
"""

EXIT_CODES = {
    0: "nothing failed",
    1: "some scenario failed or errored",
    2: "interrupted",
    3: "internal error",
    4: "unusable target or bad usage",
    5: "no scenario selected",
    6: "unusable profile, expectations or baseline file",
}


# pytest plugins installed beside the kit (by its own tests' dependencies) that the suite never uses:
# not loading them saves each pytest process (the controller and every xdist worker) most of a second.
# (The suite draws data with the Faker library itself, seeded per scenario by conformance.seeding.)
UNUSED_PLUGINS = ("hypothesispytest", "schemathesis", "faker", "anyio")


def build_parser() -> argparse.ArgumentParser:
    """The command's options; unknown ones go to pytest."""
    parser = argparse.ArgumentParser(
        prog="conformance",
        description="Run the forge conformance suite (BDD scenarios of the specification and of Gitea's behaviour).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    target = parser.add_argument_group("target (default: the embedded reference server)")
    target.add_argument("--target", metavar="URL", help="base URL of the forge (env CONFORMANCE_TARGET)")
    target.add_argument("--token", metavar="TOKEN", help="a site administrator's token (env CONFORMANCE_TOKEN)")
    target.add_argument("--target-config", metavar="FILE", help="YAML file with the keys target and token")
    selection = parser.add_argument_group("selection")
    selection.add_argument("-m", dest="markexpr", metavar="EXPR", help="tag expression: areas, sources, clauses")
    selection.add_argument("-k", dest="keyword", metavar="EXPR", help="scenario name expression")
    selection.add_argument("-x", "--exitfirst", action="store_true", help="stop at the first failure")
    selection.add_argument(
        "--allow-destructive",
        action="store_true",
        help="run @destructive scenarios (instance-wide state, the admin's own credentials) against a live target",
    )
    speed = parser.add_argument_group("speed")
    speed.add_argument(
        "-n",
        "--numprocesses",
        dest="workers",
        metavar="N",
        help="pytest-xdist workers: a number, or auto (one and a half per core); 0 runs serially (the default)",
    )
    selection.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help="seed of the data scenarios draw (names, texts, file contents); a run's seed replays its data",
    )
    _add_reporting_arguments(selection)
    _add_shard_arguments(selection)
    output = parser.add_argument_group("output")
    output.add_argument("--report-dir", metavar="DIR", default="reports", help="where reports go (default reports/)")
    output.add_argument(
        "--keep-data", action="store_true", help="keep what the run created and the embedded server's data"
    )
    return parser


def _add_reporting_arguments(group: argparse._ArgumentGroup) -> None:
    """Profile and expectations (conformance.profiles, conformance.expectations)."""
    group.add_argument("--profile", metavar="NAME|FILE", help="what the target is expected to meet (see below)")
    group.add_argument("--expectations", metavar="FILE", help="YAML file of scenarios expected to fail")
    group.add_argument(
        "--baseline", metavar="FILE", help="results.json of an earlier run to compare with (see 'baseline' below)"
    )


def _add_shard_arguments(group: argparse._ArgumentGroup) -> None:
    """Sharding (conformance.sharding); ``conformance merge`` joins the shards' reports (conformance.merge)."""
    group.add_argument("--shard", metavar="K/N", help="run only shard K of N of the selected scenarios")
    group.add_argument(
        "--durations-from", metavar="FILE", help="balance --shard by the durations of this results.json (else by count)"
    )


def pytest_arguments(argv: Sequence[str]) -> list[str]:
    """The pytest command line for the command's arguments."""
    own, extra = _split(list(argv))
    options, unknown = build_parser().parse_known_args(own)
    arguments = [str(SUITE_DIR), "--rootdir", str(KIT_ROOT), "--strict-markers", "-p", "no:cacheprovider", "--tb=short"]
    arguments += [argument for plugin in UNUSED_PLUGINS for argument in ("-p", f"no:{plugin}")]
    arguments += ["--report-dir", options.report_dir]
    for flag, value in (
        ("--target", options.target),
        ("--token", options.token),
        ("--target-config", options.target_config),
        ("-m", options.markexpr),
        ("-k", options.keyword),
        ("--profile", options.profile),
        ("--expectations", options.expectations),
        ("--baseline", options.baseline),
        ("--shard", options.shard),
        ("--durations-from", options.durations_from),
    ):
        if value is not None:
            arguments += [flag, value]
    if options.exitfirst:
        arguments.append("-x")
    if options.keep_data:
        arguments.append("--keep-data")
    if options.allow_destructive:
        arguments.append("--allow-destructive")
    if options.seed is not None:
        arguments += ["--seed", str(options.seed)]
    arguments += _worker_arguments(options.workers)
    return arguments + unknown + extra


def _worker_arguments(workers: str | None) -> list[str]:
    """``-n N --dist worksteal``: idle workers take queued scenarios from busy ones (durations vary a lot)."""
    if workers is None:
        return []
    if workers != "auto" and not workers.isdigit():
        raise SystemExit(f"conformance: -n takes a number or auto, got {workers!r}")
    if workers == "0":
        return ["-n", "0"]
    return ["-n", workers, "--dist", "worksteal"]


def _split(argv: list[str]) -> tuple[list[str], list[str]]:
    if "--" in argv:
        index = argv.index("--")
        return argv[:index], argv[index + 1 :]
    return argv, []


def scratch_folder(environ: Mapping[str, str], candidate: Path = MEMORY_SCRATCH) -> str | None:
    """Where a run's temporary files go when the caller did not choose (no ``TMPDIR``, ``TEMP`` or ``TMP``):
    the memory-backed ``candidate`` when it is there, writable and has room; None keeps the default."""
    if any(environ.get(name) for name in ("TMPDIR", "TEMP", "TMP")):
        return None
    try:
        usage = os.statvfs(candidate)
    except OSError:
        return None
    if not os.access(candidate, os.W_OK | os.X_OK) or usage.f_bavail * usage.f_frsize < MEMORY_SCRATCH_MIN_FREE:
        return None
    return str(candidate)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the suite (or the janitor); the exit status is pytest's."""
    given = list(sys.argv[1:] if argv is None else argv)
    if given[:1] == ["janitor"]:
        return janitor_main(given[1:])
    if given[:1] == ["merge"]:
        return merge_main(given[1:])
    arguments = pytest_arguments(given)
    if not SUITE_DIR.is_dir() or not FEATURES_DIR.is_dir():
        print(
            f"conformance: the suite is not next to the installed package ({KIT_ROOT}); "
            "install the kit from a checkout (pip install -e .)",
            file=sys.stderr,
        )
        return 4
    scratch = scratch_folder(os.environ, MEMORY_SCRATCH)
    if scratch is not None:  # inherited by the workers, the embedded servers and the mock runners
        os.environ["TMPDIR"] = scratch
        tempfile.tempdir = None
    return int(pytest.main(arguments))


if __name__ == "__main__":
    sys.exit(main())

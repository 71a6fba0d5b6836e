"""``conformance``: run the kit's BDD suite against a forge and write the reports.

Without ``--target`` the suite runs against the embedded reference server. Options it does not know
are handed to pytest unchanged (for example ``--lf`` or ``-vv``); so is everything after ``--``.
Exit status: pytest's own (0 all passed, 1 some failed, 2 interrupted, 4 usage error or an unusable
target, 5 nothing selected).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import pytest

from .paths import FEATURES_DIR, KIT_ROOT, SUITE_DIR

__all__ = ["build_parser", "main", "pytest_arguments"]

EPILOG = """\
examples:
  conformance                                   whole suite against the embedded reference server
  conformance -m artifacts                      one area
  conformance -m "spec and not slow"            the specification's clauses, quick ones only
  conformance --target https://forge.example/ --token $ADMIN_TOKEN
  conformance -- -vv --lf                       anything after -- goes to pytest

reports (in --report-dir, default reports/): results.json, junit.xml, cucumber.json, and the
embedded server's log. exit status: 0 all passed, 1 some failed, 2 interrupted, 4 unusable target
or bad usage, 5 nothing selected.
"""


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
    output = parser.add_argument_group("output")
    output.add_argument("--report-dir", metavar="DIR", default="reports", help="where reports go (default reports/)")
    output.add_argument(
        "--keep-data", action="store_true", help="keep what the run created and the embedded server's data"
    )
    return parser


def pytest_arguments(argv: Sequence[str]) -> list[str]:
    """The pytest command line for the command's arguments."""
    own, extra = _split(list(argv))
    options, unknown = build_parser().parse_known_args(own)
    arguments = [str(SUITE_DIR), "--rootdir", str(KIT_ROOT), "--strict-markers", "-p", "no:cacheprovider", "--tb=short"]
    arguments += ["--report-dir", options.report_dir]
    for flag, value in (
        ("--target", options.target),
        ("--token", options.token),
        ("--target-config", options.target_config),
        ("-m", options.markexpr),
        ("-k", options.keyword),
    ):
        if value is not None:
            arguments += [flag, value]
    if options.exitfirst:
        arguments.append("-x")
    if options.keep_data:
        arguments.append("--keep-data")
    return arguments + unknown + extra


def _split(argv: list[str]) -> tuple[list[str], list[str]]:
    if "--" in argv:
        index = argv.index("--")
        return argv[:index], argv[index + 1 :]
    return argv, []


def main(argv: Sequence[str] | None = None) -> int:
    """Run the suite; the exit status is pytest's."""
    arguments = pytest_arguments(sys.argv[1:] if argv is None else argv)
    if not SUITE_DIR.is_dir() or not FEATURES_DIR.is_dir():
        print(
            f"conformance: the suite is not next to the installed package ({KIT_ROOT}); "
            "install the kit from a checkout (pip install -e .)",
            file=sys.stderr,
        )
        return 4
    return int(pytest.main(arguments))


if __name__ == "__main__":
    sys.exit(main())

"""The conformance suite's speed: wall time serial and parallel, scenarios per second, the slowest scenarios.

```sh
./kit bench suite                       # the whole suite, serially (-n 0) then in parallel (-n auto)
./kit bench suite -m "issues or pulls"  # a subset
./kit bench suite --workers 0,2,4 --json speed.json
```

Each mode is one ``conformance`` run against the embedded reference server (one per worker in
parallel), with its own report directory; the wall time is the run's, from start to exit (server
start-up and collection included). Per-scenario durations (set-up, steps and tear-down) come from
the run's ``results.json``. Printed for each mode: wall time, scenarios, scenarios per second, the
median and 90th percentile per scenario, and the ten slowest scenarios of the serial run (serial
durations are not inflated by the other workers sharing the CPUs). The speed-up is serial wall time
over parallel wall time of this one invocation, so both modes saw the same machine.

Exit status: 0 when every run passed and the targets hold (the parallel wall time under
``--max-wall`` seconds, default 60, and the serial median under ``--max-median-ms``, default 100),
1 when a target was missed (a ``TARGET MISSED`` line says which), 2 when a run failed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["ModeFigures", "figures_of", "main", "render", "slowest"]

KIT = Path(__file__).resolve().parent.parent


@dataclass
class ModeFigures:
    """What one run of the suite measured."""

    workers: str
    wall_seconds: float
    exit_status: int
    scenarios: int
    durations: dict[str, float] = field(default_factory=dict)

    @property
    def per_second(self) -> float:
        """Scenarios per second of wall time."""
        return self.scenarios / self.wall_seconds if self.wall_seconds else 0.0

    @property
    def median_ms(self) -> float:
        """Median time of one scenario, in milliseconds."""
        return statistics.median(self.durations.values()) * 1000 if self.durations else 0.0

    @property
    def p90_ms(self) -> float:
        """90th percentile of a scenario's time, in milliseconds."""
        values = sorted(self.durations.values())
        return values[int(0.9 * (len(values) - 1))] * 1000 if values else 0.0


def figures_of(workers: str, wall_seconds: float, exit_status: int, results: dict[str, Any]) -> ModeFigures:
    """The figures of a run from its results.json (scenarios that did not run are left out)."""
    durations = {
        str(scenario["id"]): float(scenario["duration"])
        for scenario in results.get("scenarios", [])
        if scenario.get("outcome") in ("passed", "failed", "error")
    }
    return ModeFigures(workers, wall_seconds, exit_status, len(durations), durations)


def slowest(figures: ModeFigures, count: int = 10) -> list[tuple[str, float]]:
    """The ``count`` slowest scenarios, slowest first."""
    return sorted(figures.durations.items(), key=lambda item: item[1], reverse=True)[:count]


def run_mode(workers: str, selection: list[str], report_dir: Path) -> ModeFigures:
    """One ``conformance`` run with ``-n workers``; its wall time and results.json."""
    command = [
        sys.executable,
        "-m",
        "conformance.cli",
        "-n",
        workers,
        "--report-dir",
        str(report_dir),
        *selection,
        "--",
        "-q",
    ]
    started = time.monotonic()
    completed = subprocess.run(command, cwd=KIT, capture_output=True, text=True, check=False)
    wall = time.monotonic() - started
    results_file = report_dir / "results.json"
    if not results_file.is_file():
        tail = (completed.stdout + completed.stderr)[-3000:]
        raise RuntimeError(f"the run with -n {workers} wrote no results.json (exit {completed.returncode}):\n{tail}")
    results = json.loads(results_file.read_text(encoding="utf-8"))
    return figures_of(workers, wall, completed.returncode, results)


def render(modes: list[ModeFigures]) -> list[str]:
    """The table of modes, the speed-up, and the slowest scenarios of the first mode."""
    lines = [
        f"{'workers':>8} {'wall s':>8} {'scenarios':>9} {'per s':>7} {'median ms':>10} {'p90 ms':>8} {'exit':>5}",
    ]
    lines += [
        f"{mode.workers:>8} {mode.wall_seconds:>8.1f} {mode.scenarios:>9} {mode.per_second:>7.1f} "
        f"{mode.median_ms:>10.0f} {mode.p90_ms:>8.0f} {mode.exit_status:>5}"
        for mode in modes
    ]
    if len(modes) > 1 and modes[-1].wall_seconds:
        lines.append(
            f"speed-up (-n {modes[0].workers} over -n {modes[-1].workers}): "
            f"{modes[0].wall_seconds / modes[-1].wall_seconds:.2f}x"
        )
    if modes:
        lines.append(f"slowest scenarios (-n {modes[0].workers}):")
        lines += [f"  {seconds * 1000:>7.0f} ms  {scenario}" for scenario, seconds in slowest(modes[0])]
    return lines


def main(argv: list[str] | None = None) -> int:
    """Run the suite in each mode, print the figures, check the targets."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", default="0,auto", help="comma-separated -n values, in order (default 0,auto)")
    parser.add_argument("-m", dest="markexpr", help="tag expression selecting a subset (default: the whole suite)")
    parser.add_argument("-k", dest="keyword", help="scenario name expression")
    parser.add_argument("--max-wall", type=float, default=60.0, help="target for the last mode's wall time (s)")
    parser.add_argument("--max-median-ms", type=float, default=100.0, help="target for the first mode's median")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--work-dir", type=Path, help="report directories (default: a temporary directory)")
    options = parser.parse_args(argv)
    selection: list[str] = []
    if options.markexpr:
        selection += ["-m", options.markexpr]
    if options.keyword:
        selection += ["-k", options.keyword]
    work = options.work_dir or Path(tempfile.mkdtemp(prefix="suite-speed-"))
    print(f"cpus: {os.cpu_count()}, load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    modes: list[ModeFigures] = []
    try:
        for workers in options.workers.split(","):
            mode = run_mode(workers.strip(), selection, work / f"n{workers.strip()}")
            print(f"-n {mode.workers}: {mode.wall_seconds:.1f} s, {mode.scenarios} scenarios", flush=True)
            modes.append(mode)
    except RuntimeError as error:
        print(error, file=sys.stderr)
        return 2
    for line in render(modes):
        print(line)
    if options.json:
        document = {
            "cpus": os.cpu_count(),
            "modes": [asdict(mode) | {"per_second": mode.per_second, "median_ms": mode.median_ms} for mode in modes],
        }
        options.json.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    if any(mode.exit_status != 0 for mode in modes):
        print("a run had failures or errors: see its reports in " + str(work), file=sys.stderr)
        return 2
    missed = []
    if modes[-1].wall_seconds >= options.max_wall:
        missed.append(f"wall time of -n {modes[-1].workers} {modes[-1].wall_seconds:.1f} s >= {options.max_wall} s")
    if modes[0].median_ms >= options.max_median_ms:
        missed.append(f"median of -n {modes[0].workers} {modes[0].median_ms:.0f} ms >= {options.max_median_ms} ms")
    for line in missed:
        print("TARGET MISSED: " + line)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

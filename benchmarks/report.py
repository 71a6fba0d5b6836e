"""Figures of a benchmark run: checking them against the targets, printing them, and their JSON form."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from benchmarks.measure import GIB, MIB, format_size
from benchmarks.transfer_client import Phase

__all__ = ["PathFigures", "SizeFigures", "Targets", "best_of", "evaluate", "mib_per_second", "render_table", "to_json"]

DIRECTIONS = ("upload", "download")


@dataclass(frozen=True)
class Targets:
    """What the issue asks of the artifact path."""

    min_ratio: float = 0.5
    """Artifact throughput over baseline throughput, each direction, every size."""
    max_peak_mib: float = 150.0
    """Peak resident memory of the client and of the server, each phase, every size."""
    max_growth_mib: float = 32.0
    """How much a peak may rise from the smallest size to the largest (allocator and thread noise)."""
    min_client_ratio: float = 1.0
    """The kit's client throughput over the official client's, each direction (when the official one ran)."""


@dataclass(frozen=True)
class PathFigures:
    """One path (baseline or artifact) at one size: its upload and its download."""

    upload: Phase
    download: Phase

    def phase(self, direction: str) -> Phase:
        return self.upload if direction == "upload" else self.download

    def peak_client(self) -> int:
        return max(self.upload.client_peak_bytes, self.download.client_peak_bytes)

    def peak_server(self) -> int:
        return max(self.upload.server_peak_bytes, self.download.server_peak_bytes)


def best_of(runs: list[PathFigures]) -> PathFigures:
    """Several runs of one path as one: the fastest time of each direction, the highest peaks.

    On a shared machine every disturbance makes a run slower, never faster, so the fastest run is the
    best estimate of what the path can do; memory, in contrast, is judged by its worst run.
    """
    if not runs:
        raise ValueError("no runs to combine")

    def combine(direction: str) -> Phase:
        phases = [run.phase(direction) for run in runs]
        fastest = min(phases, key=lambda phase: phase.seconds)
        return replace(
            fastest,
            client_peak_bytes=max(phase.client_peak_bytes for phase in phases),
            server_peak_bytes=max(phase.server_peak_bytes for phase in phases),
        )

    return PathFigures(combine("upload"), combine("download"))


@dataclass(frozen=True)
class SizeFigures:
    """Every path at one size, run alternately on the same data file; each run's figures are kept.

    ``official_runs`` are the official ``@actions/artifact`` client's runs (empty unless it was asked for).
    """

    size: int
    sha256: str
    baseline_runs: list[PathFigures]
    artifact_runs: list[PathFigures]
    official_runs: list[PathFigures] = field(default_factory=list)

    @property
    def baseline(self) -> PathFigures:
        return best_of(self.baseline_runs)

    @property
    def artifact(self) -> PathFigures:
        return best_of(self.artifact_runs)

    @property
    def official(self) -> PathFigures | None:
        return best_of(self.official_runs) if self.official_runs else None

    def ratio(self, direction: str) -> float:
        return mib_per_second(self.artifact.phase(direction)) / mib_per_second(self.baseline.phase(direction))

    def client_ratio(self, direction: str) -> float | None:
        """The kit's client throughput over the official client's; None when the official one did not run."""
        official = self.official
        if official is None:
            return None
        return mib_per_second(self.artifact.phase(direction)) / mib_per_second(official.phase(direction))

    def paths(self) -> list[tuple[str, PathFigures]]:
        official = self.official
        return [("baseline", self.baseline), ("artifact", self.artifact)] + (
            [("official", official)] if official is not None else []
        )


def mib_per_second(phase: Phase) -> float:
    return phase.size / MIB / max(phase.seconds, 1e-9)


def _mib(size: int) -> float:
    return size / MIB


def evaluate(figures: list[SizeFigures], targets: Targets) -> list[str]:
    """One readable line per missed target; empty when every target is met."""
    misses: list[str] = []
    for entry in figures:
        label = format_size(entry.size)
        for direction in DIRECTIONS:
            ratio = entry.ratio(direction)
            if ratio < targets.min_ratio:
                misses.append(
                    f"{label} {direction}: artifact {mib_per_second(entry.artifact.phase(direction)):.1f} MiB/s is "
                    f"{ratio:.2f} of the baseline {mib_per_second(entry.baseline.phase(direction)):.1f} MiB/s "
                    f"(target at least {targets.min_ratio:.2f})"
                )
            official = entry.official
            client_ratio = entry.client_ratio(direction)
            if official is not None and client_ratio is not None and client_ratio < targets.min_client_ratio:
                ours = mib_per_second(entry.artifact.phase(direction))
                theirs = mib_per_second(official.phase(direction))
                misses.append(
                    f"{label} {direction}: the kit's client {ours:.1f} MiB/s is {client_ratio:.2f} of the official "
                    f"client's {theirs:.1f} MiB/s (target at least {targets.min_client_ratio:.2f})"
                )
            phase = entry.artifact.phase(direction)
            for process, peak in (("client", phase.client_peak_bytes), ("server", phase.server_peak_bytes)):
                if _mib(peak) >= targets.max_peak_mib:
                    misses.append(
                        f"{label} {direction}: peak memory of the {process} {_mib(peak):.1f} MiB "
                        f"(target under {targets.max_peak_mib:.0f} MiB)"
                    )
    if len(figures) >= 2:
        smallest, largest = figures[0], figures[-1]
        for process, small, large in (
            ("client", smallest.artifact.peak_client(), largest.artifact.peak_client()),
            ("server", smallest.artifact.peak_server(), largest.artifact.peak_server()),
        ):
            growth = _mib(large - small)
            if growth > targets.max_growth_mib:
                misses.append(
                    f"peak memory of the {process} grows with the size: {_mib(small):.1f} MiB at "
                    f"{format_size(smallest.size)}, {_mib(large):.1f} MiB at {format_size(largest.size)} "
                    f"(+{growth:.1f} MiB, allowed +{targets.max_growth_mib:.0f} MiB)"
                )
    return misses


def cpu_seconds_per_gib(seconds: float, size: int) -> float:
    return seconds * GIB / max(size, 1)


def render_table(figures: list[SizeFigures]) -> str:
    """The figures as a fixed-width table: per size, direction and path, throughput, ratio, peaks and CPU.

    The ratio of the artifact and official rows is to the baseline; a ``kit/official`` row follows when the
    official client ran, with the throughput ratio of the two clients.
    """
    lines = [
        f"{'size':>8}  {'direction':<9}  {'path':<8}  {'MiB/s':>8}  {'ratio':>5}  "
        f"{'peak MiB client / server':>24}  {'CPU s/GiB client / server':>25}"
    ]
    for entry in figures:
        for direction in DIRECTIONS:
            for path, path_figures in entry.paths():
                phase = path_figures.phase(direction)
                first = path == "baseline"
                ratio = mib_per_second(phase) / mib_per_second(entry.baseline.phase(direction))
                peaks = f"{_mib(phase.client_peak_bytes):6.1f} / {_mib(phase.server_peak_bytes):6.1f}"
                cpu = (
                    f"{cpu_seconds_per_gib(phase.client_cpu_seconds, phase.size):6.2f} / "
                    f"{cpu_seconds_per_gib(phase.server_cpu_seconds, phase.size):6.2f}"
                )
                lines.append(
                    f"{format_size(entry.size) if first and direction == 'upload' else '':>8}  "
                    f"{direction if first else '':<9}  {path:<8}  {mib_per_second(phase):>8.1f}  "
                    f"{'' if first else f'{ratio:.2f}':>5}  {peaks:>24}  {cpu:>25}"
                )
            client_ratio = entry.client_ratio(direction)
            if client_ratio is not None:
                lines.append(f"{'':>8}  {'':<9}  {'kit/official':<12}  {'':>4}  {client_ratio:>5.2f}")
    return "\n".join(lines)


def _phase_json(phase: Phase) -> dict[str, Any]:
    return {**asdict(phase), "mib_per_second": round(mib_per_second(phase), 2)}


def _official_json(entry: SizeFigures) -> dict[str, Any]:
    """The official client's best figures and the kit's ratio to them, when it ran."""
    official = entry.official
    if official is None:
        return {}
    return {
        "official": {direction: _phase_json(official.phase(direction)) for direction in DIRECTIONS},
        "client_ratio": {direction: round(entry.client_ratio(direction) or 0.0, 3) for direction in DIRECTIONS},
    }


def to_json(
    figures: list[SizeFigures], targets: Targets, misses: list[str], environment: dict[str, Any]
) -> dict[str, Any]:
    """Everything printed, machine-readable, for ``--json``."""
    return {
        "environment": environment,
        "targets": asdict(targets),
        "sizes": [
            {
                "size": entry.size,
                "sha256": entry.sha256,
                "baseline": {direction: _phase_json(entry.baseline.phase(direction)) for direction in DIRECTIONS},
                "artifact": {direction: _phase_json(entry.artifact.phase(direction)) for direction in DIRECTIONS},
                "ratio": {direction: round(entry.ratio(direction), 3) for direction in DIRECTIONS},
                "runs": {
                    path: [{direction: _phase_json(run.phase(direction)) for direction in DIRECTIONS} for run in runs]
                    for path, runs in (("baseline", entry.baseline_runs), ("artifact", entry.artifact_runs))
                    + ((("official", entry.official_runs),) if entry.official_runs else ())
                },
            }
            | _official_json(entry)
            for entry in figures
        ],
        "misses": misses,
        "ok": not misses,
    }

"""Measurement helpers shared by the benchmark's parts: sizes, the data file, hashing and peak memory.

Peak memory is the kernel's own high-water mark of a process's resident set (``VmHWM`` in
``/proc/<pid>/status``). Writing ``5`` to ``/proc/<pid>/clear_refs`` resets that mark to the current
resident size, so one long-lived process (a server) can be measured phase by phase.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "CHUNK",
    "GIB",
    "MIB",
    "DataFile",
    "PeakMemoryError",
    "format_size",
    "make_data_file",
    "parse_size",
    "parse_sizes",
    "read_cpu_seconds",
    "read_peak_rss",
    "reset_peak_rss",
    "sha256_file",
]

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB
CHUNK = MIB
"""Read and write size of every streaming loop in the benchmark (client and raw server)."""

_UNITS = {"": 1, "B": 1} | {
    spelling: factor
    for letter, factor in (("K", KIB), ("M", MIB), ("G", GIB))
    for spelling in (letter, letter + "B", letter + "IB")
}
_SIZE = re.compile(r"^\s*(\d+)\s*([A-Za-z]*)\s*$")


def parse_size(text: str) -> int:
    """``64M`` -> 67108864. Units are binary (K, M, G, with or without ``B``/``iB``); a bare number is bytes."""
    match = _SIZE.match(text)
    if match is None:
        raise ValueError(f"not a size: {text!r} (expected a whole number with an optional unit, e.g. 64M or 1G)")
    number, unit = match.groups()
    factor = _UNITS.get(unit.upper())
    if factor is None:
        raise ValueError(f"unknown size unit {unit!r} in {text!r} (use K, M or G)")
    size = int(number) * factor
    if size <= 0:
        raise ValueError(f"size must be positive: {text!r}")
    return size


def parse_sizes(text: str) -> list[int]:
    """``8M,64M`` -> sorted distinct sizes; at least one."""
    parts = [part for part in text.split(",") if part.strip()]
    if not parts:
        raise ValueError("no sizes given (expected e.g. 64M,1G)")
    return sorted({parse_size(part) for part in parts})


def format_size(size: int) -> str:
    """Inverse of :func:`parse_size` for display: the largest binary unit that divides exactly."""
    for unit, factor in (("GiB", GIB), ("MiB", MIB), ("KiB", KIB)):
        if size % factor == 0:
            return f"{size // factor} {unit}"
    return f"{size} B"


@dataclass(frozen=True)
class DataFile:
    """The bytes pushed through both paths, with their digest computed once while writing them."""

    path: Path
    size: int
    sha256: str


def make_data_file(path: Path, size: int, *, seed_block: bytes | None = None) -> DataFile:
    """Write ``size`` incompressible bytes quickly: one random MiB repeated, each copy stamped with its index.

    The stamp makes every MiB distinct, so neither a compressor nor a deduplicating store can shortcut
    the transfer, while generating 1 GiB costs one ``os.urandom`` call instead of a thousand.
    """
    block = bytearray(seed_block if seed_block is not None else os.urandom(CHUNK))
    if len(block) != CHUNK:
        raise ValueError(f"seed block must be {CHUNK} bytes, got {len(block)}")
    digest = hashlib.sha256()
    written = 0
    index = 0
    with path.open("wb") as out:
        while written < size:
            block[:8] = index.to_bytes(8, "big")
            piece = memoryview(block)[: min(CHUNK, size - written)]
            digest.update(piece)
            out.write(piece)
            written += len(piece)
            index += 1
    return DataFile(path, size, digest.hexdigest())


def sha256_file(path: Path) -> str:
    """Digest of a file, read in :data:`CHUNK` pieces so memory stays flat."""
    digest = hashlib.sha256()
    with path.open("rb") as source:
        while piece := source.read(CHUNK):
            digest.update(piece)
    return digest.hexdigest()


class PeakMemoryError(RuntimeError):
    """The kernel does not expose (or lets us reset) a process's peak resident set or CPU time."""


def _proc(pid: int | None) -> Path:
    return Path("/proc") / ("self" if pid is None else str(pid))


def read_peak_rss(pid: int | None = None) -> int:
    """Peak resident set size in bytes of ``pid`` (this process when None) since start or the last reset."""
    status = _proc(pid) / "status"
    try:
        text = status.read_text()
    except OSError as exc:
        raise PeakMemoryError(f"cannot read {status}: {exc}") from exc
    for line in text.splitlines():
        if line.startswith("VmHWM:"):
            fields = line.split()
            return int(fields[1]) * KIB
    raise PeakMemoryError(f"{status} has no VmHWM line (not Linux, or a kernel thread)")


def read_cpu_seconds(pid: int | None = None) -> float:
    """CPU time (user + system, all threads) ``pid`` has used so far: less noisy than wall time on a busy host.

    For this process the clock is exact; for another one it is counted in kernel ticks (10 ms), which is
    why the CPU figures mean something from a few tens of MiB up.
    """
    if pid is None:
        return time.process_time()
    stat = _proc(pid) / "stat"
    try:
        text = stat.read_text()
    except OSError as exc:
        raise PeakMemoryError(f"cannot read {stat}: {exc}") from exc
    # Fields after the command name (which may hold spaces), counted from 3: utime is 14, stime 15.
    fields = text.rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def reset_peak_rss(pid: int | None = None) -> None:
    """Reset the high-water mark to the current resident size, so the next read covers one phase only."""
    target = _proc(pid) / "clear_refs"
    try:
        target.write_text("5")
    except OSError as exc:
        raise PeakMemoryError(f"cannot reset the peak memory of {target}: {exc}") from exc

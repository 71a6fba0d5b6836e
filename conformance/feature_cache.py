"""Parsed feature files kept between runs, so a pytest process does not parse every ``.feature`` again.

Every pytest process of a run (the controller and each xdist worker) imports the suite's test module,
which has pytest-bdd parse each of the feature files (about three quarters of a second for the whole
suite); unpickling the parsed features takes a few hundredths. pytest-bdd keeps what it parsed in a
dictionary by absolute file name (``pytest_bdd.feature.features``); :func:`preload` fills it from the
cache with the files that are unchanged (same size and modification time, same pytest-bdd and gherkin
versions), before collection, and :func:`store` writes it back when something had to be parsed.

The cache lives in the user's cache directory (``$XDG_CACHE_HOME`` or ``~/.cache``), like bytecode it
only ever holds what this machine's own runs produced; a cache that cannot be read or written is simply
not used.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import tempfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from pytest_bdd import feature as bdd_feature

__all__ = ["cache_file", "parsed_count", "preload", "store"]

Stamp = tuple[int, int]
"""A file's size and modification time (nanoseconds)."""


def _versions() -> str:
    found = []
    for name in ("pytest-bdd", "gherkin-official"):
        try:
            found.append(f"{name}={version(name)}")
        except PackageNotFoundError:
            found.append(f"{name}=?")
    return ",".join(found)


def cache_file(features_dir: Path) -> Path:
    """Where the parsed features of ``features_dir`` are kept (one file per directory and parser versions)."""
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "forge-conformance-kit"
    key = hashlib.sha256(f"{features_dir.resolve()}|{_versions()}".encode()).hexdigest()[:16]
    return root / f"features-{key}.pickle"


def _stamp(path: str) -> Stamp | None:
    try:
        status = Path(path).stat()
    except OSError:
        return None
    return status.st_size, status.st_mtime_ns


def preload(features_dir: Path) -> int:
    """Put the cached features whose files are unchanged into pytest-bdd's own cache; how many."""
    try:
        with cache_file(features_dir).open("rb") as stream:
            cached: dict[str, tuple[Stamp, Any]] = pickle.load(stream)  # noqa: S301 - written by this machine's runs
    except (OSError, pickle.PickleError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        return 0
    loaded = 0
    for name, (stamp, parsed) in cached.items():
        if name not in bdd_feature.features and _stamp(name) == stamp:
            bdd_feature.features[name] = parsed
            loaded += 1
    return loaded


def _under(features_dir: Path) -> str:
    return str(features_dir.resolve()) + os.sep


def parsed_count(features_dir: Path) -> int:
    """How many feature files of ``features_dir`` pytest-bdd holds parsed now."""
    root = _under(features_dir)
    return sum(1 for name in bdd_feature.features if name.startswith(root))


def store(features_dir: Path) -> bool:
    """Write pytest-bdd's parsed features of ``features_dir`` to the cache (atomically); False when it cannot."""
    root = _under(features_dir)
    entries: dict[str, tuple[Stamp, Any]] = {}
    for name, parsed in bdd_feature.features.items():
        stamp = _stamp(name)
        if name.startswith(root) and stamp is not None:
            entries[name] = (stamp, parsed)
    target = cache_file(features_dir)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=target.parent, prefix=".features-", delete=False) as stream:
            pickle.dump(entries, stream, protocol=pickle.HIGHEST_PROTOCOL)
        Path(stream.name).replace(target)
    except (OSError, pickle.PickleError, TypeError, AttributeError):
        with contextlib.suppress(OSError, NameError):
            Path(stream.name).unlink()
        return False
    return True

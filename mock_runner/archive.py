"""Files in and out of artifact zips, as the official upload/download actions lay them out.

Search follows actions/upload-artifact: each ``path`` line is a file, a directory or a glob (``!`` lines
exclude); the zip's root is the search path when there is one (for a single file: its directory), else
the common ancestor of all search paths. The zip is written into a pipe while it is uploaded, so no
archive ever sits on disk or in memory whole.
"""

from __future__ import annotations

import glob
import os
import stat
import threading
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from .jobenv import StepError

__all__ = [
    "FORBIDDEN_NAME_CHARACTERS",
    "FileSearch",
    "ZipStream",
    "extract_zip",
    "find_files",
    "validate_artifact_name",
]

FORBIDDEN_NAME_CHARACTERS = ('"', ":", "<", ">", "|", "*", "?", "\r", "\n", "\\", "/")
GLOB_CHARACTERS = frozenset("*?[")


def validate_artifact_name(name: str) -> None:
    """Refuse the names the official client refuses (they break paths on some systems)."""
    if not name.strip():
        raise StepError("the artifact name is empty")
    bad = [char for char in FORBIDDEN_NAME_CHARACTERS if char in name]
    if bad or "\0" in name:
        shown = ", ".join(repr(char) for char in bad) or "NUL"
        raise StepError(f"artifact name {name!r} contains {shown}, which artifact names may not contain")


@dataclass(frozen=True)
class FileSearch:
    """The files to archive (absolute) and the directory their archive names are relative to."""

    files: list[Path]
    root: Path

    def archive_name(self, file: Path) -> str:
        return file.relative_to(self.root).as_posix()


def _search_path(pattern: str) -> Path:
    """The literal directory prefix of a pattern (``out/**/*.txt`` → ``out``)."""
    parts = Path(pattern).parts
    literal: list[str] = []
    for part in parts:
        if GLOB_CHARACTERS & set(part):
            break
        literal.append(part)
    return Path(*literal) if literal else Path()


def _expand(pattern: Path) -> list[Path]:
    """Every regular file a pattern names: the file itself, the files under a directory, or glob matches."""
    matches = (
        [Path(item) for item in glob.glob(str(pattern), recursive=True, include_hidden=True)]  # noqa: PTH207 (absolute patterns)
        if GLOB_CHARACTERS & set(str(pattern))
        else ([pattern] if pattern.exists() else [])
    )
    files: list[Path] = []
    for match in matches:
        if match.is_dir():
            files.extend(sorted(path for path in match.rglob("*") if path.is_file()))
        elif match.is_file():
            files.append(match)
    return files


def _hidden(file: Path, root: Path) -> bool:
    try:
        parts = file.relative_to(root).parts
    except ValueError:
        parts = file.parts
    return any(part.startswith(".") and part not in (".", "..") for part in parts)


def find_files(path_input: str, workspace: Path, *, include_hidden: bool = False) -> FileSearch:
    """Resolve upload-artifact's ``path`` input against the workspace."""
    includes: list[Path] = []
    excludes: list[Path] = []
    for raw in path_input.splitlines():
        line = raw.strip()
        if not line:
            continue
        negate = line.startswith("!")
        given = Path(line[1:].strip() if negate else line).expanduser()
        pattern = given if given.is_absolute() else workspace / given
        (excludes if negate else includes).append(Path(os.path.normpath(pattern)))
    if not includes:
        raise StepError("input 'path' names no file")
    search_paths = [Path(os.path.normpath(_search_path(str(pattern)))) for pattern in includes]
    found: dict[Path, None] = {}
    for pattern in includes:
        for file in _expand(pattern):
            found[file.absolute()] = None
    excluded = {file.absolute() for pattern in excludes for file in _expand(pattern)}
    files = [file for file in found if file not in excluded]
    if len(files) == 1 and len(search_paths) == 1 and files[0] == search_paths[0].absolute():
        return FileSearch(files=files, root=files[0].parent)
    root = search_paths[0] if len(search_paths) == 1 else Path(os.path.commonpath(search_paths))
    root = root.absolute()
    files = [file for file in files if file.is_relative_to(root)]
    if not include_hidden:
        files = [file for file in files if not _hidden(file, root)]
    return FileSearch(files=sorted(files), root=root)


class ZipStream:
    """A zip of ``search.files`` produced by a thread into a pipe; read it like a file.

    A failure while zipping is raised from ``read`` so the upload stops before finalizing a bad zip.
    """

    def __init__(self, search: FileSearch, compression_level: int = 6) -> None:
        read_fd, write_fd = os.pipe()
        self._reader: BinaryIO = os.fdopen(read_fd, "rb")
        self._writer: BinaryIO = os.fdopen(write_fd, "wb")
        self._search = search
        self._level = compression_level
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._produce, name="zip-writer", daemon=True)
        self._thread.start()

    def _produce(self) -> None:
        method = zipfile.ZIP_STORED if self._level == 0 else zipfile.ZIP_DEFLATED
        try:
            with (
                self._writer,
                zipfile.ZipFile(self._writer, "w", compression=method, compresslevel=self._level or None) as archive,
            ):
                for file in self._search.files:
                    info = zipfile.ZipInfo.from_file(file, self._search.archive_name(file))
                    info.compress_type = method
                    with file.open("rb") as source, archive.open(info, "w", force_zip64=True) as target:
                        while chunk := source.read(1024 * 1024):
                            target.write(chunk)
        except BrokenPipeError:
            pass  # the reader went away (the upload failed); its error is the one to report
        except BaseException as exc:
            self._error = exc

    def read(self, size: int = -1) -> bytes:
        data = self._reader.read(size)
        if not data:
            self._thread.join()
            if self._error is not None:
                raise StepError(f"cannot zip the files: {self._error}") from self._error
        return data

    def close(self) -> None:
        self._reader.close()
        self._thread.join()

    def __enter__(self) -> ZipStream:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def extract_zip(archive: Path, destination: Path) -> list[Path]:
    """Unzip into ``destination``, refusing entries that would land outside it; keeps executable bits."""
    destination.mkdir(parents=True, exist_ok=True)
    base = destination.resolve()
    written: list[Path] = []
    try:
        with zipfile.ZipFile(archive) as bundle:
            for info in bundle.infolist():
                target = (base / info.filename).resolve()
                if not target.is_relative_to(base) or Path(info.filename).is_absolute():
                    raise StepError(f"the artifact holds {info.filename!r}, which points outside {destination}")
                if info.is_dir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                with bundle.open(info) as source, target.open("wb") as sink:
                    while chunk := source.read(1024 * 1024):
                        sink.write(chunk)
                mode = (info.external_attr >> 16) & 0o777
                if mode & stat.S_IXUSR:
                    target.chmod(mode | stat.S_IRUSR | stat.S_IWUSR)
                written.append(target)
    except zipfile.BadZipFile as exc:
        raise StepError(f"the artifact is not a valid zip: {exc}") from exc
    return written

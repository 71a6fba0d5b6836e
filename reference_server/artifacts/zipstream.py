"""A one-file ZIP archive built on the fly: headers around the stored bytes, streamed in constant memory.

The entry is stored (no compression) and its CRC-32 and size are known from finalize, so the archive's
exact length is known up front (``Content-Length``) and no data descriptor is needed. ZIP64 records are
used when the file or the offsets do not fit 32 bits.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

__all__ = ["ZipEntry", "single_file_zip"]

PIECE = 1024 * 1024
U32 = 0xFFFFFFFF
U16 = 0xFFFF
ZIP64_THRESHOLD = U32 - 0x10000  # leaves room for the headers around the data
UTF8_FLAG = 0x0800
UNIX_FILE_ATTRS = (0o100644 << 16) & U32


@dataclass(frozen=True)
class ZipEntry:
    """The file to wrap: its name inside the archive, the parts holding its bytes in order, size and CRC."""

    name: str
    parts: Sequence[Path]
    size: int
    crc32: int
    modified: float


def _dos_time(moment: float) -> tuple[int, int]:
    when = datetime.fromtimestamp(moment, UTC)
    year = min(max(when.year, 1980), 2107)
    date = ((year - 1980) << 9) | (when.month << 5) | when.day
    time = (when.hour << 11) | (when.minute << 5) | (when.second // 2)
    return time, date


def _headers(entry: ZipEntry, zip64: bool) -> tuple[bytes, bytes]:
    """(local header, central directory + end records) for the entry."""
    name = entry.name.encode("utf-8")
    time, date = _dos_time(entry.modified)
    version = 45 if zip64 else 20
    size32 = U32 if zip64 else entry.size
    local_extra = struct.pack("<HHQQ", 0x0001, 16, entry.size, entry.size) if zip64 else b""
    local = (
        struct.pack(
            "<IHHHHHIIIHH",
            0x04034B50,
            version,
            UTF8_FLAG,
            0,
            time,
            date,
            entry.crc32,
            size32,
            size32,
            len(name),
            len(local_extra),
        )
        + name
        + local_extra
    )
    data_end = len(local) + entry.size
    central_extra = struct.pack("<HHQQQ", 0x0001, 24, entry.size, entry.size, 0) if zip64 else b""
    central = (
        struct.pack(
            "<IHHHHHHIIIHHHHHII",
            0x02014B50,
            (3 << 8) | version,
            version,
            UTF8_FLAG,
            0,
            time,
            date,
            entry.crc32,
            size32,
            size32,
            len(name),
            len(central_extra),
            0,
            0,
            0,
            UNIX_FILE_ATTRS,
            U32 if zip64 else 0,
        )
        + name
        + central_extra
    )
    end = b""
    if zip64:
        zip64_end_offset = data_end + len(central)
        end += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, version, version, 0, 0, 1, 1, len(central), data_end)
        end += struct.pack("<IIQI", 0x07064B50, 0, zip64_end_offset, 1)
        end += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, U16, U16, U32, U32, 0)
    else:
        end += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central), data_end, 0)
    return local, central + end


def single_file_zip(entry: ZipEntry, *, force_zip64: bool = False) -> tuple[int, Iterator[bytes]]:
    """(archive length, chunks) of a ZIP holding ``entry`` alone."""
    zip64 = force_zip64 or entry.size >= ZIP64_THRESHOLD
    local, trailer = _headers(entry, zip64)

    def chunks() -> Iterator[bytes]:
        yield local
        for part in entry.parts:
            with part.open("rb") as handle:
                while piece := handle.read(PIECE):
                    yield piece
        yield trailer

    return len(local) + entry.size + len(trailer), chunks()

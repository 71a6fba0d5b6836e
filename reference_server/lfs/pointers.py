"""Git LFS pointer files: the one parser, below both the contents API (which describes pointers) and the LFS
family (which serves the objects they name)."""

from __future__ import annotations

__all__ = ["POINTER_MAX", "parse_pointer"]

POINTER_MAX = 1024
"""Git LFS never writes a pointer file larger than this; a larger blob is content, not a pointer."""
VERSION_LINE = b"version https://git-lfs.github.com/spec/v1\n"


def parse_pointer(raw: bytes) -> tuple[str, int] | None:
    """``(oid, size)`` when a blob is a Git LFS pointer file."""
    if len(raw) > POINTER_MAX or not raw.startswith(VERSION_LINE):
        return None
    fields = dict(line.split(" ", 1) for line in raw.decode("utf-8", "replace").splitlines()[1:] if " " in line)
    oid = fields.get("oid", "")
    size = fields.get("size", "")
    if not oid.startswith("sha256:") or len(oid) != 71 or not size.isdigit():
        return None
    return oid[len("sha256:") :], int(size)

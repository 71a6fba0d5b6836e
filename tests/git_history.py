"""A long linear history written as one pack: the objects ``git fast-import`` would make, in a fraction of its time.

Commit ``n`` adds ``f{n}.txt`` (content ``n``), so tree ``n`` lists ``n`` files. ``git fast-import`` rebuilds,
sorts and deltifies every tree in full (quadratic: ~50 s of CPU for 10,000 commits). Here each tree is a copy
of the one before with one entry inserted, so its delta is known without searching: copy, insert, copy. The
pack goes through ``git index-pack``, which checks every object as for a fetch. As fast-import does, a delta
chain is at most ``DELTA_DEPTH`` long, so reading the last tree stays cheap.
"""

from __future__ import annotations

import hashlib
import struct
import subprocess
import zlib
from pathlib import Path

__all__ = ["DELTA_DEPTH", "fast_import_script", "write_linear_history"]

DELTA_DEPTH = 50
"""``git fast-import``'s default ``--depth``."""
COMMIT, TREE, BLOB, REF_DELTA = 1, 2, 3, 7
IDENTITY = "Ann <ann@example.test>"
FIRST_TIME = 1_700_000_000


def fast_import_script(count: int) -> bytes:
    """The ``git fast-import`` stream of the same history (the slow way, to compare with)."""
    lines = []
    for number in range(1, count + 1):
        lines += [
            "commit refs/heads/main",
            f"committer {IDENTITY} {FIRST_TIME + number} +0000",
            "data 7",
            "commit\n" + f"M 644 inline f{number}.txt",
            f"data {len(str(number))}",
            str(number),
        ]
    return ("\n".join(lines) + "\n").encode()


def _object_id(kind: str, data: bytes | bytearray) -> bytes:
    return hashlib.sha1(f"{kind} {len(data)}\0".encode() + data, usedforsecurity=False).digest()


def _header(kind: int, size: int) -> bytes:
    """A pack entry's type and inflated size."""
    out = bytearray([(kind << 4) | (size & 0x0F)])
    size >>= 4
    while size:
        out[-1] |= 0x80
        out.append(size & 0x7F)
        size >>= 7
    return bytes(out)


def _varint(value: int) -> bytes:
    """A delta's size field: seven bits a byte, least significant first."""
    out = bytearray()
    while True:
        out.append(value & 0x7F)
        value >>= 7
        if not value:
            return bytes(out)
        out[-1] |= 0x80


def _copy(offset: int, size: int) -> bytes:
    """A delta's copy instruction (``size`` below 2^24, as every tree here)."""
    flags, operands = 0x80, bytearray()
    for bit, byte in enumerate(struct.pack("<I", offset)):
        if byte:
            flags |= 1 << bit
            operands.append(byte)
    for bit, byte in enumerate(struct.pack("<I", size)[:3]):
        if byte:
            flags |= 1 << (4 + bit)
            operands.append(byte)
    return bytes([flags]) + bytes(operands)


class _Lengths:
    """Prefix sums of the entries' lengths by their rank in the final tree (a Fenwick tree)."""

    def __init__(self, size: int) -> None:
        self.sums = [0] * (size + 1)

    def add(self, rank: int, length: int) -> None:
        rank += 1
        while rank < len(self.sums):
            self.sums[rank] += length
            rank += rank & -rank

    def before(self, rank: int) -> int:
        total = 0
        while rank > 0:
            total += self.sums[rank]
            rank -= rank & -rank
        return total


def _pack(count: int) -> tuple[bytes, str]:
    """The pack of the history and the last commit's id."""
    names = [f"f{number}.txt".encode() for number in range(1, count + 1)]
    rank = {name: position for position, name in enumerate(sorted(names))}
    lengths = _Lengths(count)
    pack = bytearray(b"PACK" + struct.pack(">II", 2, 3 * count))
    tree = bytearray()
    tree_id = parent = b""
    depth = 0
    for number, name in enumerate(names, start=1):
        content = str(number).encode()
        blob_id = _object_id("blob", content)
        pack += _header(BLOB, len(content)) + zlib.compress(content, 1)
        entry = b"100644 " + name + b"\0" + blob_id
        offset = lengths.before(rank[name])
        lengths.add(rank[name], len(entry))
        base_size, base_id = len(tree), tree_id
        tree[offset:offset] = entry
        tree_id = _object_id("tree", tree)
        if base_id and depth < DELTA_DEPTH - 1:
            delta = bytearray(_varint(base_size) + _varint(len(tree)))
            if offset:
                delta += _copy(0, offset)
            delta += bytes([len(entry)]) + entry
            if offset < base_size:
                delta += _copy(offset, base_size - offset)
            pack += _header(REF_DELTA, len(delta)) + base_id + zlib.compress(bytes(delta), 1)
            depth += 1
        else:
            pack += _header(TREE, len(tree)) + zlib.compress(bytes(tree), 1)
            depth = 0
        stamp = f"{IDENTITY} {FIRST_TIME + number} +0000"
        parents = f"parent {parent.hex()}\n" if parent else ""
        commit = f"tree {tree_id.hex()}\n{parents}author {stamp}\ncommitter {stamp}\n\ncommit\n".encode()
        parent = _object_id("commit", commit)
        pack += _header(COMMIT, len(commit)) + zlib.compress(commit, 1)
    pack += hashlib.sha1(pack, usedforsecurity=False).digest()
    return bytes(pack), parent.hex()


def write_linear_history(git_dir: Path, count: int, branch: str = "main") -> str:
    """Store ``count`` commits on ``branch`` of the repository at ``git_dir``; returns the last commit's id."""
    pack, head = _pack(count)
    git = ["git", f"--git-dir={git_dir}"]
    subprocess.run([*git, "index-pack", "--stdin"], input=pack, check=True, capture_output=True)
    subprocess.run([*git, "update-ref", f"refs/heads/{branch}", head], check=True)
    return head

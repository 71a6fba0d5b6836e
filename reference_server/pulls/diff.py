"""The diff hunk a review comment shows: the file's diff cut to the lines just above the commented line,
with a hunk header recomputed for what is kept (as Gitea's ``CutDiffAroundLine`` does)."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["cut_diff_around_line"]

HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
CONTEXT_LINES = 3
"""How many lines above the commented one the hunk keeps."""


@dataclass(frozen=True)
class _DiffLine:
    text: str
    old: int | None
    new: int | None


def _parse(diff: str) -> tuple[list[str], list[list[_DiffLine]]]:
    """The file header lines (``diff --git``, ``---``, ``+++``) and the hunks with each line's numbers."""
    header: list[str] = []
    hunks: list[list[_DiffLine]] = []
    old = new = 0
    for text in diff.splitlines():
        match = HUNK_HEADER.match(text)
        if match:
            old, new = int(match.group(1)), int(match.group(3))
            hunks.append([])
            continue
        if not hunks:
            if text.startswith(("diff --git ", "--- ", "+++ ")):
                header.append(text)
            continue
        if text.startswith("+"):
            hunks[-1].append(_DiffLine(text, None, new))
            new += 1
        elif text.startswith("-"):
            hunks[-1].append(_DiffLine(text, old, None))
            old += 1
        elif text.startswith(" "):
            hunks[-1].append(_DiffLine(text, old, new))
            old += 1
            new += 1
    return header, hunks


def cut_diff_around_line(diff: str, line: int, *, old: bool, context: int = CONTEXT_LINES) -> str:
    """The part of one file's unified ``diff`` that ends at ``line`` of the old (``old``) or new side:
    the file header, a fresh hunk header and up to ``context`` lines before the line. Empty when the
    line is not part of the diff."""
    header, hunks = _parse(diff)
    for hunk in hunks:
        for position, entry in enumerate(hunk):
            number = entry.old if old else entry.new
            if number != line:
                continue
            kept = hunk[max(0, position - context) : position + 1]
            old_lines = [item.old for item in kept if item.old is not None]
            new_lines = [item.new for item in kept if item.new is not None]
            old_start = old_lines[0] if old_lines else _before(hunk, position, side_old=True)
            new_start = new_lines[0] if new_lines else _before(hunk, position, side_old=False)
            hunk_header = f"@@ -{old_start},{len(old_lines)} +{new_start},{len(new_lines)} @@"
            return "\n".join([*header, hunk_header, *(item.text for item in kept)])
    return ""


def _before(hunk: list[_DiffLine], position: int, *, side_old: bool) -> int:
    """The line number a side's empty range starts at (the last line of that side before ``position``)."""
    for entry in reversed(hunk[:position]):
        number = entry.old if side_old else entry.new
        if number is not None:
            return number
    return 0

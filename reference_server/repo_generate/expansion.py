"""The ``.gitea/template`` file of a template repository: which files of a generated repository get their
content and path expanded, and the expansion itself.

Gitea (``services/repository/generate.go``) reads the file's lines as glob patterns (``#`` starts a comment,
``*`` stays within a path segment, ``**`` crosses segments) and expands ``$VAR``/``${VAR}`` in the matching
files and their paths with the template's and the new repository's names, owners, descriptions and links,
the date, and the case variants of names (``casing.py``). The expansion is Go's ``os.Expand``: a variable
Gitea does not know becomes its bare name (``${NOPE}`` -> ``NOPE``), ``$$`` a single ``$``, ``${}`` nothing.
The file itself is not copied.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["TEMPLATE_FILE", "expand", "matcher", "sanitized_path"]

TEMPLATE_FILE = ".gitea/template"
_SHELL_SPECIAL = frozenset("*#$@!?-0123456789")
_NAME_CHARS = frozenset("_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_RESERVED = re.compile(r'[<>:"/\\|?*\x00-\x1f]|^(con|prn|aux|nul|com\d|lpt\d)$', re.IGNORECASE)


def _glob_regex(pattern: str) -> re.Pattern[str]:
    """A glob over ``/``-separated paths: ``**`` any depth, ``*`` and ``?`` within one segment."""
    out: list[str] = []
    index = 0
    while index < len(pattern):
        if pattern.startswith("**", index):
            out.append(".*")
            index += 2
        elif pattern[index] == "*":
            out.append("[^/]*")
            index += 1
        elif pattern[index] == "?":
            out.append("[^/]")
            index += 1
        else:
            out.append(re.escape(pattern[index]))
            index += 1
    return re.compile("".join(out) + r"\Z")


def matcher(template_file: bytes) -> list[re.Pattern[str]]:
    """The patterns of a ``.gitea/template`` file (blank lines and ``#`` comments left out)."""
    lines = template_file.decode("utf-8", "replace").splitlines()
    return [_glob_regex(line.strip()) for line in lines if line.strip() and not line.strip().startswith("#")]


def _shell_name(text: str) -> tuple[str, int]:
    """Go's ``getShellName``: the variable named after a ``$`` and how many characters it took."""
    if text[0] == "{":
        if len(text) > 2 and text[1] in _SHELL_SPECIAL and text[2] == "}":
            return text[1], 3
        close = text.find("}", 1)
        if close == 1:
            return "", 2  # "${}": bad syntax, eaten
        if close < 0:
            return "", 1  # "${" without its brace: eaten
        return text[1:close], close + 1
    if text[0] in _SHELL_SPECIAL:
        return text[0], 1
    end = 0
    while end < len(text) and text[end] in _NAME_CHARS:
        end += 1
    return text[:end], end


def expand(text: str, values: Mapping[str, str]) -> str:
    """Go's ``os.Expand`` with Gitea's mapping: a known variable's value, else the variable's bare name."""
    out: list[str] = []
    start = index = 0
    while index < len(text):
        if text[index] == "$" and index + 1 < len(text):
            out.append(text[start:index])
            name, width = _shell_name(text[index + 1 :])
            if name:
                out.append(values.get(name, name))
            elif width == 0:
                out.append("$")  # a "$" followed by no name stays
            index += width
            start = index + 1
        index += 1
    out.append(text[start:])
    return "".join(out)


def sanitized_path(path: str) -> str:
    """Gitea's ``filePathSanitize`` of an expanded path: reserved characters and device names become ``_``,
    a segment may not climb (``..`` -> ``__``) nor be ``.git``, empty segments go."""
    segments = []
    for raw in path.split("/"):
        segment = _RESERVED.sub("_", raw).strip()
        if segment.startswith(".."):
            segment = "__" + segment[2:]
        if segment.lower() == ".git":
            segment = "_" + segment[1:]
        if segment and segment != ".":
            segments.append(segment)
    return "/".join(segments)

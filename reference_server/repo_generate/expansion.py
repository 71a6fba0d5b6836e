"""The ``.gitea/template`` file of a template repository: which files of a generated repository get their
content and path expanded, and the expansion itself.

Gitea (``services/repository/generate.go``) reads the file's lines as glob patterns (``#`` starts a comment,
``*`` stays within a path segment, ``**`` crosses segments) and expands ``$VAR``/``${VAR}`` in the matching
files with the template's and the new repository's names, owners, descriptions and links (the reference
leaves a variable it does not know as written). The file itself is not copied.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["TEMPLATE_FILE", "expand", "matcher"]

TEMPLATE_FILE = ".gitea/template"
_VARIABLE = re.compile(r"\$(?:\{(?P<braced>[A-Za-z0-9_]+)\}|(?P<bare>[A-Za-z0-9_]+))")


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


def expand(text: str, values: Mapping[str, str]) -> str:
    """``$VAR`` and ``${VAR}`` replaced by ``values``; an unknown variable is left as written."""

    def one(match: re.Match[str]) -> str:
        key = match.group("braced") or match.group("bare")
        return values.get(key, match.group(0))

    return _VARIABLE.sub(one, text)

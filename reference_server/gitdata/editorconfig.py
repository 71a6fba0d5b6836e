"""The EditorConfig definition of a file, as Gitea's ``GetEditorconfig`` answers it with editorconfig-core-go:
the repository's root ``.editorconfig`` parsed, every section whose glob matches the file merged (later
sections win), rendered with the library's JSON names (unset properties left out)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = ["Section", "definition_for", "parse_editorconfig"]

_KNOWN_LOWERED = ("charset", "indent_style", "end_of_line")
_BOOLEANS = ("trim_trailing_whitespace", "insert_final_newline")
_ORDER = (
    "charset",
    "indent_style",
    "indent_size",
    "tab_width",
    "end_of_line",
    "trim_trailing_whitespace",
    "insert_final_newline",
)


@dataclass(frozen=True)
class Section:
    """One ``[glob]`` section: its selector and its properties (names lowercased)."""

    selector: str
    properties: dict[str, str]


def parse_editorconfig(text: str) -> list[Section]:
    """The sections of an ``.editorconfig`` in file order (the preamble, ``root = true``, is not one)."""
    sections: list[Section] = []
    current: Section | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = Section(line[1:-1], {})
            sections.append(current)
            continue
        key, sep, value = line.partition("=")
        if not sep or current is None:
            continue
        name = key.strip().lower()
        value = value.strip()
        current.properties[name] = value.lower() if name in _KNOWN_LOWERED else value
    return sections


def _brace(body: str, ranges: list[tuple[int, int]]) -> str:
    numeric = re.fullmatch(r"([+-]?\d+)\.\.([+-]?\d+)", body)
    if numeric:
        ranges.append((int(numeric.group(1)), int(numeric.group(2))))
        return f"(?P<n{len(ranges) - 1}>[+-]?\\d+)"
    if "," not in body:
        return re.escape("{" + body + "}")
    parts, depth, start = [], 0, 0
    for index, char in enumerate(body):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(body[start:index])
            start = index + 1
    parts.append(body[start:])
    return "(?:" + "|".join(_translate(part, ranges) for part in parts) + ")"


def _closing_brace(glob: str, start: int) -> int:
    depth = 0
    for index in range(start, len(glob)):
        if glob[index] == "{":
            depth += 1
        elif glob[index] == "}":
            depth -= 1
            if depth == 0:
                return index
    return -1


def _translate(glob: str, ranges: list[tuple[int, int]]) -> str:
    """An EditorConfig glob as a regular expression: ``*`` stays within a folder, ``**`` crosses folders,
    ``?``, ``[...]``/``[!...]``, ``{a,b}`` and ``{1..3}`` as the specification defines them."""
    out, index = [], 0
    while index < len(glob):
        char = glob[index]
        if char == "\\" and index + 1 < len(glob):
            out.append(re.escape(glob[index + 1]))
            index += 2
            continue
        if char == "*":
            if glob.startswith("**/", index):  # any folders, none included
                out.append("(?:.*/)?")
                index += 3
            elif glob.startswith("**", index):
                out.append(".*")
                index += 2
            else:
                out.append("[^/]*")
                index += 1
            continue
        if char == "?":
            out.append("[^/]")
        elif char == "[":
            end = glob.find("]", index + 1)
            if end == -1:
                out.append(re.escape(char))
            else:
                body = glob[index + 1 : end]
                negate = body.startswith("!")
                body = body[1:] if negate else body
                out.append(("[^" if negate else "[") + body.replace("\\", "\\\\") + "]")
                index = end
        elif char == "{":
            end = _closing_brace(glob, index)
            if end == -1:
                out.append(re.escape(char))
            else:
                out.append(_brace(glob[index + 1 : end], ranges))
                index = end
        else:
            out.append(re.escape(char))
        index += 1
    return "".join(out)


def _matches(selector: str, name: str) -> bool:
    if not selector.startswith("/"):
        selector = ("/" if "/" in selector else "/**/") + selector
    ranges: list[tuple[int, int]] = []
    try:
        found = re.fullmatch(_translate(selector, ranges), name)
    except re.error:
        return False
    if found is None:
        return False
    for number, (low, high) in enumerate(ranges):
        value = int(found.group(f"n{number}"))
        if not min(low, high) <= value <= max(low, high):
            return False
    return True


def _typed(name: str, value: str) -> Any:
    if name in _BOOLEANS:
        return value.lower() == "true"
    if name == "tab_width":
        return int(value) if value.isdigit() else 0
    return value


def definition_for(sections: list[Section], filename: str) -> dict[str, Any]:
    """The merged definition for ``filename``: sections are read from the last to the first and a property
    keeps the first value found, as editorconfig-core-go merges; zero values are left out."""
    name = filename if filename.startswith("/") else "/" + filename
    merged: dict[str, Any] = {}
    for section in reversed(sections):
        if not _matches(section.selector, name):
            continue
        for key in _ORDER:
            if key in section.properties and key not in merged:
                merged[key] = _typed(key, section.properties[key])
    if "tab_width" not in merged and merged.get("indent_size", "").isdigit():
        merged["tab_width"] = int(merged["indent_size"])
    return {key: value for key in _ORDER if (value := merged.get(key)) is not None and _kept(value)}


def _kept(value: Any) -> bool:
    """Go's ``omitempty`` on the library's fields: an empty text or a zero width is left out, a boolean
    (a pointer there) never."""
    return isinstance(value, bool) or value not in ("", 0)

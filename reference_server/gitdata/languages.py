"""Bytes of code per language on the default branch, as Gitea's language statistics count them with enry:
files are classed by name (extension, or a well-known file name), vendored, documentation, dot and
configuration files and generated files are left out, and only programming and markup languages count
(prose such as Markdown and data such as JSON never do without ``.gitattributes``). Only names are used, never
contents, so one ``git ls-tree`` answers the whole question."""

from __future__ import annotations

import re

from ..gitcli import Git, tree_entries

__all__ = ["language_of", "language_stats"]

PROGRAMMING = "programming"
MARKUP = "markup"
_LANGUAGES: dict[str, tuple[str, str]] = {
    ".py": ("Python", PROGRAMMING),
    ".pyi": ("Python", PROGRAMMING),
    ".go": ("Go", PROGRAMMING),
    ".rs": ("Rust", PROGRAMMING),
    ".js": ("JavaScript", PROGRAMMING),
    ".mjs": ("JavaScript", PROGRAMMING),
    ".cjs": ("JavaScript", PROGRAMMING),
    ".jsx": ("JavaScript", PROGRAMMING),
    ".ts": ("TypeScript", PROGRAMMING),
    ".tsx": ("TSX", PROGRAMMING),
    ".java": ("Java", PROGRAMMING),
    ".kt": ("Kotlin", PROGRAMMING),
    ".c": ("C", PROGRAMMING),
    ".h": ("C", PROGRAMMING),
    ".cc": ("C++", PROGRAMMING),
    ".cpp": ("C++", PROGRAMMING),
    ".hpp": ("C++", PROGRAMMING),
    ".cs": ("C#", PROGRAMMING),
    ".rb": ("Ruby", PROGRAMMING),
    ".php": ("PHP", PROGRAMMING),
    ".sh": ("Shell", PROGRAMMING),
    ".bash": ("Shell", PROGRAMMING),
    ".swift": ("Swift", PROGRAMMING),
    ".lua": ("Lua", PROGRAMMING),
    ".pl": ("Perl", PROGRAMMING),
    ".scala": ("Scala", PROGRAMMING),
    ".dart": ("Dart", PROGRAMMING),
    ".vue": ("Vue", MARKUP),
    ".html": ("HTML", MARKUP),
    ".htm": ("HTML", MARKUP),
    ".css": ("CSS", MARKUP),
    ".scss": ("SCSS", MARKUP),
    ".md": ("Markdown", "prose"),
    ".rst": ("reStructuredText", "prose"),
    ".txt": ("Text", "prose"),
    ".json": ("JSON", "data"),
    ".yml": ("YAML", "data"),
    ".yaml": ("YAML", "data"),
    ".toml": ("TOML", "data"),
    ".xml": ("XML", "data"),
    ".ini": ("INI", "data"),
    ".csv": ("CSV", "data"),
    ".sql": ("SQL", "data"),
}
_FILE_NAMES: dict[str, tuple[str, str]] = {
    "Makefile": ("Makefile", PROGRAMMING),
    "Dockerfile": ("Dockerfile", PROGRAMMING),
    "Rakefile": ("Ruby", PROGRAMMING),
    "CMakeLists.txt": ("CMake", PROGRAMMING),
}
_CONFIGURATION = frozenset({"JSON", "TOML", "XML", "YAML", "INI", "CSV"})
"""enry's ``IsConfiguration``: files of these languages are left out whatever their type."""
_VENDOR = re.compile(
    r"(^|/)(vendor|vendors|node_modules|bower_components|third[-_]?party|external|deps|Godeps|Pods|\.yarn)/"
    r"|(^|/)[^/]*\.min\.(js|css)$|(^|/)jquery[^/]*\.js$|(^|/)bootstrap[^/]*\.(js|css)$"
)
_DOCUMENTATION = re.compile(
    r"(^|/)(docs?|Documentation|man|examples?|samples?)/"
    r"|(^|/)(README|CHANGELOG|CHANGES|CONTRIBUTING|COPYING|INSTALL|LICEN[CS]E|NEWS)(\.[^/]*)?$",
    re.IGNORECASE,
)
_GENERATED = re.compile(
    r"(^|/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|go\.sum|Cargo\.lock|poetry\.lock|composer\.lock)$"
    r"|\.(pb\.go|pb\.cc|pb\.h|_pb2\.py|designer\.cs|g\.dart|min\.js\.map|js\.map|css\.map)$"
    r"|(^|/)(dist|build)/"
)


def language_of(path: str) -> tuple[str, str] | None:
    """``(language, type)`` a file's name gives, or None for an unknown kind of file."""
    name = path.rpartition("/")[2]
    if name in _FILE_NAMES:
        return _FILE_NAMES[name]
    stem, dot, extension = name.rpartition(".")
    if not dot or not stem:
        return None
    return _LANGUAGES.get(f".{extension.lower()}")


def _left_out(path: str) -> bool:
    """Vendored, documentation, dot, and generated files, as enry recognises them by name."""
    if any(part.startswith(".") for part in path.split("/")):
        return True
    return bool(_VENDOR.search(path) or _DOCUMENTATION.search(path) or _GENERATED.search(path))


def language_stats(git: Git, commit: str | None) -> dict[str, int]:
    """Bytes per language at ``commit`` (nothing for an empty repository)."""
    if commit is None:
        return {}
    completed = git.run("ls-tree", "-r", "-l", "-z", "--end-of-options", commit, check=False)
    if completed.returncode != 0:
        return {}
    sizes: dict[str, int] = {}
    for entry in tree_entries(completed.stdout):
        if entry.type != "blob" or entry.mode == "120000" or entry.size == 0 or _left_out(entry.path):
            continue
        found = language_of(entry.path)
        if found is None or found[0] in _CONFIGURATION or found[1] not in (PROGRAMMING, MARKUP):
            continue
        sizes[found[0]] = sizes.get(found[0], 0) + entry.size
    return sizes

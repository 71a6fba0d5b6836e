"""File names the server sends to clients (``Content-Disposition``, ZIP entries): never a path.

A client saves a download under the name it is given, often after Unicode normalisation of its own, so
a name is judged in every form it can take: as sent, and after NFC, NFKC and NFKD. Fullwidth full
stops and solidus (U+FF0E, U+FF0F) are harmless as such but become ``../`` under NFKC or NFKD; a name
is refused (on input) or reduced to its last safe component (on output) when any of those forms holds
a separator, a parent reference or a control character.
"""

from __future__ import annotations

import unicodedata
from typing import Final, Literal
from urllib.parse import quote

__all__ = ["content_disposition", "path_like_reason", "safe_file_name"]

FORMS: Final[tuple[Literal["NFC", "NFKC", "NFKD"], ...]] = ("NFC", "NFKC", "NFKD")
SEPARATORS = frozenset("/\\")


def _forms(name: str) -> list[str]:
    return [name, *(unicodedata.normalize(form, name) for form in FORMS)]


def path_like_reason(name: str) -> str | None:
    """Why ``name`` could be read as a path (in any normalised form), or None when it is a plain name."""
    for form in _forms(name):
        if any(ch in SEPARATORS for ch in form):
            return "it contains a path separator once normalised" if form != name else "it contains a path separator"
        if form in (".", ".."):
            return "it names a parent directory once normalised" if form != name else "it names a parent directory"
        if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in form):
            return "it contains a control character"
    return None


def safe_file_name(name: str, fallback: str) -> str:
    """``name`` when it is a plain file name in every normalised form, else its last component that is,
    else ``fallback``: what a client saves must never leave the folder it saves into."""
    if path_like_reason(name) is None and name:
        return name
    for form in _forms(name):
        last = form.replace("\\", "/").rsplit("/", 1)[-1]
        cleaned = "".join(ch for ch in last if ord(ch) >= 0x20 and ord(ch) != 0x7F)
        if cleaned and path_like_reason(cleaned) is None:
            return cleaned
    return fallback


def content_disposition(kind: str, filename: str, fallback: str = "download") -> str:
    """``inline``/``attachment`` with a quoted ASCII ``filename`` and ``filename*`` when non-ASCII; both
    are plain names (:func:`safe_file_name`), so no client builds a path from either."""
    safe = safe_file_name(filename, fallback)
    ascii_name = unicodedata.normalize("NFKD", safe).encode("ascii", "ignore").decode("ascii")
    ascii_name = "".join(ch for ch in ascii_name if ch.isprintable() and ch not in '"\\')
    ascii_name = safe_file_name(ascii_name, fallback)
    value = f'{kind}; filename="{ascii_name}"'
    if ascii_name != safe:
        value += f"; filename*=UTF-8''{quote(safe, safe='')}"
    return value

"""Which SPDX licenses a license file holds: word-shingle overlap with every license template.

The text is normalised (lower case, words of letters and digits, copyright lines dropped so a filled-in
year or owner does not matter) and cut into overlapping three-word shingles. An inverted index from
shingle to template, built once per process from the SPDX texts (about a second), counts the shared
shingles of every template in one pass. A template matches when at least ``THRESHOLD`` (0.85, Gitea's
classifier threshold) of its shingles are in the file; the best match by Dice coefficient is taken, its
shingles are removed, and the rest of the file is searched again, so a file holding two licenses
reports both and a license whose text contains a shorter one (MIT and MIT-0) reports only itself.
Deprecated SPDX identifiers are left out of the index (their texts repeat current ones); between
identical texts the alphabetically first identifier wins.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ..templates import models as templates

__all__ = ["THRESHOLD", "classify"]

THRESHOLD = 0.85
SHINGLE = 3
MAX_LICENSES_PER_FILE = 4
MIN_TEMPLATE_SHINGLES = 8
_WORD = re.compile(r"[a-z0-9]+")
_COPYRIGHT_LINE = ("copyright", "(c)", "\N{COPYRIGHT SIGN}")


def _words(text: str) -> list[str]:
    kept = [line for line in text.lower().splitlines() if not line.strip().startswith(_COPYRIGHT_LINE)]
    return _WORD.findall("\n".join(kept))


def shingles(text: str) -> frozenset[int]:
    """The hashed three-word shingles of a normalised text (a shorter text is one shingle)."""
    words = _words(text)
    if not words:
        return frozenset()
    count = max(len(words) - SHINGLE + 1, 1)
    return frozenset(hash(tuple(words[i : i + SHINGLE])) for i in range(count))


@dataclass(frozen=True)
class _Index:
    """Shingle -> names of the templates holding it, and each template's shingle count."""

    by_shingle: dict[int, tuple[str, ...]]
    sizes: dict[str, int]


@functools.cache
def _index() -> _Index:
    postings: dict[int, list[str]] = {}
    sizes: dict[str, int] = {}
    for key, spdx in sorted(templates.spdx_licenses().items()):
        if spdx.deprecated:
            continue
        grams = shingles(spdx.text)
        if len(grams) < MIN_TEMPLATE_SHINGLES:
            continue
        sizes[key] = len(grams)
        for gram in grams:
            postings.setdefault(gram, []).append(key)
    return _Index({gram: tuple(names) for gram, names in postings.items()}, sizes)


@functools.lru_cache(maxsize=64)
def _template_shingles(key: str) -> frozenset[int]:
    return shingles(templates.spdx_licenses()[key].text)


def _best_match(document: frozenset[int], index: _Index) -> str | None:
    shared: dict[str, int] = {}
    for gram in document:
        for key in index.by_shingle.get(gram, ()):
            shared[key] = shared.get(key, 0) + 1
    best: tuple[float, str] | None = None
    for key, count in shared.items():
        size = index.sizes[key]
        if count / size < THRESHOLD:
            continue
        dice = 2 * count / (len(document) + size)
        if best is None or dice > best[0] or (dice == best[0] and key < best[1]):
            best = (dice, key)
    return best[1] if best else None


def classify(text: str) -> list[str]:
    """The SPDX identifiers of the licenses the text holds, sorted (empty when none reaches the threshold)."""
    index = _index()
    document = shingles(text)
    found: list[str] = []
    while len(document) >= MIN_TEMPLATE_SHINGLES and len(found) < MAX_LICENSES_PER_FILE:
        key = _best_match(document, index)
        if key is None:
            break
        found.append(key)
        document = document - _template_shingles(key)
    return sorted(found)

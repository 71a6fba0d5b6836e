"""The one way to write a step's text: :func:`phrase`, a ``parse`` pattern that reads like the sentence.

* ``"{name}"`` (or ``'{name}'``) is a quoted argument that ends at its closing quote, so
  ``a user "{short}"`` never also matches ``a user "alice" with a token scoped "x"``;
* ``{count:d}`` is a whole number and ``{method:w}`` one word, as ``parse`` has them;
* ``{x:Type}`` is one of the closed vocabularies of :data:`TYPES` (``{operation:GitOperation}`` is
  ``clone``, ``push`` or ``fetch``). Closed lists keep two sentences from matching one step, which
  ``tests/test_step_vocabulary.py`` checks for every feature step.

An area with a vocabulary of its own adds it with :func:`register_type` before its steps use it (the
scopes of the Actions steps convert to ``ScopeRef`` that way).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pytest_bdd import parsers

__all__ = ["TYPES", "ParseType", "Phrase", "choice", "phrase", "register_type"]

QUOTED_FIELD = re.compile(r'"\{(\w+)\}"')
APOSTROPHED_FIELD = re.compile(r"'\{(\w+)\}'")


class ParseType:
    """A ``parse`` field type: the regular expression a field matches and what its text becomes."""

    def __init__(self, pattern: str, convert: Callable[[str], Any] = str) -> None:
        self.pattern = pattern
        self.convert = convert

    def __call__(self, text: str) -> Any:
        return self.convert(text)


def choice(*words: str) -> ParseType:
    """A field that is exactly one of ``words`` (longest first, so ``not busy`` wins over ``busy``)."""
    ordered = sorted(words, key=len, reverse=True)
    return ParseType("|".join(re.escape(word) for word in ordered))


TAMPERINGS = (
    "a tampered signature",
    "a truncated signature",
    "a padded signature",
    "no signature",
    "a changed expiry",
    "a changed artifact id",
)

TYPES: dict[str, ParseType] = {
    "Quoted": ParseType(r'[^"]*'),
    "Apostrophed": ParseType(r"[^']*"),
    "Rpc": ParseType(r"[A-Z][A-Za-z]+"),
    "Tampering": ParseType("|".join(re.escape(how) for how in TAMPERINGS) + r'|the artifact id of "[^"]+"'),
    "JsonLiteral": choice("true", "false", "null"),
    "Boolean": ParseType("true|false", lambda text: text == "true"),
    "Toggle": choice("disables", "enables"),
    "Toggled": choice("disabled", "enabled"),
    "RunsOrJobs": choice("runs", "jobs"),
    "GitOperation": choice("clone", "push", "fetch"),
    "SizeOrHash": choice("size", "hash"),
    "Online": choice("online", "offline"),
    "Busy": choice("busy", "not busy"),
}
"""Every named field type a step may use."""


def register_type(name: str, pattern: str, convert: Callable[[str], Any] = str) -> None:
    """Add an area's own field type (once; a name is never redefined, so no step changes meaning)."""
    assert name not in TYPES, f"the phrase type {name} is already defined"
    TYPES[name] = ParseType(pattern, convert)


class Phrase(parsers.parse):
    """A step parser made by :func:`phrase` (the step vocabulary test recognizes definitions by it)."""


def phrase(text: str) -> Phrase:
    """The parser of a step's sentence: quoted fields stop at their quote, ``{x:Type}`` from :data:`TYPES`."""
    pattern = QUOTED_FIELD.sub(r'"{\1:Quoted}"', text)
    pattern = APOSTROPHED_FIELD.sub(r"'{\1:Apostrophed}'", pattern)
    return Phrase(pattern, extra_types=dict(TYPES))

"""The case variants Gitea offers of a template variable (``$REPO_NAME_SNAKE``, ``${REPO_OWNER_PASCAL}``, ...).

Gitea 1.27 (``services/repository/generate.go``) names seven transformers: ``SNAKE`` and ``KEBAB`` (xstrings'
``ToSnakeCase``/``ToKebabCase``: words split at connectors, case changes and letter/number borders, then
lower-cased and joined), ``CAMEL`` and ``PASCAL`` (xstrings' ``ToCamelCase``/``ToPascalCase``: connectors
dropped, the next letter upper-cased), ``LOWER``, ``UPPER`` and ``TITLE`` (Unicode title casing of
golang.org/x/text/cases). The rules below follow xstrings 1.5 word by word, on Python characters instead of
UTF-8 bytes (a ``str`` holds no invalid runes, so xstrings' invalid-word branches never apply).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from enum import Enum, auto

__all__ = ["TRANSFORMERS", "to_camel", "to_kebab", "to_lower", "to_pascal", "to_snake", "to_title", "to_upper"]


class _Word(Enum):
    NONE = auto()
    NUMBER = auto()
    UPPER = auto()
    ALPHABET = auto()
    CONNECTOR = auto()
    PUNCT = auto()
    OTHER = auto()


def _is_connector(char: str) -> bool:
    return char in "-_" or char.isspace()


def _is_upper(char: str) -> bool:
    return unicodedata.category(char) == "Lu"


def _is_punct(char: str) -> bool:
    return unicodedata.category(char).startswith("P")


def _is_number(char: str) -> bool:
    return unicodedata.category(char).startswith("N")


def _is_alphabet(char: str) -> bool:
    """A letter that is not a CJK ideograph (xstrings' ``isAlphabet``)."""
    if not unicodedata.category(char).startswith("L"):
        return False
    code = ord(char)
    return not (0x4E00 <= code <= 0x9FCC or 0x3400 <= code <= 0x4D85 or 0x20000 <= code <= 0x2B81D)


def _one(char: str, cased: Callable[[str], str]) -> str:
    """A one-character case mapping (Go's ``unicode.ToUpper``/``ToLower`` never grow a rune)."""
    mapped = cased(char)
    return mapped if len(mapped) == 1 else char


def _run(text: str, start: int, keep: Callable[[str], bool]) -> int:
    """The end of the run of characters from ``start`` that ``keep`` accepts."""
    end = start
    while end < len(text) and keep(text[end]):
        end += 1
    return end


def _next_word(text: str) -> tuple[_Word, str, str]:
    """xstrings' ``nextWord``: the kind of the first word, the word, and the rest."""
    if not text:
        return _Word.NONE, "", ""
    first = text[0]
    if _is_connector(first):
        kind, end = _Word.CONNECTOR, _run(text, 1, _is_connector)
    elif _is_punct(first):
        kind, end = _Word.PUNCT, _run(text, 1, _is_punct)
    elif _is_upper(first):
        kind, end = _Word.UPPER, 1
        if end < len(text) and _is_upper(text[end]):
            end = _run(text, end, _is_upper)
            if end < len(text) and _is_alphabet(text[end]):
                end -= 1  # "HTTPStatus": the "S" starts the next word
        elif end < len(text) and _is_alphabet(text[end]):
            end = _run(text, end, lambda char: _is_alphabet(char) and not _is_upper(char))
    elif _is_alphabet(first):
        kind, end = _Word.ALPHABET, _run(text, 1, lambda char: _is_alphabet(char) and not _is_upper(char))
    elif _is_number(first):
        kind, end = _Word.NUMBER, _run(text, 1, _is_number)
    else:

        def other(char: str) -> bool:
            return not (_is_connector(char) or _is_alphabet(char) or _is_number(char) or _is_punct(char))

        kind, end = _Word.OTHER, _run(text, 1, other)
    return kind, text[:end], text[end:]


def _lowered(kind: _Word, word: str, connector: str) -> str:
    """xstrings' ``toLower``: upper-case and connector words lowered, connectors replaced; others as written."""
    if kind not in (_Word.UPPER, _Word.CONNECTOR):
        return word
    return "".join(connector if _is_connector(char) else _one(char, str.lower) for char in word)


def _joined_lower(text: str, connector: str) -> str:
    """xstrings' ``camelCaseToLowerCase``: words lowered and joined by ``connector``."""
    out: list[str] = []
    kind, word, rest = _next_word(text)
    separated = (_Word.NONE, _Word.PUNCT, _Word.CONNECTOR)
    while rest:
        if kind != _Word.CONNECTOR:
            out.append(_lowered(kind, word, connector))
        previous, last = kind, word
        kind, word, rest = _next_word(rest)
        if previous == _Word.NUMBER:
            while kind in (_Word.ALPHABET, _Word.NUMBER):
                out.append(_lowered(kind, word, connector))
                kind, word, rest = _next_word(rest)
            if kind not in separated:
                out.append(connector)
        elif previous == _Word.CONNECTOR:
            out.append(_lowered(previous, last, connector))
        elif previous == _Word.PUNCT:
            pass
        elif kind != _Word.NUMBER:
            if kind not in (_Word.CONNECTOR, _Word.PUNCT):
                out.append(connector)
        elif rest:
            number = word
            kind, word, rest = _next_word(rest)
            if kind != _Word.ALPHABET:  # "Bld4Floor": the number belongs to the word before it
                out.append(number)
                if kind not in (_Word.CONNECTOR, _Word.PUNCT):
                    out.append(connector)
                continue
            out.append(connector + number)  # "HTTP2xx": lower-case letters after a number start a word
            while kind in (_Word.ALPHABET, _Word.NUMBER):
                out.append(_lowered(kind, word, connector))
                kind, word, rest = _next_word(rest)
            if kind not in separated:
                out.append(connector)
    out.append(_lowered(kind, word, connector))
    return "".join(out)


def to_snake(text: str) -> str:
    """``"HTTPServer"`` -> ``"http_server"``, ``"Bld4Floor3rd"`` -> ``"bld4_floor_3rd"``."""
    return _joined_lower(text, "_")


def to_kebab(text: str) -> str:
    """``"HTTPServer"`` -> ``"http-server"``."""
    return _joined_lower(text, "-")


def _camel(text: str, big: bool) -> str:
    """xstrings' ``toCamelCase``: leading connectors kept, connectors dropped before a letter made upper case,
    a run of capitals after a word start lowered."""
    index = 0
    out: list[str] = []
    while index < len(text) and _is_connector(text[index]):
        out.append(text[index])
        index += 1
    if index == len(text):  # connectors only: xstrings writes the last one once more
        return "".join(out) + text[-1:]
    first_upper = _is_upper(text[index])
    current = _one(text[index], str.upper if big else str.lower)
    for char in text[index + 1 :]:
        previous, current = current, char
        if _is_connector(current) and _is_connector(previous):
            out.append(previous)
            continue
        if _is_connector(previous):
            first_upper = _is_upper(current)
            current = _one(current, str.upper)
            continue
        if first_upper:
            if _is_upper(current):
                current = _one(current, str.lower)
            else:
                first_upper = False
        out.append(previous)
    if first_upper and not big:
        current = _one(current, str.lower)
    out.append(current)
    return "".join(out)


def to_camel(text: str) -> str:
    """``"some_words"`` -> ``"someWords"``, ``"GOLANG_IS_GREAT"`` -> ``"golangIsGreat"``."""
    return _camel(text, big=False)


def to_pascal(text: str) -> str:
    """``"some_words"`` -> ``"SomeWords"``, ``"_complex__case_"`` -> ``"_Complex_Case_"``."""
    return _camel(text, big=True)


_MID_WORD = frozenset("'.:\u00b7\u2019\u2018\u2024\ufe52\uff07\uff0e\u0387\u05f4\u2027\ufe13\ufe55\uff1a")
"""Characters inside a word for title casing (Unicode's MidLetter and MidNumLet): "don't" stays one word."""


def _cased(char: str) -> bool:
    return char.lower() != char.upper() or unicodedata.category(char) in ("Lu", "Ll", "Lt")


def _breaks_word(char: str) -> bool:
    category = unicodedata.category(char)
    return not (category[0] in "LNM" or char == "_" or char in _MID_WORD)


def to_title(text: str) -> str:
    """Unicode title casing as golang.org/x/text/cases does it for English: the first cased letter after a word
    break title-cased, the rest of the word lowered (``"my-new_Tool"`` -> ``"My-New_tool"``, ``"3rd"`` ->
    ``"3Rd"``)."""
    out: list[str] = []
    mid_word = False
    previous_mid = False
    for char in text:
        if previous_mid and char in _MID_WORD:
            mid_word = False
        previous_mid = char in _MID_WORD
        if _cased(char):
            out.append(_one(char, str.lower) if mid_word else _one(char, str.title))
            mid_word = True
        else:
            out.append(char)
            if _breaks_word(char):
                mid_word = False
    return "".join(out)


def to_lower(text: str) -> str:
    """Go's ``strings.ToLower``: one character for one (no ``"İ"`` -> ``"i̇"`` growth)."""
    return "".join(_one(char, str.lower) for char in text)


def to_upper(text: str) -> str:
    """Go's ``strings.ToUpper``: one character for one (``"ß"`` stays)."""
    return "".join(_one(char, str.upper) for char in text)


TRANSFORMERS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("SNAKE", to_snake),
    ("KEBAB", to_kebab),
    ("CAMEL", to_camel),
    ("PASCAL", to_pascal),
    ("LOWER", to_lower),
    ("UPPER", to_upper),
    ("TITLE", to_title),
)
"""Gitea's transformers, in its order: ``<VARIABLE>_<NAME>`` is the variable's value transformed."""

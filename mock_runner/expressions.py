"""The workflow expression language (``${{ ... }}`` and ``if:``), the subset jobs use in practice.

Supported: literals, context paths (``github.sha``, ``needs.a.outputs.b``, ``secrets['X']``), ``!``,
comparisons (loosely typed, strings case-insensitive, as GitHub does), ``&&``/``||`` (returning an operand),
parentheses, and the functions success, failure, always, cancelled, contains, startsWith, endsWith,
format, join, toJSON and fromJSON.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Evaluator", "ExpressionError", "to_text"]

_TOKEN = re.compile(
    r"\s*(?:(?P<number>-?(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?))"
    r"|(?P<string>'(?:[^']|'')*')"
    r"|(?P<op>==|!=|<=|>=|&&|\|\||[!<>()\[\].,*])"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_-]*))"
)
STATUS_FUNCTIONS = ("success", "failure", "always", "cancelled")


class ExpressionError(ValueError):
    """An expression that cannot be parsed or evaluated; the message names the expression."""


@dataclass(frozen=True)
class _Token:
    kind: str
    text: str


def _tokenize(expression: str) -> list[_Token]:
    tokens: list[_Token] = []
    position = 0
    text = expression.rstrip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if not match or match.end() == position:
            raise ExpressionError(f"unexpected character at {position} in {expression!r}")
        kind = match.lastgroup or ""
        tokens.append(_Token(kind, match.group(kind)))
        position = match.end()
    return tokens


def to_text(value: Any) -> str:
    """How a value reads when substituted into a string, as the runner does."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dict | list):
        return json.dumps(value, indent=2)
    return str(value)


def _to_number(value: Any) -> float:
    if value is None:
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return 0.0
        try:
            return float(int(text, 16)) if text.lower().startswith("0x") else float(text)
        except ValueError:
            return math.nan
    return math.nan


def truthy(value: Any) -> bool:
    """GitHub's truthiness: false, 0, NaN, '' and null are false; everything else is true."""
    if value is None:
        return False
    if isinstance(value, float) and math.isnan(value):
        return False
    if isinstance(value, bool | int | float | str):
        return bool(value)
    return True


def _compare(left: Any, right: Any, op: str) -> bool:
    if isinstance(left, str) and isinstance(right, str):
        a: Any = left.casefold()
        b: Any = right.casefold()
    elif type(left) is type(right) and isinstance(left, dict | list):
        if op in ("==", "!="):
            return (left is right) == (op == "==")
        return False
    else:
        a, b = _to_number(left), _to_number(right)
        if math.isnan(a) or math.isnan(b):
            return op == "!="
    outcome: dict[str, bool] = {
        "==": a == b,
        "!=": a != b,
        "<": a < b,
        "<=": a <= b,
        ">": a > b,
        ">=": a >= b,
    }
    return outcome[op]


def _lookup(container: Any, key: Any) -> Any:
    if isinstance(container, Mapping):
        name = to_text(key)
        if name in container:
            return container[name]
        folded = name.casefold()
        for candidate, value in container.items():
            if str(candidate).casefold() == folded:
                return value
        return None
    if isinstance(container, list) and not isinstance(key, str | bool):
        index = _to_number(key)
        if not math.isnan(index) and 0 <= int(index) < len(container):
            return container[int(index)]
    return None


class _Parser:
    """Recursive descent over the tokens, evaluating as it goes (short-circuit included)."""

    def __init__(self, evaluator: Evaluator, expression: str) -> None:
        self.evaluator = evaluator
        self.expression = expression
        self.tokens = _tokenize(expression)
        self.position = 0

    def fail(self, message: str) -> ExpressionError:
        return ExpressionError(f"{message} in expression {self.expression!r}")

    def peek(self) -> _Token | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def take(self, text: str | None = None) -> _Token:
        token = self.peek()
        if token is None or (text is not None and token.text != text):
            raise self.fail(f"expected {text or 'more'}")
        self.position += 1
        return token

    def accept(self, text: str) -> bool:
        token = self.peek()
        if token is not None and token.kind == "op" and token.text == text:
            self.position += 1
            return True
        return False

    def parse(self) -> Any:
        if not self.tokens:
            raise self.fail("empty expression")
        value = self.or_()
        if self.peek() is not None:
            raise self.fail(f"unexpected {self.peek().text!r}")  # type: ignore[union-attr]
        return value

    def or_(self) -> Any:
        value = self.and_()
        while self.accept("||"):
            right = self.and_()
            value = value if truthy(value) else right
        return value

    def and_(self) -> Any:
        value = self.equality()
        while self.accept("&&"):
            right = self.equality()
            value = right if truthy(value) else value
        return value

    def equality(self) -> Any:
        value = self.relational()
        while (token := self.peek()) is not None and token.text in ("==", "!="):
            self.position += 1
            value = _compare(value, self.relational(), token.text)
        return value

    def relational(self) -> Any:
        value = self.unary()
        while (token := self.peek()) is not None and token.text in ("<", "<=", ">", ">="):
            self.position += 1
            value = _compare(value, self.unary(), token.text)
        return value

    def unary(self) -> Any:
        if self.accept("!"):
            return not truthy(self.unary())
        return self.postfix()

    def postfix(self) -> Any:
        value = self.primary()
        while True:
            if self.accept("."):
                token = self.take()
                if token.text == "*":
                    value = list(value.values()) if isinstance(value, Mapping) else value
                elif token.kind == "name":
                    value = _lookup(value, token.text)
                else:
                    raise self.fail(f"bad property {token.text!r}")
            elif self.accept("["):
                key = self.or_()
                self.take("]")
                value = _lookup(value, key)
            else:
                return value

    def primary(self) -> Any:
        token = self.take()
        if token.kind == "number":
            text = token.text
            return float(int(text, 16)) if "x" in text.lower() else float(text)
        if token.kind == "string":
            return token.text[1:-1].replace("''", "'")
        if token.kind == "op" and token.text == "(":
            value = self.or_()
            self.take(")")
            return value
        if token.kind == "name":
            lowered = token.text.lower()
            if lowered in ("true", "false"):
                return lowered == "true"
            if lowered == "null":
                return None
            if self.accept("("):
                args: list[Any] = []
                if not self.accept(")"):
                    args.append(self.or_())
                    while self.accept(","):
                        args.append(self.or_())
                    self.take(")")
                return self.evaluator.call(token.text, args, self.expression)
            return self.evaluator.context(token.text)
        raise self.fail(f"unexpected {token.text!r}")


def _format(template: str, *args: Any) -> str:
    def replace(match: re.Match[str]) -> str:
        if match.group(0) in ("{{", "}}"):
            return match.group(0)[0]
        index = int(match.group(1))
        if index >= len(args):
            raise ExpressionError(f"format: no argument {index} for {template!r}")
        return to_text(args[index])

    return re.sub(r"\{\{|\}\}|\{(\d+)\}", replace, template)


class Evaluator:
    """Evaluates expressions against the job's contexts; ``status`` gives the job status so far."""

    def __init__(self, contexts: Mapping[str, Any], status: Callable[[], str]) -> None:
        self.contexts = contexts
        self.status = status

    def context(self, name: str) -> Any:
        if name.lower() not in {key.lower() for key in self.contexts}:
            raise ExpressionError(f"unknown context {name!r}")
        return _lookup(self.contexts, name)

    def call(self, name: str, args: list[Any], expression: str) -> Any:
        lowered = name.lower()
        status = self.status()
        simple: dict[str, Callable[[], Any]] = {
            "success": lambda: status == "success",
            "failure": lambda: status == "failure",
            "always": lambda: True,
            "cancelled": lambda: status == "cancelled",
        }
        if lowered in simple:
            if args:
                raise ExpressionError(f"{name}() takes no arguments in {expression!r}")
            return simple[lowered]()
        with_args: dict[str, tuple[int, Callable[..., Any]]] = {
            "contains": (2, self._contains),
            "startswith": (2, lambda a, b: to_text(a).casefold().startswith(to_text(b).casefold())),
            "endswith": (2, lambda a, b: to_text(a).casefold().endswith(to_text(b).casefold())),
            "join": (
                -1,
                lambda seq, sep=",": (
                    to_text(sep).join(to_text(v) for v in seq) if isinstance(seq, list) else to_text(seq)
                ),
            ),
            "tojson": (1, lambda v: json.dumps(v, indent=2)),
            "fromjson": (1, self._from_json),
            "format": (-1, lambda template, *rest: _format(to_text(template), *rest)),
        }
        if lowered not in with_args:
            raise ExpressionError(f"function {name}() is not supported by mock-runner in {expression!r}")
        arity, function = with_args[lowered]
        if (arity >= 0 and len(args) != arity) or not args:
            raise ExpressionError(f"{name}() got {len(args)} arguments in {expression!r}")
        return function(*args)

    @staticmethod
    def _contains(haystack: Any, needle: Any) -> bool:
        if isinstance(haystack, list):
            return any(_compare(item, needle, "==") for item in haystack)
        return to_text(needle).casefold() in to_text(haystack).casefold()

    @staticmethod
    def _from_json(text: Any) -> Any:
        try:
            return json.loads(to_text(text))
        except ValueError as exc:
            raise ExpressionError(f"fromJSON: not JSON: {to_text(text)[:80]!r}") from exc

    def evaluate(self, expression: str) -> Any:
        """The value of one expression (without the ``${{ }}`` wrapper)."""
        return _Parser(self, expression).parse()

    def interpolate(self, text: str) -> str:
        """Replace every ``${{ expr }}`` in ``text`` by its value as text."""
        out: list[str] = []
        position = 0
        while (start := text.find("${{", position)) >= 0:
            end = text.find("}}", start + 3)
            if end < 0:
                raise ExpressionError(f"unterminated '${{{{' in {text[start : start + 60]!r}")
            out.append(text[position:start])
            out.append(to_text(self.evaluate(text[start + 3 : end])))
            position = end + 2
        out.append(text[position:])
        return "".join(out)

    def condition(self, condition: Any) -> bool:
        """Evaluate an ``if:``; without a status function it means ``success() && (...)`` as on GitHub."""
        if condition is None or (isinstance(condition, str) and not condition.strip()):
            return self.status() == "success"
        if isinstance(condition, bool | int | float):
            return self.status() == "success" and truthy(condition)
        text = str(condition).strip()
        if text.startswith("${{") and text.endswith("}}") and text.count("${{") == 1:
            text = text[3:-2]
        uses_status = any(token.kind == "name" and token.text.lower() in STATUS_FUNCTIONS for token in _tokenize(text))
        if not uses_status:
            text = f"success() && ({text})"
        return truthy(self.evaluate(text))

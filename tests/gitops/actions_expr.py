"""GitHub Actions expressions (`${{ ... }}`), as far as the CI example uses them: literals,
contexts, property and index access, `!`, `==`, `!=`, `&&`, `||`, parentheses, `format()` and
the status checks. Values compare as GitHub compares them: strings without regard to case,
other types as numbers; `&&` and `||` give one of their operands, as in GitHub."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

_TOKEN = re.compile(
    r"\s*(?:(?P<string>'(?:[^']|'')*')|(?P<number>-?\d+(?:\.\d+)?)"
    r"|(?P<op>==|!=|&&|\|\||[!()\[\].,])|(?P<name>[A-Za-z_][A-Za-z0-9_-]*))"
)
_EMBEDDED = re.compile(r"\$\{\{(.*?)\}\}", re.S)

Status = Callable[[], bool]


class ExpressionError(ValueError):
    pass


def tokens(text: str) -> list[tuple[str, str]]:
    found, at = [], 0
    while at < len(text.rstrip()):
        match = _TOKEN.match(text, at)
        if match is None or match.end() == at:
            raise ExpressionError(f"cannot read {text[at:]!r} in {text!r}")
        kind = match.lastgroup
        assert kind is not None
        found.append((kind, match.group(kind)))
        at = match.end()
    return found


def truthy(value: Any) -> bool:
    return value not in (None, False, 0, "") and not (isinstance(value, float) and value != value)


def _number(value: Any) -> float:
    if value is None:
        return 0.0
    if isinstance(value, bool | int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip()) if value.strip() else 0.0
        except ValueError:
            return math.nan
    return math.nan


def equal(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return a.casefold() == b.casefold()
    if type(a) is type(b) and not isinstance(a, str | int | float | bool):
        return bool(a is b)
    return _number(a) == _number(b)


def text_of(value: Any) -> str:
    """A value as `${{ }}` writes it into text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dict | list):
        return json.dumps(value)
    return str(value)


def _get(value: Any, key: Any) -> Any:
    if isinstance(value, Mapping) and isinstance(key, str):
        for name, item in value.items():
            if name.casefold() == key.casefold():
                return item
        return None
    if isinstance(value, list) and isinstance(key, int | float) and 0 <= key < len(value):
        return value[int(key)]
    return None


class _Parser:
    def __init__(self, text: str, contexts: Mapping[str, Any], status: Mapping[str, Status]):
        self.items, self.at, self.text = tokens(text), 0, text
        self.contexts, self.status = contexts, status

    def peek(self) -> str | None:
        return self.items[self.at][1] if self.at < len(self.items) else None

    def take(self, expected: str | None = None) -> tuple[str, str]:
        if self.at >= len(self.items) or (expected and self.items[self.at][1] != expected):
            raise ExpressionError(f"expected {expected or 'more'} in {self.text!r}")
        self.at += 1
        return self.items[self.at - 1]

    def parse(self) -> Any:
        value = self.either()
        if self.at != len(self.items):
            raise ExpressionError(f"unexpected {self.peek()!r} in {self.text!r}")
        return value

    def either(self) -> Any:
        value = self.both()
        while self.peek() == "||":
            self.take()
            other = self.both()
            value = value if truthy(value) else other
        return value

    def both(self) -> Any:
        value = self.compare()
        while self.peek() == "&&":
            self.take()
            other = self.compare()
            value = other if truthy(value) else value
        return value

    def compare(self) -> Any:
        value = self.unary()
        if self.peek() in ("==", "!="):
            operator = self.take()[1]
            same = equal(value, self.unary())
            return same if operator == "==" else not same
        return value

    def unary(self) -> Any:
        if self.peek() == "!":
            self.take()
            return not truthy(self.unary())
        return self.postfix(self.primary())

    def postfix(self, value: Any) -> Any:
        while self.peek() in (".", "["):
            if self.take()[1] == ".":
                value = _get(value, self.take()[1])
            else:
                key = self.either()
                self.take("]")
                value = _get(value, key)
        return value

    def primary(self) -> Any:
        kind, text = self.take()
        if kind == "string":
            return text[1:-1].replace("''", "'")
        if kind == "number":
            return float(text)
        if text == "(":
            value = self.either()
            self.take(")")
            return value
        if kind != "name":
            raise ExpressionError(f"unexpected {text!r} in {self.text!r}")
        if text in ("true", "false", "null"):
            return {"true": True, "false": False, "null": None}[text]
        if self.peek() == "(":
            return self.call(text)
        return self.contexts.get(text)

    def call(self, name: str) -> Any:
        self.take("(")
        args = []
        while self.peek() != ")":
            args.append(self.either())
            if self.peek() == ",":
                self.take()
        self.take(")")
        if name in self.status:
            return self.status[name]()
        return _FUNCTIONS[name.casefold()](*args)


def _format(pattern: str, *args: Any) -> str:
    return re.sub(r"\{(\d+)\}", lambda m: text_of(args[int(m[1])]), pattern)


_FUNCTIONS: dict[str, Callable[..., Any]] = {"format": _format}


def evaluate(text: str, contexts: Mapping[str, Any], status: Mapping[str, Status]) -> Any:
    """The value of one expression (without its `${{ }}`)."""
    return _Parser(text, contexts, status).parse()


def interpolate(value: Any, contexts: Mapping[str, Any], status: Mapping[str, Status]) -> Any:
    """A workflow value with its `${{ }}` replaced: a whole expression keeps its value's type."""
    if not isinstance(value, str):
        return value
    whole = _EMBEDDED.fullmatch(value.strip())
    if whole and "${{" not in whole[1]:  # one expression, not several lines of them
        return evaluate(whole[1], contexts, status)
    return _EMBEDDED.sub(lambda m: text_of(evaluate(m[1], contexts, status)), value)


def condition(text: str, contexts: Mapping[str, Any], status: Mapping[str, Status]) -> bool:
    """An `if:` (with or without `${{ }}`): success() is implied unless a status check is named."""
    inner = _EMBEDDED.fullmatch(text.strip())
    expression = inner[1] if inner else text
    if not re.search(r"\b(success|failure|always|cancelled)\s*\(", expression):
        expression = f"success() && ({expression})"
    return truthy(evaluate(expression, contexts, status))

"""Jinja's immutable sandbox, bounded in memory by construction: every place a template builds a
value (an operator, a `~`, a list, tuple or dict written in it, a filter, a call, the text of an
output) is told the size of what it would build before it builds it, and refuses a value over
VALUE_LIMIT or a run whose values together would pass RUN_LIMIT. What a template may build is
then bounded however it combines things, so comparing, hashing or printing what it holds is
bounded too. Time is the trace budget's (`templating.time_budget`): no single step here can run
longer than its sizes allow.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment

from docsync.manifest.template_sizes import (
    MAX_WIDTH,
    RUN_LIMIT,
    VALUE_LIMIT,
    Weights,
    formatted,
    integer,
    megabytes,
    power,
    printf,
    repeated,
)

MAX_LIPSUM = 100
#: filters whose second argument is a width (or a length of lines)
_WIDTHS = ("center", "indent", "wordwrap", "batch")
#: filters whose text may grow several times what they are given (`&` becomes `&amp;`)
_GROWING = ("escape", "e", "forceescape", "urlencode", "tojson", "string", "pprint", "xmlattr")
#: filters making one object per item (or character) of what they are given
_ITEMS = (
    "list", "batch", "slice", "sort", "unique", "groupby", "map", "select", "reject",
    "selectattr", "rejectattr", "dictsort", "items", "reverse",
)  # fmt: skip
#: what one more object costs, at most, beyond its text (a short string, a small list)
OBJECT = 80


class _Bounded(CodeGenerator):
    """Compiles lists, tuples, dicts and `~` written in a template into calls that weigh them."""

    def visit_List(self, node: nodes.List, frame: Frame) -> None:
        self._weighed(super().visit_List, node, frame)

    def visit_Tuple(self, node: nodes.Tuple, frame: Frame) -> None:
        if node.ctx == "store":  # `{% for a, b in ... %}`: a target, not a value
            super().visit_Tuple(node, frame)
        else:
            self._weighed(super().visit_Tuple, node, frame)

    def visit_Dict(self, node: nodes.Dict, frame: Frame) -> None:
        self._weighed(super().visit_Dict, node, frame)

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        self.write("environment.joined((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")

    def _weighed(self, visit: Callable[[Any, Frame], None], node: Any, frame: Frame) -> None:
        self.write("environment.built(")
        visit(node, frame)
        self.write(")")


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """The sandbox every manifest template runs in; one per run, so RUN_LIMIT is per run."""

    code_generator_class = _Bounded
    intercepted_binops = frozenset({"*", "**", "%", "+", "-", "//", "/"})

    def __init__(self, **options: Any) -> None:
        super().__init__(finalize=self._finalize, **options)
        self.weights = Weights()
        self.spent = 0
        self.filters = {name: self._guarded(name, f) for name, f in self.filters.items()}
        lipsum: Any = self.globals["lipsum"]

        def bounded_lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> Any:
            if n > MAX_LIPSUM or max > MAX_WIDTH:
                raise SecurityError(f"lipsum() is limited to {MAX_LIPSUM} paragraphs")
            return lipsum(n, html, min, max)

        self.globals["lipsum"] = bounded_lipsum

    # -- the one check -------------------------------------------------------------------------
    def allow(self, size: int, what: str = "the value") -> None:
        """Refuses to build a value of `size` bytes, before it is built; else counts it."""
        if size > VALUE_LIMIT:
            raise SecurityError(
                f"{what} would take {megabytes(size)}, more than the "
                f"{megabytes(VALUE_LIMIT)} one template value may"
            )
        if self.spent + size > RUN_LIMIT:
            raise SecurityError(
                f"the templates of this run would build more than {megabytes(RUN_LIMIT)} of values"
            )
        self.spent += size

    def built(self, value: Any) -> Any:
        """A list, tuple or dict the template wrote: its weight, expanded, is bounded."""
        self.allow(self.weights.of(value))
        return value

    # -- where templates build values ----------------------------------------------------------
    def call_binop(self, context: Any, op: str, left: Any, right: Any) -> Any:
        weights = self.weights
        if op == "*":
            self.allow(repeated(weights, left, right), "the repetition")
            return operator.mul(left, right)
        if op == "**":
            power(left, right)
        elif op == "%" and isinstance(left, str):
            self.allow(printf(weights, left, right), "the formatted text")
        elif op in ("+", "-") and isinstance(left, int) and isinstance(right, int):
            integer(max(left.bit_length(), right.bit_length()) + 1)
        elif op == "+":
            self.allow(weights.of(left) + weights.of(right))
        return super().call_binop(context, op, left, right)

    def joined(self, parts: tuple[Any, ...]) -> str:
        """`a ~ b`: the texts joined."""
        self.allow(sum(self.weights.text(p) for p in parts), "the joined text")
        return "".join(str(p) for p in parts)

    def _finalize(self, value: Any) -> Any:
        """What `{{ }}` prints: its text is bounded before it is made."""
        if not isinstance(value, str):
            self.allow(self.weights.text(value), "the printed value")
        return value

    def wrap_str_format(self, value: Any) -> Any:
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        text = value.__self__

        def bounded(*args: Any, **kwargs: Any) -> Any:
            if value.__name__ == "format_map":
                size = formatted(self.weights, text, (), args[0] if args else {})
            else:
                size = formatted(self.weights, text, args, kwargs)
            self.allow(size, "the formatted text")
            return wrapped(*args, **kwargs)

        return bounded

    def call(self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        self.allow(self._call_size(__obj, args, kwargs), "the call's result")
        result = super().call(__context, __obj, *args, **kwargs)
        self._made(result, (__obj, *args, *kwargs.values()))
        return result

    def _call_size(self, obj: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
        """What a call could build: numbers above MAX_WIDTH as sizes are refused; a method of a
        text that repeats it (`replace`, `join`, `expandtabs`) is sized by what it repeats."""
        for value in (*args, *kwargs.values()):
            if isinstance(value, int) and not isinstance(value, bool) and value > VALUE_LIMIT:
                raise SecurityError(f"arguments above {VALUE_LIMIT} are not allowed in templates")
        owner = getattr(obj, "__self__", None)
        name = getattr(obj, "__name__", "")
        weights = self.weights
        if isinstance(owner, str):
            if name in ("ljust", "rjust", "center", "zfill") and args:
                _width(args[0])
            elif name == "replace" and len(args) >= 2:
                return _replaced(owner, args[0], args[1])
            elif name == "expandtabs":
                return len(owner) + owner.count("\t") * (int(args[0]) if args else 8)
            elif name == "join" and isinstance(args[0] if args else None, str | list | tuple):
                items = args[0]
                return sum(weights.text(i) for i in items) + len(owner) * len(items)
            elif name in ("split", "rsplit", "splitlines"):
                return len(owner) + OBJECT * (_parts(owner, args) + 1)
        given = sum(weights.of(v) for v in (*args, *kwargs.values()))
        return weights.of(owner) + given if owner is not None else given

    def _made(self, result: Any, given: tuple[Any, ...]) -> None:
        """A result that is not one of what it was given is weighed: later steps rely on it."""
        if result is None or any(result is g for g in given):
            return
        if isinstance(result, str | bytes | list | tuple | dict | set | frozenset):
            self.allow(self.weights.of(result))

    def _guarded(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        """A filter told the size of what it would build: widths bounded; `replace` and `join`
        sized by what they repeat, filters of items by their count, the rest by what they are
        given."""
        passes = getattr(function, "jinja_pass_arg", None)
        skip = 1 if passes is not None else 0

        def guarded(*args: Any, **kwargs: Any) -> Any:
            values = args[skip:]
            if name == "join" and values and not isinstance(values[0], list | tuple | str):
                values = (list(values[0]), *values[1:])  # a generator: its items, once
                args = (*args[:skip], *values)
            self.allow(self._filter_size(name, values, kwargs), f"the result of `{name}`")
            result = function(*args, **kwargs)
            self._made(result, values)
            return result

        if passes is not None:
            guarded.jinja_pass_arg = passes  # type: ignore[attr-defined]
        return guarded

    def _filter_size(self, name: str, values: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
        weights = self.weights
        if name in _WIDTHS and len(values) > 1:
            _width(values[1])
        first = values[0] if values else None
        given = sum(weights.of(v) for v in (*values, *kwargs.values()))
        if name == "replace" and len(values) >= 3 and isinstance(first, str):
            return _replaced(first, values[1], values[2])
        if name == "join" and isinstance(first, list | tuple | str):
            sep = values[1] if len(values) > 1 else kwargs.get("d", "")
            return sum(weights.text(i) for i in first) + weights.text(sep) * len(first)
        if name == "format" and isinstance(first, str):
            return printf(weights, first, values[1:])
        if name in _ITEMS:
            return given + OBJECT * _count(first)
        return (6 if name in _GROWING else 2) * given + 64


def _width(value: Any) -> None:
    width = len(value) if isinstance(value, str) else value
    if isinstance(width, int) and width > MAX_WIDTH:
        raise SecurityError(f"widths above {MAX_WIDTH} are not allowed in templates")


def _count(value: Any) -> int:
    """How many items iterating `value` gives (0 for what has no length: a generator's items
    were counted where it was made)."""
    try:
        return len(value)
    except TypeError:
        return 0


def _parts(text: str, args: tuple[Any, ...]) -> int:
    """How many parts splitting `text` may give (at whitespace or line breaks: each ASCII one,
    and any other character, which may be one)."""
    sep = args[0] if args and isinstance(args[0], str) and args[0] else None
    if sep is not None:
        return text.count(sep)
    other = len(text) - len(text.encode("ascii", "ignore"))
    return other + sum(text.count(c) for c in " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f")


def _replaced(text: str, old: Any, new: Any) -> int:
    if not isinstance(old, str) or not isinstance(new, str):
        return len(text)
    times = text.count(old) if old else len(text) + 1
    return len(text) + times * max(len(new) - len(old), 0)

"""Jinja's immutable sandbox, bounded by construction: every place a template builds a value (an
operator, a `~`, a slice, a list, tuple or dict written in it, a filter, a call, the text of an
output) is told the size of what it would build before it builds it, and refuses a value over
VALUE_LIMIT or a run whose values together would pass RUN_LIMIT. What a template may build is
then bounded however it combines things, so comparing, hashing or printing what it holds is
bounded too. What runs in C (a comparison, a search, a filter's sort or sum, what is built)
is charged to the run's budget of work by the bytes it reads or builds; what runs in Python is
counted by the trace (template_work): the budget counts work, never seconds.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment

from docsync.manifest.filter_sizes import filter_reads, filter_size, width
from docsync.manifest.template_sizes import (
    MAX_WIDTH,
    OBJECT,
    RUN_LIMIT,
    VALUE_LIMIT,
    Weights,
    formatted,
    integer,
    megabytes,
    parts,
    power,
    printf,
    repeated,
    replaced,
)
from docsync.manifest.template_work import Work

MAX_LIPSUM = 100
#: Jinja's comparison operators, as its code generator names them
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "eq": operator.eq,
    "ne": operator.ne,
    "gt": operator.gt,
    "gteq": operator.ge,
    "lt": operator.lt,
    "lteq": operator.le,
    "in": lambda item, container: item in container,
    "notin": lambda item, container: item not in container,
}
#: Jinja's tests that compare their value with another, by the operator they stand for
_COMPARING_TESTS = {
    "==": "eq", "eq": "eq", "equalto": "eq", "!=": "ne", "ne": "ne",
    ">": "gt", "gt": "gt", "greaterthan": "gt", ">=": "gteq", "ge": "gteq",
    "<": "lt", "lt": "lt", "lessthan": "lt", "<=": "lteq", "le": "lteq", "in": "in",
}  # fmt: skip
#: what holds its items by hash: finding one reads the item only
_HASHED: tuple[type[Any], ...] = (dict, set, frozenset, type({}.keys()))


class _Bounded(CodeGenerator):
    """Compiles lists, tuples, dicts, `~`, comparisons and slices written in a template into
    calls that weigh them."""

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

    def visit_Compare(self, node: nodes.Compare, frame: Frame) -> None:
        """`a == b`, `a in b`: compared by the sandbox, which charges what it reads. A chain
        (`a < b < c`) has its operands evaluated before its comparisons run (left to right)."""
        self.write("environment.compared((")
        self.visit(node.expr, frame)
        for operand in node.ops:
            self.write(f", {operand.op!r}, ")
            self.visit(operand.expr, frame)
        self.write(",))")

    def visit_Getitem(self, node: nodes.Getitem, frame: Frame) -> None:
        """A slice goes through the sandbox's `getitem`, which weighs the copy it makes (Jinja
        writes slices as Python's, bypassing it)."""
        if not isinstance(node.arg, nodes.Slice):
            super().visit_Getitem(node, frame)
            return
        self.write("environment.getitem(")
        self.visit(node.node, frame)
        self.write(", slice(")
        for index, part in enumerate((node.arg.start, node.arg.stop, node.arg.step)):
            self.write(", " if index else "")
            if part is None:
                self.write("None")
            else:
                self.visit(part, frame)
        self.write("))")

    def _weighed(self, visit: Callable[[Any, Frame], None], node: Any, frame: Frame) -> None:
        self.write("environment.built(")
        visit(node, frame)
        self.write(")")


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """The sandbox every manifest template runs in; one per run, so RUN_LIMIT and the budget
    of work are per run."""

    code_generator_class = _Bounded
    intercepted_binops = frozenset({"*", "**", "%", "+", "-", "//", "/"})

    def __init__(self, **options: Any) -> None:
        super().__init__(finalize=self._finalize, **options)
        self.weights = Weights()
        self.work = Work()
        self.spent = 0
        self.filters = {name: self._guarded(name, f) for name, f in self.filters.items()}
        tests: dict[str, Any] = self.tests
        self.tests = {name: self._tested(name, test) for name, test in tests.items()}
        lipsum: Any = self.globals["lipsum"]

        def bounded_lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> Any:
            if n > MAX_LIPSUM or max > MAX_WIDTH:
                raise SecurityError(f"lipsum() is limited to {MAX_LIPSUM} paragraphs")
            return lipsum(n, html, min, max)

        self.globals["lipsum"] = bounded_lipsum

    def _load_template(self, name: Any, globals: Any) -> Any:
        """`{% include %}`, `{% import %}` and `{% extends %}` load another template, and a
        manifest has none to load: said so, instead of jinja's "no loader for this environment
        specified". (The name is not repeated: it may come from env().)"""
        raise SecurityError(
            "{% include %}, {% import %} and {% extends %} cannot be used in manifests: each "
            "value (or *.yaml.j2 file) is rendered alone, with no other template to load; pass "
            "values they share with --var or --var-file"
        )

    # -- the two checks ------------------------------------------------------------------------
    def allow(self, size: int, what: str = "the value") -> None:
        """Refuses to build a value of `size` bytes, before it is built; else counts it, in
        the run's values and in its work."""
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
        self.work.bytes(size)

    def read(self, size: int) -> None:
        """Counts `size` bytes that code in C is about to read against the run's work."""
        self.work.bytes(size)

    def built(self, value: Any) -> Any:
        """A list, tuple or dict the template wrote: its weight, expanded, is bounded."""
        self.allow(self.weights.of(value))
        return value

    # -- where templates build or read values --------------------------------------------------
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

    def compared(self, chain: tuple[Any, ...]) -> bool:
        """`a == b`, `a in b`, `a < b < c`: each comparison charged by what it may read before
        it runs (equal texts are read to their end, a search reads what it searches)."""
        left = chain[0]
        for index in range(1, len(chain), 2):
            op, right = chain[index], chain[index + 1]
            self.read(self._comparison(op, left, right))
            if not _COMPARE[op](left, right):
                return False
            left = right
        return True

    def _comparison(self, op: str, left: Any, right: Any) -> int:
        weights = self.weights
        if op not in ("in", "notin"):
            return min(weights.of(left), weights.of(right))
        if isinstance(right, _HASHED):
            return weights.of(left)
        return weights.of(left) + weights.of(right)

    def getitem(self, obj: Any, argument: Any) -> Any:
        """`a[1:]` copies what it keeps: weighed before, as any value built; indexing is not."""
        if isinstance(argument, slice):
            self.allow(self.weights.of(obj), "the slice")
            return obj[argument]  # as Python's slice: an error for what has no items
        return super().getitem(obj, argument)

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
        weights = self.weights
        owner = getattr(__obj, "__self__", None)
        given = sum(weights.of(v) for v in (*args, *kwargs.values()))
        self.read(given + (weights.of(owner) if owner is not None else 0))
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
                width(args[0])
            elif name == "replace" and len(args) >= 2:
                return replaced(owner, args[0], args[1])
            elif name == "expandtabs":
                return len(owner) + owner.count("\t") * (int(args[0]) if args else 8)
            elif name == "join" and isinstance(args[0] if args else None, str | list | tuple):
                items = args[0]
                return sum(weights.text(i) for i in items) + len(owner) * len(items)
            elif name in ("split", "rsplit", "splitlines"):
                return len(owner) + OBJECT * (parts(owner, args) + 1)
        given = sum(weights.of(v) for v in (*args, *kwargs.values()))
        return weights.of(owner) + given if owner is not None else given

    def _made(self, result: Any, given: tuple[Any, ...]) -> None:
        """A result that is not one of what it was given is weighed: later steps rely on it."""
        if result is None or any(result is g for g in given):
            return
        if isinstance(result, str | bytes | list | tuple | dict | set | frozenset):
            self.allow(self.weights.of(result))

    def _guarded(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        """A filter told the size of what it would build (filter_sizes), and charged what it
        reads in C, before it runs."""
        passes = getattr(function, "jinja_pass_arg", None)
        skip = 1 if passes is not None else 0

        def guarded(*args: Any, **kwargs: Any) -> Any:
            values = args[skip:]
            if name == "join" and values and not isinstance(values[0], list | tuple | str):
                values = (list(values[0]), *values[1:])  # a generator: its items, once
                args = (*args[:skip], *values)
            self.allow(filter_size(self.weights, name, values, kwargs), f"the result of `{name}`")
            self.read(filter_reads(self.weights, name, values, kwargs))
            result = function(*args, **kwargs)
            self._made(result, values)
            return result

        if passes is not None:
            guarded.jinja_pass_arg = passes  # type: ignore[attr-defined]
        return guarded

    def _tested(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        """A test charged what it reads: a comparison (`eq`, `in`) as `compared` charges it,
        `lower` and `upper` every character; the others look at a type or a number."""
        passes = getattr(function, "jinja_pass_arg", None)
        skip = 1 if passes is not None else 0
        op = _COMPARING_TESTS.get(name)

        def tested(*args: Any, **kwargs: Any) -> Any:
            values = args[skip:]
            if op is not None and len(values) == 2:
                self.read(self._comparison(op, values[0], values[1]))
            elif name in ("lower", "upper") and values:
                self.read(self.weights.of(values[0]))
            return function(*args, **kwargs)

        if passes is not None:
            tested.jinja_pass_arg = passes  # type: ignore[attr-defined]
        return tested

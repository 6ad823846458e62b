"""What each of Jinja's filters would build and read, told before it runs: one rule a filter,
by what makes its result grow (a width times the lines it indents, a separator times the lines
it wraps, the items it makes, an attribute times the links it writes), and what it reads in C,
where no trace event counts the work (a sort, a sum, a search). The sandbox refuses a result
over its bounds and charges the reads to the run's work (template_work).

`values` are the filter's positional arguments, the filtered value first (without the context
Jinja passes some of them); `kwargs` its keyword arguments.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from jinja2.exceptions import SecurityError

from docsync.manifest.template_sizes import (
    MAX_WIDTH,
    OBJECT,
    REPR_FACTOR,
    Weights,
    char_bytes,
    count,
    printed,
    printf,
    replaced,
    runs,
)
from docsync.manifest.template_work import BYTES_PER_STEP

#: the line breaks of `str.splitlines`, which `indent` and `wordwrap` split at
_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
#: urlize's search for a link's trailing punctuation backtracks over a run of it, for each
#: character of the run: the work grows with the run's square (a word of 20,000 dots took 11 s).
#: Runs shorter than this are counted at this length, longer ones by their square; `>` counts
#: four, as urlize reads it escaped (`&gt;`)
_PUNCTUATION = re.compile(r"[)>.,\n]{32,}")
_SHORT_RUN = 4 * 32
#: what a link urlize writes adds beyond its text and attributes (`<a href="https://">`)
_LINK = 64
#: filters that answer in constant time, whatever they are given: they read nothing
_CONSTANT = frozenset(
    {"length", "count", "first", "last", "random", "attr", "d", "default", "abs", "round"}
)
#: filters written in Python that loop over what they are given inside one call (a line or a
#: tag at a time), where no trace event counts the work: a step for each byte they read
_PYTHON_LOOPS = frozenset(
    {"indent", "wordwrap", "striptags", "title", "xmlattr", "urlencode", "urlize"}
)
#: filters that sort what they are given: a comparison per item and per halving
_SORTING = frozenset({"sort", "dictsort", "groupby"})
#: filters making one object per item (or character) of what they are given
_ITEMS = frozenset(
    {"list", "sort", "unique", "map", "select", "reject", "selectattr", "rejectattr", "dictsort",
     "items", "reverse"}
)  # fmt: skip


@dataclass(frozen=True)
class Call:
    """One call of a filter, as its rule sees it."""

    weights: Weights
    values: tuple[Any, ...]
    kwargs: Mapping[str, Any]

    @property
    def first(self) -> Any:
        """The filtered value."""
        return self.values[0] if self.values else None

    @property
    def given(self) -> int:
        """The weight of everything the filter is given."""
        return sum(self.weights.of(v) for v in (*self.values, *self.kwargs.values()))

    def arg(self, at: int, name: str) -> Any:
        """An argument given by position (`at`, the filtered value being 0) or by name."""
        return self.values[at] if len(self.values) > at else self.kwargs.get(name)

    def printed(self, value: Any) -> int:
        return printed(self.weights, value)


def width(value: Any) -> int:
    """A width given as a number or as the text it stands for; above MAX_WIDTH is refused."""
    size = len(value) if isinstance(value, str) else value
    if isinstance(size, int) and not isinstance(size, bool):
        if size > MAX_WIDTH:
            raise SecurityError(f"widths above {MAX_WIDTH} are not allowed in templates")
        return max(size, 0)
    return 0


def filter_size(
    weights: Weights, name: str, values: tuple[Any, ...], kwargs: Mapping[str, Any]
) -> int:
    """The bytes the filter's result (and what it builds on the way) may take, at most."""
    call = Call(weights, values, kwargs)
    rule = _RULES.get(name)
    if rule is not None:
        return rule(call)
    if name in _ITEMS:
        return call.given + OBJECT * count(call.first)
    if name in ("upper", "lower", "capitalize"):  # a character's case may take three
        return 3 * call.printed(call.first) + 64
    if name in ("escape", "e", "forceescape"):  # `&` is `&amp;`
        return 5 * call.printed(call.first) + 64
    return 2 * call.given + 64


def filter_reads(
    weights: Weights, name: str, values: tuple[Any, ...], kwargs: Mapping[str, Any]
) -> int:
    """The bytes the filter reads in C, where no trace event counts its work."""
    if name in _CONSTANT:
        return 0
    call = Call(weights, values, kwargs)
    if name in _SORTING:
        return call.given * max(1, math.ceil(math.log2(count(call.first) + 2)))
    if name == "sum" and isinstance(call.arg(2, "start"), list | tuple | str):
        return call.given * (count(call.first) + 1)  # each item added copies those before
    if name == "urlize" and isinstance(call.first, str):
        squares = sum((4 * len(run)) ** 2 for run in _PUNCTUATION.findall(call.first))
        return BYTES_PER_STEP * call.given + _SHORT_RUN * len(call.first) + squares
    if name in _PYTHON_LOOPS:
        return BYTES_PER_STEP * call.given
    return call.given


# -- the filters whose result grows by more than what they are given ---------------------------
Rule = Callable[[Call], int]


def _indent(call: Call) -> int:
    """Each line is prefixed (blank ones too with `blank=true`, the first with `first=true`)."""
    prefix = call.arg(1, "width")
    prefix = 4 if prefix is None else prefix
    size = width(prefix)
    text = call.first if isinstance(call.first, str) else ""
    lines = sum(text.count(c) for c in _BREAKS) + 2
    wide = max(char_bytes(text), char_bytes(prefix) if isinstance(prefix, str) else 1)
    return call.printed(call.first) * wide + lines * size * wide + 64


def _wordwrap(call: Call) -> int:
    """At worst a line a character, each ended by the wrapstring; the words and lines made on
    the way are objects."""
    width(call.arg(1, "width"))
    wrap = call.arg(4, "wrapstring")
    joint = len(wrap) if isinstance(wrap, str) else 2
    text = call.first if isinstance(call.first, str) else ""
    lines = len(text) + sum(text.count(c) for c in _BREAKS) + 1
    wide = max(char_bytes(text), char_bytes(wrap) if isinstance(wrap, str) else 1)
    return (len(text) + lines * joint) * wide + OBJECT * (lines + 2 * runs(r"\s+", text)) + 64


def _urlize(call: Call) -> int:
    """The text escaped, and each word a link that writes it twice with the attributes."""
    text = call.printed(call.first)
    extra = sum(call.printed(call.arg(at, name)) for at, name in ((3, "target"), (4, "rel")))
    words = 2 * runs(r"\s+", call.first) + 1
    return 10 * text + words * (_LINK + 5 * extra + OBJECT) + 64


def _center(call: Call) -> int:
    return call.printed(call.first) + 4 * width(call.arg(1, "width")) + 64


def _batch(call: Call) -> int:
    """Lists of `linecount`, the last filled up to it."""
    size = width(call.arg(1, "linecount"))
    return call.given + OBJECT * (2 * count(call.first) + size + 1)


def _slice(call: Call) -> int:
    """`slices` lists, each filled up by one."""
    slices = call.arg(1, "slices")
    many = slices if isinstance(slices, int) and not isinstance(slices, bool) else 0
    return call.given + OBJECT * (count(call.first) + 2 * max(many, 0))


def _tojson(call: Call) -> int:
    """JSON escapes a character in up to 12 (`\\ud83d\\ude00`); indented, each value and each
    closing bracket is a line, prefixed by its depth times the indent."""
    indent = call.arg(1, "indent")
    size = 12 * call.weights.of(call.first) + 64
    if indent is not None:
        nodes, depth, _keys = call.weights.layout(call.first)
        size += 2 * nodes * (depth * width(indent) + 1)
    return size


def _pprint(call: Call) -> int:
    """Each value and closing bracket may be a line, prefixed by a column for each level and
    the text of the keys above it."""
    nodes, depth, keys = call.weights.layout(call.first)
    return REPR_FACTOR * call.weights.of(call.first) + 2 * nodes * (depth + keys + 2) + 64


def _replace(call: Call) -> int:
    if len(call.values) >= 3 and isinstance(call.first, str):
        return replaced(call.first, call.values[1], call.values[2])
    return 2 * call.given + 64


def _join(call: Call) -> int:
    if isinstance(call.first, list | tuple | str):
        sep = call.arg(1, "d") or ""
        return (
            sum(call.weights.text(i) for i in call.first)
            + call.weights.text(sep) * len(call.first)
            + 64
        )
    return 2 * call.given + 64


def _format(call: Call) -> int:
    if isinstance(call.first, str):
        return printf(call.weights, call.first, call.values[1:])
    return 2 * call.given + 64


def _words(factor: int, between: str) -> Rule:
    """Filters that split the text into a list on the way (`title` at runs of `between`, with
    them; `striptags` at spaces; `wordcount` finds its words): an item an object, and the result
    `factor` times the text (0: a number)."""

    def rule(call: Call) -> int:
        items = 2 * runs(between, call.first) + 1
        return factor * call.printed(call.first) + OBJECT * items + 64

    return rule


def _text(factor: int) -> Rule:
    """Filters whose result is the value's text, each character up to `factor` of them."""

    def rule(call: Call) -> int:
        return factor * call.printed(call.first) + 64

    return rule


def _small(call: Call) -> int:
    """A number, or one of the items given (not built): what is made is weighed after."""
    return 64


def _sum(call: Call) -> int:
    """A number, or the items added together when they are lists or texts."""
    return call.given + 64


def _round(call: Call) -> int:
    """Rounding an integer to -n digits computes 10**n: a precision is a width."""
    precision = call.arg(1, "precision")
    width(abs(precision) if isinstance(precision, int) else None)
    return 64


_RULES: dict[str, Rule] = {
    "indent": _indent,
    "wordwrap": _wordwrap,
    "urlize": _urlize,
    "center": _center,
    "batch": _batch,
    "slice": _slice,
    "tojson": _tojson,
    "pprint": _pprint,
    "replace": _replace,
    "join": _join,
    "format": _format,
    "title": _words(3, r"[-\s({\[<]+"),
    "striptags": _words(4, r"\s+|<"),  # `&#128512;` unescaped makes each character 4 bytes
    "wordcount": _words(0, r"\w+"),
    "string": _text(1),
    "safe": _text(1),
    "trim": _text(1),
    "truncate": _sum,
    "urlencode": _text(12),  # a character's UTF-8 bytes, each `%XX`
    "xmlattr": _text(5),
    "filesizeformat": _small,
    "int": _sum,
    "float": _sum,
    "abs": _sum,
    "round": _round,
    "length": _small,
    "count": _small,
    "call.first": _small,
    "last": _small,
    "random": _small,
    "attr": _small,
    "d": _small,
    "default": _small,
    "max": _small,
    "min": _small,
    "sum": _sum,
    "groupby": lambda call: call.given + 2 * OBJECT * count(call.first),
}

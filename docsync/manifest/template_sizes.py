"""How big a template's values are, and how big the value an operation would build is, told
before it is built: every guard here takes time in proportion to what it reads (no regex that
can backtrack, no walk of a value already weighed), so no guard can itself hold the run.

A value's weight is the memory it holds with everything it refers to, counted as often as it is
referred to (a list holding one string 999 times weighs 999 strings: that is what printing it
builds); `text` bounds the length of its `str()`.
"""

from __future__ import annotations

import re
import string
import sys
from collections.abc import Mapping
from typing import Any

from jinja2.exceptions import SecurityError
from jinja2.utils import Namespace

#: one template value's weight, at most (a list's, expanded), and the characters of its text
VALUE_LIMIT = 10_000_000
#: what the templates of one run may build, all values together
RUN_LIMIT = 256 * 1024 * 1024
#: width or precision of a format, indent or centre, at most
MAX_WIDTH = 10_000
#: an integer's size, at most: arithmetic on larger ones runs for minutes in C
MAX_INT_BITS = 4096
#: what a repr may make of each byte it shows (`\x00` is 4 characters)
REPR_FACTOR = 4
#: what one more object costs, at most, beyond its text (a short string, a small list)
OBJECT = 80
_CONTAINERS = (list, tuple, set, frozenset, dict)
_VIEWS: tuple[type[Any], ...] = (type({}.keys()), type({}.values()), type({}.items()))


class Weights:
    """Weighs values, each container once per render (`forget` between renders): a value
    built from weighed ones costs its own size, not a walk of theirs. A namespace is weighed
    anew each time: `{% set ns.x = ... %}` changes what it holds."""

    def __init__(self) -> None:
        self._known: dict[int, tuple[Any, int]] = {}
        self._layouts: dict[int, tuple[Any, tuple[int, int, int]]] = {}

    def forget(self) -> None:
        self._known.clear()
        self._layouts.clear()

    def of(self, value: Any) -> int:
        if isinstance(value, str | bytes | int | float) or value is None:
            return sys.getsizeof(value)
        if isinstance(value, Namespace):
            attrs = object.__getattribute__(value, "_Namespace__attrs")
            return sys.getsizeof(attrs) + sum(self.of(k) + self.of(v) for k, v in attrs.items())
        if isinstance(value, range):  # read item by item in C (a sum): a slot each, as a list
            return sys.getsizeof(value) + 8 * len(value)
        known = self._known.get(id(value))
        if known is not None and known[0] is value:
            return known[1]
        if isinstance(value, _VIEWS):
            weight = sum(self.of(item) for item in list(value))
        elif isinstance(value, dict):
            weight = sys.getsizeof(value)
            weight += sum(self.of(k) + self.of(v) for k, v in value.items())
        elif isinstance(value, _CONTAINERS):
            weight = sys.getsizeof(value) + sum(self.of(item) for item in value)
        else:  # macros, loops, undefined, generators: their text is their repr's, not expanded
            weight = sys.getsizeof(value)
        self._known[id(value)] = (value, weight)
        return weight

    def text(self, value: Any) -> int:
        """Characters of `str(value)`, at most."""
        if isinstance(value, str):
            return len(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return value.bit_length() // 3 + 2
        return REPR_FACTOR * self.of(value) + 64

    def layout(self, value: Any) -> tuple[int, int, int]:
        """How a value lays out over lines, for the filters that indent it (`tojson`, `pprint`):
        its values (counted as often as they are referred to), its levels of nesting, and the
        most characters of keys on the way from the top to any value."""
        if isinstance(value, Namespace):
            value = dict(object.__getattribute__(value, "_Namespace__attrs"))
        if not isinstance(value, _CONTAINERS):
            return 1, 0, 0
        known = self._layouts.get(id(value))
        if known is not None and known[0] is value:
            return known[1]
        nodes, depth, keys = 1, 1, 0
        items = value.items() if isinstance(value, dict) else ((None, item) for item in value)
        for key, item in items:
            below, deeper, more = self.layout(item)
            nodes += below
            depth = max(depth, deeper + 1)
            keys = max(keys, more + (REPR_FACTOR * self.text(key) + 4 if key is not None else 0))
        found = (nodes, depth, keys)
        self._layouts[id(value)] = (value, found)
        return found


def char_bytes(text: Any) -> int:
    """Bytes per character of `text` (CPython stores 1, 2 or 4 by its largest character)."""
    if not isinstance(text, str) or not text:
        return 1
    top = ord(max(text))
    return 1 if top < 256 else 2 if top < 65536 else 4


def printed(weights: Weights, value: Any) -> int:
    """Bytes of `str(value)`, at most: a text is itself; anything else is its repr's characters,
    each up to four bytes wide."""
    if isinstance(value, str):
        return weights.of(value)
    return 4 * weights.text(value)


def count(value: Any) -> int:
    """How many items iterating `value` gives (0 for what has no length: a generator's items
    were counted where it was made)."""
    try:
        return len(value)
    except TypeError:
        return 0


def runs(pattern: str, text: Any) -> int:
    """How many times `pattern` matches in `text`, counted in C without a list of them."""
    return re.subn(pattern, "", text)[1] if isinstance(text, str) else 0


def parts(text: str, args: tuple[Any, ...]) -> int:
    """How many parts splitting `text` may give (at whitespace or line breaks: each ASCII one,
    and any other character, which may be one)."""
    sep = args[0] if args and isinstance(args[0], str) and args[0] else None
    if sep is not None:
        return text.count(sep)
    other = len(text) - len(text.encode("ascii", "ignore"))
    return other + sum(text.count(c) for c in " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f")


def replaced(text: str, old: Any, new: Any) -> int:
    """The length of `text.replace(old, new)`, at most."""
    if not isinstance(old, str) or not isinstance(new, str):
        return len(text)
    times = text.count(old) if old else len(text) + 1
    return len(text) + times * max(len(new) - len(old), 0)


def megabytes(size: int) -> str:
    return f"{size / 1_000_000:,.0f} MB" if size >= 1_000_000 else f"{size:,} bytes"


def repeated(weights: Weights, left: Any, right: Any) -> int:
    """The weight of `left * right`: a repetition of text or a list, or a product."""
    for seq, times in ((left, right), (right, left)):
        if not isinstance(times, int) or isinstance(times, bool) or isinstance(seq, int):
            continue
        if isinstance(seq, str | bytes):
            return len(seq) * char_bytes(seq) * max(times, 0) + sys.getsizeof(seq)
        if isinstance(seq, list | tuple):
            return (weights.of(seq) + 8 * len(seq)) * max(times, 0)
    if isinstance(left, int) and isinstance(right, int):
        integer(left.bit_length() + right.bit_length())
    return weights.of(left) + weights.of(right)


def integer(bits: int) -> None:
    """Refuses an integer result of more than MAX_INT_BITS."""
    if bits > MAX_INT_BITS:
        raise SecurityError(f"integers of more than {MAX_INT_BITS} bits are not allowed")


def power(base: Any, exponent: Any) -> None:
    """`base ** exponent`: an exponent above 64, or an integer result too large, is refused."""
    if isinstance(exponent, int | float) and abs(exponent) > 64:
        raise SecurityError("exponents above 64 are not allowed in templates")
    if isinstance(base, int) and isinstance(exponent, int) and exponent > 0:
        integer(base.bit_length() * exponent)


def printf(weights: Weights, text: str, args: Any) -> int:
    """The text of `text % args`, at most; a width or precision of MAX_WIDTH or more, or one
    taken from the arguments (`%*d`), is refused. One pass over the text."""
    specs = 0
    index = text.find("%")
    while index != -1:
        end = index + 1
        if text.startswith("%", end):  # `%%`
            index = text.find("%", end + 1)
            continue
        if text.startswith("(", end):  # `%(name)s`
            close = text.find(")", end)
            end = len(text) if close == -1 else close + 1
        while end < len(text) and text[end] in "-#0 +":
            end += 1
        start = end
        while end < len(text) and (text[end].isdigit() or text[end] in ".*"):
            end += 1
        widths(text[start:end])
        specs += 1
        index = text.find("%", end)
    return len(text) + specs * (weights.text(args) + MAX_WIDTH)


def formatted(weights: Weights, text: str, args: Any, kwargs: Mapping[str, Any]) -> int:
    """The text of `text.format(*args, **kwargs)`, at most; what `printf` refuses is refused,
    and so is a width taken from the arguments (`{:{w}}`)."""
    fields = 0
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:
        return len(text)  # malformed: format itself says so, at once
    for _literal, name, spec, _conversion in parsed:
        if name is None:
            continue
        fields += 1
        if spec and "{" in spec:
            raise SecurityError("format widths taken from the arguments are not allowed")
        widths(spec or "")
    sizes = [weights.text(a) for a in args] + [weights.text(v) for v in kwargs.values()]
    return len(text) + fields * (max(sizes, default=0) + MAX_WIDTH)


def widths(spec: str) -> None:
    """Refuses a format spec with a width or precision of MAX_WIDTH or more, or `*`."""
    if "*" in spec:
        raise SecurityError("format widths taken from the arguments are not allowed")
    run = ""
    for char in spec + " ":
        if char.isdigit():
            run += char
            if len(run) > len(str(MAX_WIDTH)):
                break
            continue
        if run and int(run) >= MAX_WIDTH:
            break
        run = ""
    else:
        return
    raise SecurityError(f"format widths of {MAX_WIDTH} or more are not allowed")

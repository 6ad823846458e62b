"""Production's string patterns, read as production reads them: JSON Schema's patterns are
ECMAScript regular expressions, and Python's `re` reads some of the same text otherwise. Its
`\\s` also matches the separators U+001C to U+001F and U+0085 (an organization titled
"\\x1eA" would be refused), its `\\d` and `\\w` match every script's digits and letters, its `.`
matches a carriage return, and its `$` matches before a final newline (a branch
"refs/heads/main\\n" would pass). Translated once per pattern, so every check reads it as
ECMAScript does."""

from __future__ import annotations

import re
from functools import cache

#: what ECMAScript's `\s` matches: its white space and line terminators
SPACE = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
#: the classes an escape stands for, outside a bracketed class and inside one
OUTSIDE = {
    "s": f"[{SPACE}]",
    "S": f"[^{SPACE}]",
    "d": "[0-9]",
    "D": "[^0-9]",
    "w": "[A-Za-z0-9_]",
    "W": "[^A-Za-z0-9_]",
}
INSIDE = {"s": SPACE, "d": "0-9", "w": "A-Za-z0-9_"}
#: what ECMAScript's `.` matches: anything but a line terminator
DOT = "[^\\n\\r\\u2028\\u2029]"


@cache
def ecma(pattern: str) -> re.Pattern[str]:
    """`pattern` compiled to match what ECMAScript's reading of it matches (searched, as JSON
    Schema's `pattern` is, unless it anchors itself)."""
    out: list[str] = []
    in_class = False
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern):
            escaped = pattern[index + 1]
            out.append((INSIDE if in_class else OUTSIDE).get(escaped, char + escaped))
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == ".":
            char = DOT
        elif char == "$":
            char = "\\Z"  # the end of the text, never before a final newline
        out.append(char)
        index += 1
    return re.compile("".join(out))

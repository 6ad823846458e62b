"""Production's patterns are ECMAScript's: the emulator reads each as ECMAScript does, where
Python's `re` would read the same text otherwise (found by the contract fuzzer: an organization
titled "\\x1eÕ", which production's `\\S.*\\S` accepts, was refused)."""

from __future__ import annotations

import pytest

from docsync.emulator.patterns import ecma

CASES = [
    # (pattern, value, whether ECMAScript's reading matches)
    (r"\S.*\S", "\x1eÕ", True),  # U+001E is no white space in ECMAScript
    (r"\S.*\S", "a\x85", True),  # nor is U+0085
    (r"\S.*\S", "a\u00a0", False),  # a no-break space is
    (r"\S.*\S", "a\ufeff", False),  # and so is a byte order mark
    (r"\S.*\S", "a\rb", False),  # `.` stops at a carriage return, which is white space
    (r"^refs/heads/.+$", "refs/heads/main", True),
    (r"^refs/heads/.+$", "refs/heads/main\n", False),  # `$` is the end, not before a newline
    (r"^[^\n\r]*$", "one line\u2028", True),
    (r"^[0-9]\d$", "4٣", False),  # `\d` is ASCII digits only
    (r"^\w+$", "café", False),  # `\w` is ASCII letters, digits and `_` only
    (r"^[\w.-]+$", "a.b-c_d", True),  # inside a class too
    (r"^https?://[^\s/$.?#][^\s]*$", "https://acme.example/x", True),  # `$` and `.` in a class
    (r"^https?://[^\s/$.?#][^\s]*$", "https://$x", False),
    (r"^#(?:[0-9a-fA-F]{3}){1,2}$", "#A0bc", False),
    (r"^[a-zA-Z0-9_\*-]+$", "docs-*", True),
]


@pytest.mark.parametrize(("pattern", "value", "matches"), CASES)
def test_a_pattern_matches_what_ecmascript_matches(pattern: str, value: str, matches: bool) -> None:
    assert bool(ecma(pattern).search(value)) is matches

"""Templates that would hold or exhaust the machine end `docsync validate` in one located error,
each in under 5 s of CPU and with the process below 300 MB: the sandbox sizes what a template
builds before it builds it, its own guards read their input once (the format-spec check was a
regex that took 78 s on one of these), and what a template reads or runs is counted against
the run's budget of work. Measured in one child process under a memory ceiling (a regression
fails there, not on the machine), its peak resident memory read back by wait4."""

from __future__ import annotations

import pytest

from tests.kit import Write
from tests.manifest.conftest import run_bounded

#: the bounds the run must stay within, per template
SECONDS = 5.0
RESIDENT_MB = 300

HOSTILE = {
    "format spec, 40,000 pairs": (
        "{{ ('{' ~ ':1' * 40000) % 1 }}",
        "template error: not all arguments converted",
    ),
    "format spec, 400,000 pairs": (
        "{{ ('{' ~ ':1' * 400000) % 1 }}",
        "template error: not all arguments converted",
    ),
    "a list of a list of a megabyte, 999 x 999": (
        "{{ [[('x'*999999)]*999]*999 }}",
        "the repetition would take 999 MB, more than the 10 MB one template value may",
    ),
    "a list of a megabyte, 999 times": (
        "{{ [('x'*999999)]*999 }}",
        "the repetition would take 999 MB, more than the 10 MB",
    ),
    "lists of lists, written out": (
        "{% set a = ['x'*999999] %}{% set b = [a,a,a,a,a,a,a,a,a,a,a] %}{{ [b,b,b] }}",
        "the value would take 11 MB, more than the 10 MB",
    ),
    "text doubled in a loop": (
        "{% set ns = namespace(s='x') %}{% for i in range(40) %}"
        "{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s|length }}",
        "the joined text would take 17 MB, more than the 10 MB",
    ),
    "a replace that multiplies": (
        "{{ ('x'*999999)|replace('x', 'x'*999999) }}",
        "the result of `replace` would take",
    ),
    "a split into millions of parts": (
        "{{ ('xy ' * 3000000).split()|length }}",
        "the call's result would take",
    ),
    "a text turned into a list of characters": (
        "{{ ('é' * 4000000)|list|length }}",
        "the result of `list` would take",
    ),
    "an integer squared in a loop": (
        "{% set ns = namespace(n=3) %}{% for i in range(40) %}"
        "{% set ns.n = ns.n * ns.n %}{% endfor %}{{ ns.n > 0 }}",
        "integers of more than 4096 bits are not allowed",
    ),
    "a width taken from the arguments": (
        "{{ '%*d' % (999999999, 1) }}",
        "format widths taken from the arguments are not allowed",
    ),
    "indent, a million lines by 9,999": (
        "{{ ('a\\n' * 1000000)|indent(9999) }}",
        "the result of `indent` would take 10,001 MB, more than the 10 MB",
    ),
    "indent by a text of 9,999": (
        "{{ ('a\\n' * 100000)|indent('y' * 9999) }}",
        "the result of `indent` would take 1,000 MB, more than the 10 MB",
    ),
    "indent of blank lines too": (
        "{{ ('\\n' * 1000000)|indent(9999, blank=true) }}",
        "the result of `indent` would take 10,000 MB, more than the 10 MB",
    ),
    "wordwrap into lines of one, joined by 9,999": (
        "{{ ('x' * 1000000)|wordwrap(1, wrapstring='y' * 9999) }}",
        "the result of `wordwrap` would take 10,080 MB, more than the 10 MB",
    ),
    "tojson indented 9,999 a level, 400 levels deep": (
        "{% set ns = namespace(x=1) %}{% for i in range(400) %}{% set ns.x = [ns.x] %}"
        "{% endfor %}{{ ns.x|tojson(indent=9999) }}",
        "the result of `tojson` would take 3,208 MB, more than the 10 MB",
    ),
    "pprint under long keys, 200 levels deep": (
        "{% set ns = namespace(x=1) %}{% for i in range(200) %}"
        "{% set ns.x = {'k' * 3000: [ns.x, 1]} %}{% endfor %}{{ ns.x|pprint }}",
        "the result of `pprint` would take 2,889 MB, more than the 10 MB",
    ),
    "two 9 MB texts compared in a loop": (
        "{% set a = 'x' * 9000000 %}{% set b = 'x' * 9000000 %}"
        "{% for i in range(99999) %}{% if a == b %}{% endif %}{% endfor %}",
        "template stopped: the templates of this run took more than",
    ),
    "a 9 MB text searched in a loop": (
        "{% set a = 'x' * 9000000 %}"
        "{% for i in range(99999) %}{% if 'xy' in a %}{% endif %}{% endfor %}",
        "template stopped: the templates of this run took more than",
    ),
    "a 9 MB text sliced in a loop": (
        "{% set a = 'x' * 9000000 %}{% for i in range(99999) %}{{ a[1:]|length }}{% endfor %}",
        "the templates of this run would build more than 268 MB of values",
    ),
    "a sum of 99,999 numbers in a loop": (
        "{% for i in range(99999) %}{{ range(99999)|sum }}{% endfor %}",
        "template stopped: the templates of this run took more than",
    ),
    "nested loops": (
        "{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}",
        "template stopped: the templates of this run took more than 20,000,000 steps",
    ),
}


@pytest.mark.slow
def test_hostile_templates_end_in_a_located_error_fast_and_small(write: Write) -> None:
    paths = [
        write(
            f"t{i}.yaml",
            "organization: o\nspaces:\n  - title: S\n    emoji: |-\n      " + template + "\n",
        )
        for i, (template, _) in enumerate(HOSTILE.values())
    ]
    results, resident = run_bounded([["validate", str(path)] for path in paths])
    for (name, (_template, expected)), (code, output, seconds) in zip(
        HOSTILE.items(), results, strict=True
    ):
        assert code == 1, (name, output)
        assert ".yaml:4:12: spaces[0].emoji: template" in output and expected in output, (
            name,
            output,
        )
        assert "Traceback" not in output and "internal error" not in output, (name, output)
        assert seconds < SECONDS, (name, seconds)
    assert resident < RESIDENT_MB, resident

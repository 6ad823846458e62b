"""The event path (docsync/manifest/yamlstream.py) reads a document as the node tree does: the
same data, positions of values and keys, and problems; what it does not take it leaves to the
tree, whole."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docsync.manifest.yamlbuild import MAX_DEPTH
from docsync.manifest.yamlpos import Parsed, read_streamed, read_tree
from tests.depth import examples

#: documents the event path reads: each branch of it
STREAMED = [
    "",
    "# only a comment\n",
    "---\n",
    "organization: o\n",
    "just text\n",
    "- a\n- b\n",
    "organization: o\nteams:\n  - title: A\n    members: [ada@acme.example, {user: x}]\n",
    "a: 1\nb: 2.5\nc: true\nd: null\ne: ~\nf: 0x1F\ng: 2024-01-01\nh: '12'\ni: \"yes\"\n",
    "a: !!str 12\nb: !!int '7'\nc: !!float 1\nd: !!timestamp soon\ne: !!binary aGVsbG8=\n",
    "a: 1\na: 2\nb: {c: 1, c: [x, y]}\n",
    "? [a, b]\n: value\n? {k: v}\n: other\nkept: yes\n",
    "1: one\ntrue: yes\nnull: nothing\n2024-01-01: date\n!!timestamp soon: x\n",
    "a: !!seq [1, 2]\nb: !!map {c: d}\nc: ! text\n",
    "text: |\n  two\n  lines\nfolded: >\n  one\n  line\nquoted: 'it''s'\n",
    'unicode: "\\u00e9t\\u00e9 \\U0001F600"\nempty:\nlist: []\nmap: {}\n',
    "a:\n" + "".join("  " * d + f"- l{d}:\n" for d in range(1, 30)) + "  " * 30 + "- end\n",
]
#: documents only the tree reads: the event path leaves them whole
TREE_ONLY = [
    "base: &b {x: 1}\ncopy: *b\n",
    "a: &x 1\nb: *x\n",
    "defaults: {x: 1}\nitem:\n  <<: {y: 2}\n  z: 3\n",
    "a: !!set {x, y}\n",
    "a: !custom [1]\n",
    "a: 1\n---\nb: 2\n",
    "a: [unclosed\n",
    "a: b: c\n",
    "\t- tab\n",
    "[" * (MAX_DEPTH + 2) + "]" * (MAX_DEPTH + 2) + "\n",
    "dup: 1\ndup: &anchor 2\n",
    "? &k key\n: value\n",
]


def _same(text: str) -> Parsed | None:
    """The event path's reading when it takes `text`, after checking it against the tree's."""
    streamed = read_streamed(text, "m.yaml")
    if streamed is None:
        return None
    tree = read_tree(text, "m.yaml")
    assert streamed.data == tree.data
    assert repr(streamed.data) == repr(tree.data)  # types too: 1 is not True, nor 1.0
    assert list(streamed.source.values.items()) == list(tree.source.values.items())
    assert list(streamed.source.keys.items()) == list(tree.source.keys.items())
    assert streamed.problems == tree.problems
    return streamed


@pytest.mark.parametrize("text", STREAMED)
def test_the_event_path_reads_what_the_tree_reads(text: str) -> None:
    assert _same(text) is not None


@pytest.mark.parametrize("text", TREE_ONLY)
def test_what_needs_the_tree_is_left_to_it(text: str) -> None:
    assert read_streamed(text, "m.yaml") is None


def test_problems_are_found_on_the_event_path() -> None:
    parsed = _same(STREAMED[9])
    assert parsed is not None
    assert [str(p) for p in parsed.problems] == [
        "m.yaml:2:1: a: the key 'a' is written twice in this mapping (first at m.yaml:1:1)",
        "m.yaml:3:11: b.c: the key 'c' is written twice in this mapping (first at m.yaml:3:5)",
    ]


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False),
    st.text(max_size=12),
    st.sampled_from(["2024-01-01", "0x1F", "~", "yes", "null", "1e3", ".inf", "a: b", "- x"]),
)
documents = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.one_of(st.text(max_size=8), st.integers(0, 3)), inner, max_size=4)
    ),
    max_leaves=30,
)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=documents, flow=st.sampled_from([False, True, None]), twice=st.booleans())
def test_any_document_reads_the_same_on_both_paths(document: Any, flow: Any, twice: bool) -> None:
    """Any data dumped in block, flow or mixed style (in block style, a key written twice now and
    then) reads the same on both paths. The first line written again is not always a whole
    entry (a key PyYAML writes as `? '...'` over several lines): a document YAML refuses is left
    to the tree, whole, as any other mistake is."""
    text = yaml.safe_dump(document, default_flow_style=flow, allow_unicode=True)
    if twice and flow is False and isinstance(document, dict) and document:
        text += text.splitlines(keepends=True)[0]
        try:
            yaml.compose(text, Loader=yaml.SafeLoader)
        except yaml.YAMLError:
            assert read_streamed(text, "m.yaml") is None
            return
    assert _same(text) is not None

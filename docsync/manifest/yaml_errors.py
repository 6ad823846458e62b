"""PyYAML's syntax errors in words for the person who wrote the file: what is wrong on that line
and what to do. The parser says `while parsing a block collection, expected <block end>, but
found '<block mapping start>'`; the writer indented a line unlike its neighbours. The most common
mistakes get a sentence; any other keeps the parser's own words."""

from __future__ import annotations

import re

import yaml

_UNCLOSED = {"mapping": "}", "sequence": "]"}


def explain(error: yaml.MarkedYAMLError) -> str:
    """The error in words (after `not valid YAML: `), its position aside (the caller's)."""
    problem = error.problem or "syntax error"
    context = error.context or ""
    opened = _where(error.context_mark)
    if "found character '\\t'" in problem:
        return "a tab character: YAML indents with spaces only; replace the tab with spaces"
    if problem.startswith("expected <block end>") and context == "while parsing a block collection":
        return (
            "this line is indented unlike the list it is in (its items start with '- ' at "
            f"{opened}): indent it as the fields of its item, or begin a new item with '- '"
        )
    if problem.startswith("expected <block end>") and context == "while parsing a block mapping":
        return (
            f"this line is indented unlike the keys of the mapping it is in (the first at "
            f"{opened}): indent it as those keys, or under one of them"
        )
    if problem == "mapping values are not allowed here":
        return (
            "a second ': ' on one line: put the value in quotes if the colon is part of it, or "
            "the key on a line of its own"
        )
    if context == "while scanning a quoted scalar":
        return f"the quote opened at {opened} is never closed: close it"
    flow = re.fullmatch(r"while parsing a flow (mapping|sequence)", context)
    if flow:
        closer = _UNCLOSED[flow.group(1)]
        bracket = "{" if closer == "}" else "["
        if "<stream end>" in problem:
            return f"the {bracket} opened at {opened} is never closed: close it with '{closer}'"
        return (
            f"the {bracket} opened at {opened} is not closed where this "
            f"line expects it: close it with '{closer}', or separate its entries with ','"
        )
    return f"{context}, {problem}" if context else problem


def _where(mark: yaml.Mark | None) -> str:
    if mark is None:
        return "the line above"
    return f"line {mark.line + 1}, column {mark.column + 1}"

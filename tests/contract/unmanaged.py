"""What the manifest models deliberately do not check as production does, each with its reason:
`tests/contract/test_schema_comparison.py` fails on any other difference between a model and
production's request schema of the operation that sends it, and on a listed difference that no
longer is one. Each kind says its own in its module (`Declaration.contract`, read here off the
catalogue, `declared.py`):

- `UNMANAGED`: fields production's request takes that the request never carries; how each
  property of a managed request is written otherwise (the field share's notes: a key of
  another name, the manifest's structure, not configuration, left out, not managed yet) says
  it as well;
- `DIFFERS`: fields a manifest writes whose check differs from production's on purpose, by what
  differs (`minLength`, `pattern`, `format`, `null`, `extra`: a field production's request has
  not; `shape`: written in a shape of docsync's own, not compared further);
- `SAME_PATTERN`: patterns written differently that take the same texts (proven on drawn texts);
- `NOT_SENT`: requests a kind's declaration names that docsync never sends;
- `OWN_CHECK`: requests whose body a kind checks offline with rules of its own, held to
  production's schema by a test of their own (the schema is not a model's).

Production's formats are below, once for every field: those a model checks with a pattern
(`FORMATS`), and those no model can check offline (`UNCHECKED`).

Keys name production's operation (`METHOD /template`) and the field's dotted path in its body.
Every model refuses keys it does not know, where production's schemas mostly leave
`additionalProperties` open: that strictness (a typo is an error) is the point, not listed.
A text where a boolean goes (`"yes"`, `"true"`, `"1"`) is read as the boolean it says and sent
as one.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from docsync.api.contract import (
    DIFFERS,
    KEY,
    LEFT_OUT,
    NOT_CONFIGURATION,
    NOT_MANAGED,
    NOT_SENT,
    OWN_CHECK,
    SAME_PATTERN,
    STRUCTURE,
    UNMANAGED,
)
from docsync.core.entries import URI_PATTERN
from tests.contract.checker import Contract
from tests.contract.declared import by_operation, by_property, located, notes

#: production's formats that a model checks with a pattern: the pattern it uses
FORMATS: dict[str, str] = {"uri": URI_PATTERN}  # an absolute URL: a scheme, `:`, no space

#: production's formats no model can check offline, and why: a field of one is checked for
#: its length alone
UNCHECKED: dict[str, str] = {
    "emoji": "production's `emoji` format is its own list of emoji: the length is checked offline"
}

#: what a note of how a property is written says, which explains why a request leaves it out
WRITTEN = (KEY, STRUCTURE, NOT_CONFIGURATION, LEFT_OUT, NOT_MANAGED)


@dataclass(frozen=True)
class Listed:
    """Every listed difference, by production's operation."""

    #: (operation, field) -> why the request never carries it
    unmanaged: dict[tuple[str, str], str]
    #: (operation, field) -> how it is written otherwise (the field share's notes)
    written: dict[tuple[str, str], str]
    #: (operation, field, what differs) -> why
    differs: dict[tuple[str, str, str], str]
    same_pattern: dict[tuple[str, str], str]
    #: `METHOD /v1/route` of the kind's own -> why it is never sent
    not_sent: dict[str, str]
    own_check: dict[str, str]


@functools.cache
def listed(contract: Contract) -> Listed:
    """The differences the kinds declare, each at production's operation behind its route."""
    return Listed(
        unmanaged={key: said.note.why for key, said in by_property(contract, UNMANAGED).items()},
        written={key: said.note.why for key, said in by_property(contract, *WRITTEN).items()},
        differs={
            (op, said.note.field, said.note.what): said.note.why
            for op, said in located(contract, *DIFFERS)
        },
        same_pattern={
            key: said.note.why for key, said in by_property(contract, SAME_PATTERN).items()
        },
        not_sent={said.note.operation: said.note.why for said in notes(NOT_SENT)},
        own_check={op: said.note.why for op, said in by_operation(contract, OWN_CHECK).items()},
    )


#: the patterns written differently, as their kinds name them (production's operation is
#: found with the contract, `listed`)
SAME_PATTERNS = [(said.note.operation, said.note.field) for said in notes(SAME_PATTERN)]

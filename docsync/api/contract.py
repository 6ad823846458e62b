"""What a kind declares of production's contract (its OpenAPI document) beyond the requests its
declaration sends: the operations its code writes by requests of its own or leaves alone, how
each property of a body it sends is written or why it is not, where its manifest model checks a
value otherwise than production, the fuzzer's findings the document itself explains and the
resources the fuzzer starts from. Nothing that runs reads them: the contract tests and the
managed shares (tests/contract/) read them off the catalogue, so that a kind says them once, in
its own module (`Declaration.contract`), and a kind added is counted without a table elsewhere.

An operation is written as the kind writes its routes (`PATCH /v1/orgs/{org}/sites/{site}`); the
tests find production's operation behind it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# -- what a note says --------------------------------------------------------------------------
# of an operation:
#: a write its code sends that its declaration's routes do not name (a site's publish), and how
SENDS = "sends"
#: configuration it leaves alone, and why (custom fonts: no organization's token reaches them)
LEAVES = "leaves"
#: a request its declaration names that docsync never sends (members are never created)
NOT_SENT = "not sent"
#: a body checked offline by rules of its own, held to production's schema by a test of its own
OWN_CHECK = "own check"
# of a property of the body of a request it sends (the field share, docs/manifest.md):
#: written by a manifest key of another name, by its code (a translation's `source`)
KEY = "key"
#: expressed by the manifest's structure: where an entry stands, its level's default, an order
STRUCTURE = "structure"
#: not configuration: the content a create starts from, ids an integration assigns
NOT_CONFIGURATION = "not configuration"
#: left out by design: cannot be read back, owned elsewhere, an order no list carries
LEFT_OUT = "left out"
#: not managed yet: what docsync lacks to write it
NOT_MANAGED = "not managed"
# of the manifest model against the request's schema (tests/contract/test_schema_comparison.py):
#: production's request takes it, the request never carries it, though a key of the kind writes
#: it elsewhere (a space's `editMode`, by the PATCH after its create)
UNMANAGED = "unmanaged"
#: a pattern written differently that takes the same texts
SAME_PATTERN = "same pattern"
#: checked otherwise than production on purpose, by what differs (the schema comparison's
#: names): a limit, its `pattern` or `format`, where `null` is taken, its type or enum, a field
#: production's request has not (`extra`), a shape of docsync's own, not compared further
#: (`shape`)
MIN_LENGTH, MAX_LENGTH, MIN_ITEMS, MAX_ITEMS = "minLength", "maxLength", "minItems", "maxItems"
MINIMUM, MAXIMUM, PATTERN, FORMAT = "minimum", "maximum", "pattern", "format"
AS_NULL, TYPE, ENUM, EXTRA, SHAPE = "null", "type", "enum", "extra", "shape"
DIFFERS: tuple[str, ...] = (MIN_LENGTH, MAX_LENGTH, MIN_ITEMS, MAX_ITEMS, MINIMUM, MAXIMUM)
DIFFERS += (PATTERN, FORMAT, AS_NULL, TYPE, ENUM, EXTRA, SHAPE)
#: what a property note may say
OF_A_FIELD = (KEY, STRUCTURE, NOT_CONFIGURATION, LEFT_OUT, NOT_MANAGED, UNMANAGED, SAME_PATTERN)


@dataclass(frozen=True)
class Note:
    """One thing a kind says of an operation (`field` ""), or of one property of its request
    body (`field`, dotted below the body: `favicon.emoji`; `name.*` for any key of a map), and
    why: `what` is one of the names above."""

    what: str
    operation: str
    field: str
    why: str


# -- the fuzzer ---------------------------------------------------------------------------------
#: the emulator refuses a request production's schemas take (with a status the operation lacks)
REQUEST_TAKEN = "request taken"
#: an answer production's schema of the operation refuses
ANSWER_REFUSED = "answer refused"


@dataclass(frozen=True)
class Explained:
    """A finding of the contract fuzzer on operations of the kind that production's document
    itself explains: a request its schema takes that its own answer schema, its text, or the
    state a request meets makes impossible to answer within the statuses it declares."""

    operations: tuple[str, ...]
    #: a regex searched in what the emulator answered (`<status> <body>`)
    answer: str
    why: str
    finding: str = REQUEST_TAKEN


@dataclass(frozen=True)
class Seed:
    """A request the contract fuzzer's organization is made with, so that generated requests
    reach a real resource of the kind: `{org}` in the path is the organization, `{name}` (and a
    text `"{name}"` in the body) the id answered by the earlier seed of that `name`, of this
    kind or of a kind before it in the catalogue."""

    method: str
    path: str
    body: Any = field(default=None, hash=False)
    #: the name its answer's id is known by to the seeds after it
    name: str = ""


#: what a kind's `contract` holds
Said = Note | Explained | Seed


# -- reasons several kinds give -----------------------------------------------------------------
NATURAL_KEY = "the entry's natural key, which docsync matches by: an empty one would name nothing"
TEMPLATE = "content to start from, applied once at a create: content, not setup"
ICON = (
    "production's `icon` format is the app's icon set, not known offline: the name's length "
    "is checked, and an empty name (no icon) is written `null`"
)
CONDITION = "an empty expression is written `null`, which removes the condition"
INSTRUCTIONS = (
    "a document (production's JSONDocument, 105 schemas of blocks) or text, a paragraph per "
    "blank line, sent as a document of paragraphs: its frame is checked offline (documents.py)"
)
LANGUAGE_NULL = (
    "a language written null removes its text: the request carries the live texts with the "
    "written ones merged in, never a null (`Field.keyed`)"
)
POSITION = (
    "the order of spaces and collections in their parent (the app's sidebar, which editors "
    "arrange): a manifest's `spaces` and `collections` are keyed by title in their parent and "
    "merge across files in file order, so their order in a manifest says nothing"
)
ORDER = "the order of the manifest's list: the site's one sort moves what is out of place"
LEVEL_DEFAULT = "`default: true` on the entry that is its level's default"
INTERNAL = (
    "accepts only production's internal user authentication (`user-internal`): no token an "
    "organization can make reaches it"
)


# -- notes several kinds write -----------------------------------------------------------------
def moved(operation: str, how: str) -> tuple[Note, Note]:
    """An item a request of its own places (`POST .../move`): the request its kind's code sends,
    and its `position`, which the manifest's order says."""
    return Note(SENDS, operation, "", how), Note(STRUCTURE, operation, "position", ORDER)


def icons(*operations: str) -> tuple[Note, ...]:
    """An `icon` of production's icon set, which the model checks by its length only."""
    return tuple(Note(what, op, "icon", ICON) for op in operations for what in (MIN_LENGTH, FORMAT))

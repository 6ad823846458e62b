"""How much of what docsync's managed operations take is written by a manifest, counted one way
(docs/manifest.md, "What docsync cannot manage"): every property of the request body of every
managed write operation (`write_operations.share`) is classified once, as

- a **manifest key**: a field the kind managing the operation declares under that name
  (`Field.wire_name`), whichever request of the kind carries it (a space's `editMode` is sent by
  the PATCH that follows its create: a key of the create's body too); a property of a request
  docsync sends whose whole body, or list of items, a part's model writes (a site's
  customization, its redirects). Derived from the declarations (`derived_keys`); where a kind
  writes a property by code of its own, under a key of another name, it says which (`KEY`);
- **expressed by the manifest's structure** (`STRUCTURE`): where an entry stands (its parent:
  a site space's `sectionId`), which entry is its level's default, the order of a list, a
  reference written by name;
- **not configuration** (`NOT_CONFIGURATION`): the content a create starts from (a template),
  ids an integration assigns: nothing a manifest of an organization's setup says;
- **left out by design** (`LEFT_OUT`), each with why: what cannot be read back (so a plan could
  never tell it done), what another source owns (a repository's `gitbook-docs.yaml`), an order
  the manifest's lists do not carry, a stage of the app's editing;
- **not managed yet** (`NOT_MANAGED`), each with what it lacks.

Each kind says these of the requests it sends in its own module (`Declaration.contract`, notes
of `docsync.api.contract`), read here off the catalogue.

The field share is the keys and the structure over the fields a manifest can write: those, and
the ones not managed yet (the first two lists are left out of the count, as the operation
share leaves out what is not configuration). `tests/contract/test_managed_share.py` fails when
a property is unclassified, classified twice, listed but no property of a managed operation (or
a key the declarations now derive), or when the share falls under 98%."""

from __future__ import annotations

from dataclasses import dataclass

from docsync.api.contract import KEY, LEFT_OUT, NOT_CONFIGURATION, STRUCTURE
from docsync.kinds.catalogue import CATALOGUE
from tests.contract import write_operations as operations
from tests.contract.checker import Contract
from tests.contract.declared import by_property
from tests.contract.schema_walk import Doc
from tests.contract.sent import SENT, _schema, operation_of

#: (operation, property of its request body)
Prop = tuple[str, str]


def body_properties(contract: Contract, operation: str) -> list[str]:
    """The properties of an operation's JSON request body, every shape it may take (a choice's
    options, an allOf's parts) together, in the document's order."""
    method, template = operation.split(" ", 1)
    body = contract.spec["paths"][template][method.lower()].get("requestBody")
    schema = (body or {}).get("content", {}).get("application/json", {}).get("schema")
    if schema is None:
        return []
    shapes, _ = Doc(contract.spec).alternatives(schema)
    names: dict[str, None] = {}
    for shape in shapes:
        names |= dict.fromkeys(shape.get("properties") or {})
    return list(names)


def properties(contract: Contract) -> dict[Prop, str]:
    """Every property of a managed operation's body, with the kind that manages the operation."""
    managed = operations.share(contract).managed
    return {
        (op, name): kind for op, kind in managed.items() for name in body_properties(contract, op)
    }


def derived_keys(contract: Contract) -> dict[Prop, str]:
    """The properties the declarations name: a field of the kind that manages the operation (or
    its key), or what a request docsync sends there carries (`tests/contract/sent.py`)."""
    carried: dict[str, set[str]] = {}
    for sent in SENT:
        op = operation_of(contract, sent)
        if op is None:
            continue
        names = carried.setdefault(op, set())
        if sent.fields is None:
            names |= set(_schema(sent.model)["properties"])  # the whole body (customization)
        elif sent.items:
            names.add(sent.items)  # the list of the part's items (redirects)
        else:
            names |= {f.wire_name for f in sent.fields}
    found: dict[Prop, str] = {}
    for (op, name), kind in properties(contract).items():
        declared = CATALOGUE.named(kind)
        own = {f.wire_name for f in declared.fields} | {declared.key}
        if name in own or name in carried.get(op, ()):
            found[(op, name)] = kind
    return found


# -- said by the kinds, each in its module --------------------------------------------------


def keys(contract: Contract) -> dict[Prop, tuple[str, str]]:
    """Properties a kind's code writes from a manifest key of another name: (the kind, how)."""
    return {prop: (said.kind, said.note.why) for prop, said in by_property(contract, KEY).items()}


def said(contract: Contract, what: str) -> dict[Prop, str]:
    """Properties the kinds say are `what` (`STRUCTURE`, `NOT_CONFIGURATION`, `LEFT_OUT`,
    `NOT_MANAGED`), and why."""
    return {prop: said.note.why for prop, said in by_property(contract, what).items()}


@dataclass(frozen=True)
class FieldShare:
    """The count: the fields a manifest can write, and those it writes (keys, structure)."""

    written: list[Prop]
    writable: list[Prop]

    @property
    def percent(self) -> float:
        return 100 * len(self.written) / len(self.writable)

    def line(self) -> str:
        return (
            f"{len(self.written)} of the {len(self.writable)} fields of managed write "
            f"operations a manifest can write are written ({self.percent:.0f}%)"
        )


def share(contract: Contract) -> FieldShare:
    """The written properties and those a manifest can write, as classified above."""
    every = list(properties(contract))
    written = {*derived_keys(contract), *keys(contract), *said(contract, STRUCTURE)}
    left = {*said(contract, NOT_CONFIGURATION), *said(contract, LEFT_OUT)}
    writable = [p for p in every if p not in left]
    return FieldShare([prop for prop in writable if prop in written], writable)

"""The requests docsync sends, read off the kinds' declarations, and the comparison of each
with the manifest model that fills it (`compare`, for `test_schema_comparison`).

A kind's create and update (`Declaration.routes`) carry the fields that say so (`Field.create`,
`Field.update`), a field of a request of its own its `Field.route`; a part without fields is its
update's whole body (a site's customization), a part whose fields travel in neither is the items
of the list its update carries (a site's redirects): a kind added later is compared without a
line here. A mapped kind's entry is each value of its map (an installation on a site).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, get_args

from pydantic import BaseModel

from docsync.core.nullability import nullable
from docsync.kinds.catalogue import CATALOGUE
from docsync.kinds.declaration import Declaration, Field
from docsync.kinds.partial import Setting
from tests.contract import unmanaged
from tests.contract.checker import Contract
from tests.contract.conflicts import description_only
from tests.contract.declared import concrete
from tests.contract.schema_walk import Doc, Walk


@dataclass(frozen=True)
class Sent:
    """A request docsync sends, and what of a manifest entry fills its body."""

    kind: str
    method: str
    path: str
    model: type[BaseModel]
    #: the entry's fields it carries (None: the whole model is the body)
    fields: tuple[Field, ...] | None
    #: where in the body the entry sits: "" (the body), or a list of items (`redirects`)
    items: str = ""
    #: a create, which leaves out the fields written null (`CrudKind.body`)
    creating: bool = False

    def __str__(self) -> str:
        return f"{self.kind}: {self.method} {self.path}"


def names(fields: tuple[Field, ...]) -> set[str]:
    return {f.name for f in fields}


def _entry(declared: Declaration) -> type[BaseModel] | None:
    """The model of one entry: a mapped kind's, each value of its map's."""
    if not declared.mapped or declared.entry is None:
        return declared.entry
    held = declared.entry.model_fields["root"].annotation
    for value in get_args(get_args(held)[1]) or get_args(held)[1:]:
        if isinstance(value, type) and issubclass(value, BaseModel):
            return value
    return None


def _sent(declared: Declaration) -> list[Sent]:
    routes = declared.routes
    if routes is None:
        return []  # in its parent's requests (a grant, a team's member), compared there
    fields = declared.fields
    entry = _entry(declared)
    if entry is not None and declared.part and not fields:
        # a part of no fields is its update's whole body (a site's customization)
        return [Sent(declared.name, routes.update, routes.item_path, entry, None)]
    if entry is None:
        return []
    if declared.part and not any(f.create or f.update or f.route for f in fields):
        # items of the list its update carries (the site's redirects in one bulk upsert)
        return [
            Sent(
                declared.name,
                routes.update,
                routes.item_path,
                entry,
                fields,
                items=declared.section,
            )
        ]
    found = []
    if not declared.singleton and routes.create is not None:  # a kind that creates
        created = tuple(f for f in fields if f.create)
        if declared.key in entry.model_fields and declared.key not in names(fields):
            created = (Field(declared.key), *created)  # the key says what is made (a slug)
        found.append(Sent(declared.name, routes.create, routes.list, entry, created, creating=True))
    updated = tuple(f for f in fields if f.update and f.route is None)
    found.append(Sent(declared.name, routes.update, routes.item_path, entry, updated))
    for f in fields:
        if f.route is not None:
            found.append(Sent(declared.name, *f.route, entry, (f,)))
    return found


SENT = [sent for declared in CATALOGUE for sent in _sent(declared) if sent.fields != ()]


def _subclasses(cls: type[BaseModel]) -> list[type[BaseModel]]:
    return [cls, *(s for sub in cls.__subclasses__() for s in _subclasses(sub))]


CLASSES = {cls.__name__: cls for cls in _subclasses(Setting)}


@functools.cache
def _schema(model: type[BaseModel]) -> dict[str, Any]:
    return model.model_json_schema()


def operation_of(contract: Contract, sent: Sent) -> str | None:
    path = concrete(sent.path)
    template = contract.operation_of(sent.method, path)
    return f"{sent.method} {template}" if template else None


def body_schema(contract: Contract, operation: str) -> Any:
    method, template = operation.split(" ", 1)
    op = contract.spec["paths"][template][method.lower()]
    return op["requestBody"]["content"]["application/json"]["schema"]


def compare(contract: Contract, sent: Sent, used: set[Any]) -> list[str]:
    """The findings of one request: what differs and is not listed."""
    tables = unmanaged.listed(contract)
    operation = operation_of(contract, sent)
    if operation is None:
        key = f"{sent.method} {sent.path}"
        if key in tables.not_sent or description_only(sent.method, sent.path):
            used.add(key)
            return []
        return [f"{key}: no such operation in production (its kind's `NOT_SENT` if never sent)"]
    if operation in tables.own_check:
        used.add(operation)
        return []
    production = Doc(contract.spec)
    mine = _schema(sent.model)

    def listed(where: str, aspect: str) -> bool:
        if aspect == "unmanaged" and (operation, where) in tables.written:
            return True  # how it is written otherwise: held by the field share's test
        for key, table in (
            ((operation, where), tables.unmanaged if aspect == "unmanaged" else {}),
            ((operation, where), tables.same_pattern if aspect == "pattern" else {}),
            ((operation, where, aspect), tables.differs),
        ):
            if key in table:
                used.add(key)
                return True
        return False

    # a PUT of the whole object after a merge: a null written removes the field from it
    null_removes = sent.fields is None and sent.method == "PUT"
    walk = Walk(
        production,
        Doc(mine),
        listed,
        CLASSES,
        unmanaged.FORMATS,
        null_removes,
        unchecked=unmanaged.UNCHECKED,
    )
    body = body_schema(contract, operation)
    if sent.items:
        shapes, _ = production.alternatives(body)
        body = production.resolve(shapes[0]["properties"][sent.items]["items"])
    if sent.fields is None:
        walk.value("", body, mine)
        return walk.findings
    shapes, _ = production.alternatives(body)
    props: dict[str, Any] = {}
    for shape in shapes:
        props |= shape.get("properties", {})
    ours = mine["properties"]
    for f in sent.fields:
        wire = f.wire_name
        if wire not in props:
            walk.find(wire, "extra", "the model writes it, production's request has it not")
        elif f.ref is not None:
            continue  # written by name, sent as the id it names: a reference, not a value
        elif listed(wire, "shape"):
            continue  # written in a shape of docsync's own, sent as production's
        else:
            null = nullable(sent.model, f.name) if sent.creating else None
            walk.value(wire, props[wire], ours[f.name], null=null)
    sent_names = {f.wire_name for f in sent.fields}
    for name in props.keys() - sent_names:
        walk.find(name, "unmanaged", "production takes it, docsync never sends it here")
    used.update(("format", name) for name in walk.unchecked_met)
    return walk.findings


def field_at(contract: Contract, operation: str, wire: str) -> tuple[Any, Sent, Field]:
    """Production's schema of a field of a request, the request, and the manifest field."""
    for sent in SENT:
        if operation_of(contract, sent) == operation:
            for f in sent.fields or ():
                if f.wire_name == wire:
                    production = Doc(contract.spec)
                    body = body_schema(contract, operation)
                    if sent.items:
                        body = production.alternatives(body)[0][0]["properties"][sent.items]
                        body = body["items"]
                    for shape in production.alternatives(body)[0]:
                        if wire in shape.get("properties", {}):
                            return production.resolve(shape["properties"][wire]), sent, f
    raise LookupError(f"{operation} sends no {wire}")

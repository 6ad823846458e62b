"""What the kinds declare of production's contract (`Declaration.contract`, `docsync.api.contract`),
read off the catalogue: each note with the kind that says it and production's operation behind
its own route template. The tables of the contract tests (`write_operations`, `write_fields`,
`unmanaged`, `fuzz_forgiven`, `fuzz_org`) are built from these, so that a kind added says what
they need in its own module."""

from __future__ import annotations

import collections
from collections.abc import Iterator
from dataclasses import dataclass

from docsync.api.contract import Explained, Note, Seed
from docsync.kinds.catalogue import CATALOGUE
from tests.contract.checker import Contract


@dataclass(frozen=True)
class Noted:
    """A note and the kind whose declaration says it."""

    kind: str
    note: Note


def concrete(template: str) -> str:
    """A route template with a sample in every placeholder (`{org}`, `{id}`, `{site}`, a key
    such as an integration's `{name}`)."""
    return template.format_map(collections.defaultdict(lambda: "x", org="o", site="s"))


def notes(*what: str) -> Iterator[Noted]:
    """Every note of the catalogue saying one of `what`, in the catalogue's order."""
    for declared in CATALOGUE:
        for note in declared.contract:
            if isinstance(note, Note) and note.what in what:
                yield Noted(declared.name, note)


def operation(contract: Contract, route: str) -> str | None:
    """Production's operation (`METHOD /template`) behind a kind's route (`METHOD /v1/...`)."""
    method, path = route.split(" ", 1)
    template = contract.operation_of(method, concrete(path))
    return f"{method} {template}" if template else None


def located(contract: Contract, *what: str) -> Iterator[tuple[str, Noted]]:
    """The notes saying one of `what`, each with production's operation behind it; a note
    whose route names none is a `LookupError` naming its kind."""
    for said in notes(*what):
        op = operation(contract, said.note.operation)
        if op is None:
            raise LookupError(f"{said.kind}: {said.note.operation} is no operation of production")
        yield op, said


def by_operation(contract: Contract, *what: str) -> dict[str, Noted]:
    """The notes of an operation saying one of `what`, by production's operation."""
    return dict(located(contract, *what))


def by_property(contract: Contract, *what: str) -> dict[tuple[str, str], Noted]:
    """The notes of a property saying one of `what`, by (production's operation, property)."""
    return {(op, said.note.field): said for op, said in located(contract, *what)}


def explained() -> Iterator[tuple[str, Explained]]:
    """The fuzzer's findings each kind says production's document explains."""
    for declared in CATALOGUE:
        for note in declared.contract:
            if isinstance(note, Explained):
                yield declared.name, note


def seeds() -> Iterator[tuple[str, Seed]]:
    """The requests the fuzzer's organization is made with, kind by kind in the catalogue's
    order (a kind's seeds may name the ids its referents' seeds were answered)."""
    for declared in CATALOGUE:
        for note in declared.contract:
            if isinstance(note, Seed):
                yield declared.name, note

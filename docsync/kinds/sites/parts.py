"""The parts of a site as the catalogue holds them (`kinds.parts`: `SitePart`, `ChildPart`):
the site kind finds them here, reads those an entry writes, plans each, carries out an action
by its payload's part, and exports them; a new part needs no line in the site's module."""

from __future__ import annotations

from docsync.kinds.kind import Kinds
from docsync.kinds.nested.parts import ChildPart, SitePart


def site_parts(kinds: Kinds) -> tuple[SitePart, ...]:
    """Every part of a site itself, in the catalogue's order (the order their actions are
    planned); a part of one of its children is planned with that child (`ChildPart`)."""
    return tuple(p for p in kinds.parts("site") if isinstance(p, SitePart))


def child_parts(kinds: Kinds) -> tuple[ChildPart, ...]:
    """The parts of a site's children (a site space's customization override)."""
    return tuple(p for p in kinds if isinstance(p, ChildPart))


def part_writing(kinds: Kinds, payload: object) -> SitePart | ChildPart | None:
    """The part, of the site or of one of its children, whose action carries `payload`."""
    every: tuple[SitePart | ChildPart, ...] = (*site_parts(kinds), *child_parts(kinds))
    return next((p for p in every if isinstance(payload, p.part_payload)), None)

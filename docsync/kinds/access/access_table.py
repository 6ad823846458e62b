"""The access table of a plan: for each resource whose grants change, one row per direct grant
of the principal types managed there (principal, before, after, what changes), the grants that
change and those kept (`=`), so a reviewer sees the matrix after the apply, not a list of
calls. Drawn from the plan alone (grant addresses and kept grants), so a saved plan shows it."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from docsync.core.entries import role_shown
from docsync.core.model import Action, Kept, KeptPart, Plan, Review, ReviewRow
from docsync.kinds.access.grant_writes import grant_address, grant_of

#: principals in an access table: teams, then members, each by name
_PRINCIPALS = ("team", "member")
COLUMNS = ("principal", "before", "after", "change")


def _role(action: Action, side: str) -> str:
    """A grant's role on one side of its action: `—` without a grant, `guest` for null."""
    if (action.verb, side) in (("create", "before"), ("delete", "after")):
        return "—"
    change = next((c for c in action.changes if c.field == "role"), None)
    return role_shown(getattr(change, side) if change is not None else None)


def _what(action: Action) -> str:
    """What a grant action does to its row."""
    if action.verb in ("create", "delete"):
        return "new" if action.verb == "create" else "removed"
    # an update lowers access exactly when it is flagged an audience change
    return "lowered" if action.audience_change else "raised"


def _order(principal: str, name: str) -> tuple[int, str, str]:
    known = _PRINCIPALS.index(principal) if principal in _PRINCIPALS else len(_PRINCIPALS)
    return known, name.casefold(), name


def access_tables(plan: Plan, kind: str) -> list[Review]:
    """One table per resource whose grants (`kind`'s actions) change, in plan order."""
    tables: dict[str, list[tuple[tuple[int, str, str], ReviewRow]]] = {}
    for action in plan.actions:
        found = grant_of(action.address) if action.kind == kind else None
        if found is None:
            continue
        resource, principal, name = found
        cells = (f"{principal} {name}", _role(action, "before"), _role(action, "after"))
        row = ReviewRow((*cells, _what(action)), action)
        tables.setdefault(resource, []).append((_order(principal, name), row))
    for kept in plan.kept:
        found = grant_of(kept.address) if kept.kind == kind else None
        if found is None or kept.parent not in tables:
            continue
        _, principal, name = found
        role = role_shown(kept.value)
        row = ReviewRow((f"{principal} {name}", role, role, "="))
        tables[kept.parent].append((_order(principal, name), row))
    return [
        Review("Access", resource, COLUMNS, tuple(row for _, row in sorted(rows, key=_key)))
        for resource, rows in tables.items()
    ]


def _key(item: tuple[tuple[int, str, str], ReviewRow]) -> tuple[int, str, str]:
    return item[0]


class KeptGrantDoc(BaseModel):
    model_config = ConfigDict(extra="forbid")
    resource: str = Field(description='The resource\'s address: `collection["Developers"]`')
    principal: Literal["team", "member"]
    name: str = Field(description="The team's title or the member's email, as in grant addresses")
    role: str | None = Field(description="The role it keeps; null: a site's guest override")


def _dump(kept: Kept) -> KeptGrantDoc:
    found = grant_of(kept.address)
    assert found is not None, kept.address
    resource, principal, name = found
    assert principal in ("team", "member"), principal
    return KeptGrantDoc(resource=resource, principal=principal, name=name, role=kept.value)


def kept_grants(kind: str) -> KeptPart:
    """The grants a resource keeps, as the JSON plan's `kept_grants`."""

    def load(doc: KeptGrantDoc) -> Kept:
        held = grant_address(doc.resource, doc.principal, doc.name)
        return Kept(kind, doc.resource, held, doc.role)

    return KeptPart(
        "kept_grants",
        KeptGrantDoc,
        "The direct grants kept as they are on each resource whose grants change (of the "
        "principal types managed there): with the grant actions, everyone who has access after "
        "the apply",
        _dump,
        load,
    )

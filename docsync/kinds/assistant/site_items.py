"""A site's keyed list of items that the API creates, updates and deletes one by one under the
site (its assistant's context connections, channels and MCP servers), planned as one action per
site, kind `site`, addressed `site["Docs"].<section>`: the one reconciler matches the list
(`ListPart.changes`), the kind says what differs of each item and what a request carries, this
module makes the action, and the framework's one writer of such lists carries it out
(`ListPart.write_items`), each request by the name its routes give it.

An item the list loses may be what the site's assistant loses (what it read, where it
answered): the kind says so (`Planned.losses`), and the action takes it away
(`Action.takes_away`), which puts it under "Needs a careful look"."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from docsync.core.context import PlanContext, ref
from docsync.core.model import Action, FieldChange
from docsync.core.payloads import Ref
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds.parts import ItemWrites, OnSite

if TYPE_CHECKING:
    pass

Path = tuple[str | int, ...]


@dataclass
class SiteItems(OnSite, ItemWrites):
    """A site's items to write (`parts.ItemWrites`: written by `ListPart.write_items`), and
    what the creates and updates need made first (an integration's installation, as `$ref`
    placeholders, for their order only: nothing is sent of them)."""

    after: list[Ref] = field(default_factory=list)


@dataclass(frozen=True)
class Planned:
    """What a kind planned of its list on one site: the lines a reviewer reads, the writes,
    and what each deleted item takes away."""

    lines: list[FieldChange]
    writes: SiteItems
    losses: list[str]


def site_items_action(
    desired: DesiredResource, section: str, planned: Planned, ctx: PlanContext
) -> Action:
    """The site's one action for its list `section`: after the site's own actions (a site made
    or renamed first), each loss named."""
    planned.writes.site = ref(desired.address)
    action = Action(
        "update",
        desired.kind,
        f"{desired.address}.{section}",
        planned.lines,
        ctx.where((*desired.path, section)),
        payload=planned.writes,
        depends_on=[a.key for a in ctx.actions_at[desired.address] if a.verb != "delete"],
    )
    for loss in planned.losses:
        action.takes_away(loss)
    return ctx.add(action)


def live_items(
    kind: str, section: str, key: str, site: LiveResource | None, address: Callable[[str], str]
) -> list[LiveResource]:
    """The site's items as read (`site["_<section>"]`; none when not read), each as the
    reconciler matches it: keyed by `key`, its fields the item as read (what of it is compared
    is the kind's to say)."""
    found = site.raw.get(f"_{section}") if site is not None else None
    return [
        LiveResource(
            kind=kind,
            id=str(item["id"]),
            key=str(item[key]),
            address=address(str(item[key])),
            name=str(item[key]),
            fields=item,
        )
        for item in found or []
    ]


def entry_resources(
    kind: str,
    desired: DesiredResource,
    section: str,
    key: str,
    shape: Callable[[Any], dict[str, Any]],
    address: Callable[[str], str],
) -> list[DesiredResource] | None:
    """The entries of the site's list (None: not written), each as the reconciler matches it:
    keyed by `key`, its fields as `shape` compares them."""
    written = desired.written(section)
    if written is None:
        return None
    base: Path = (*desired.path, section)
    return [
        DesiredResource(
            kind=kind,
            key=str(getattr(item, key)),
            address=address(str(getattr(item, key))),
            name=str(getattr(item, key)),
            fields=shape(item),
            path=(*base, index),
            entry=item,
        )
        for index, item in enumerate(written)
    ]

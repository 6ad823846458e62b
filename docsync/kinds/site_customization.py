"""A site's customization: only the fields written are managed, nested ones included (writing
`styling.primaryColor.light` manages that value only). The API reads the whole object and PUT
replaces it whole, so applying reads what is live, merges the written fields in, and writes the
whole object back. Used by the site kind.

A mapping is walked into its fields; a list or a scalar is one value (`header.links` written is
the whole list). `null` removes an optional field (`announcement: null`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from docsync.api.answers import Obj
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.model import Action, leaf_change
from docsync.core.payloads import OnSite
from docsync.core.state import DesiredResource, LiveResource

if TYPE_CHECKING:
    from docsync.api import ApiClient

Leaf = tuple[str, ...]
#: answered by the API, refused in a PUT's body
READ_ONLY = ("updatedAt",)
_ABSENT = object()


@dataclass
class Customization(OnSite):
    """The written fields to merge into the live customization (`{path: value}` with dotted
    paths, so the payload says exactly what is managed)."""

    fields: dict[str, Any] = field(default_factory=dict)


# -- reading ---------------------------------------------------------------------------------

#: a site's customization is an object (only the fields a manifest writes are compared)
ANSWER = Obj({})


async def read(api: ApiClient, site: dict[str, Any], site_path: str) -> None:
    """The site's whole customization into `site["_customization"]`."""
    site["_customization"] = _writable(await api.get(f"{site_path}/customization", shape=ANSWER))


def _writable(found: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in found.items() if k not in READ_ONLY}


def live_customization(site: LiveResource | None) -> dict[str, Any] | None:
    found = site.raw.get("_customization") if site is not None else None
    return found if isinstance(found, dict) else None


# -- paths -----------------------------------------------------------------------------------


def leaves(written: dict[str, Any], prefix: Leaf = ()) -> dict[Leaf, Any]:
    """Every managed value of a written customization by its path."""
    found: dict[Leaf, Any] = {}
    for name, value in written.items():
        path = (*prefix, str(name))
        if isinstance(value, dict) and value:
            found |= leaves(value, path)
        else:
            found[path] = value
    return found


def value_at(tree: dict[str, Any], path: Leaf) -> Any:
    """The value at `path`, or None when some part of it is not there."""
    node: Any = tree
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def merged(live: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    """The live customization with the written fields (dotted paths) merged in; a written null
    removes the field; what was read only is left out."""
    out: dict[str, Any] = _writable(live)
    for dotted, value in fields.items():
        *parents, last = dotted.split(".")
        node = out
        for part in parents:
            child = node.get(part)
            node[part] = child = dict(child) if isinstance(child, dict) else {}
            node = child
        if value is None:
            node.pop(last, None)
        else:
            node[last] = value
    return out


# -- planning --------------------------------------------------------------------------------


def plan_customization(
    desired: DesiredResource, live: LiveResource | None, ctx: PlanContext
) -> Action | None:
    """One update when a written field differs from the live one; the plan shows only those,
    each at its path (`customization.styling.primaryColor.light`)."""
    written = desired.entry.customization
    if written is None:
        return None
    current = live_customization(live) or {}
    changed = {
        path: value for path, value in leaves(written).items() if value_at(current, path) != value
    }
    if not changed:
        return None
    base = (*desired.path, "customization")
    lines = [
        leaf_change(
            "customization",
            path,
            value_at(current, path),
            value,
            sensitive=ctx.sensitive((*base, *path)),
        )
        for path, value in changed.items()
    ]
    mine = [a.key for a in ctx.actions_at[desired.address] if a.verb != "delete"]
    action = Action(
        "update",
        desired.kind,
        f"{desired.address}.customization",
        lines,
        ctx.where(base),
        payload=Customization(
            ref(desired.address), {".".join(path): value for path, value in changed.items()}
        ),
        depends_on=mine,
    )
    return ctx.add(action)


# -- applying --------------------------------------------------------------------------------


async def write_customization(payload: Customization, site_path: str, run: RunContext) -> None:
    """Read the live object, merge the written fields in, PUT the whole object: what the
    manifest does not write stays as it is now, not as it was when the plan was made."""
    path = f"{site_path}/customization"
    found = await run.api.get(path, shape=ANSWER)
    await run.api.write("PUT", path, merged(found, payload.fields))


# -- exporting -------------------------------------------------------------------------------


def export_customization(site: LiveResource) -> dict[str, Any] | None:
    """The whole live customization (what is not written is not managed, so the whole object is
    what reproduces the site)."""
    return live_customization(site)

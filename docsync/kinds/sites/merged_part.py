"""A part of a site that the API reads whole and replaces whole (its customization, its agent
settings), of which a manifest manages only the fields written, nested ones included: planned as
one update showing each changed field at its path, applied by reading the live object, merging
the written fields in and writing it back whole."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, final

from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.model import Action, leaf_change
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds.partial import Leaf, managed, merged, report_incomplete, value_at, writable
from docsync.kinds.sites.parts import SitePart, at_site, send_under
from docsync.kinds.sites.payloads import OnSite

if TYPE_CHECKING:
    from docsync.api import ApiClient


@dataclass
class MergedFields(OnSite):
    """The written fields to merge into the live object (`{dotted path: value}`, so the payload
    says exactly what is managed); each part has a subclass of its own."""

    fields: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Converted:
    """A value a manifest writes otherwise than the API holds it (agent instructions: text
    written, a document held): how a value, live or written, is compared and shown, and how a
    written one is sent."""

    compared: Callable[[Any], Any]
    sent: Callable[[Any], Any]


class MergedPart(SitePart):
    """Such a part; `section` names its field and the slot of the site's item its read fills
    (`_<section>`). It reads, plans and writes itself from what it declares below."""

    HOOKS: ClassVar[tuple[str, ...]] = (
        "reads",
        "export",
        "check_list",
        "warnings",
        "pictures",
        "reviews",
        "requests",
        "lockout",
    )
    part_payload: ClassVar[type[MergedFields]]
    #: the top-level fields of the API's answer its PUT takes back (None: all but those the API
    #: only answers, `READ_ONLY`)
    put_fields: ClassVar[tuple[str, ...] | None] = None
    #: the values at these paths a manifest writes otherwise than the API holds them
    converted: ClassVar[Mapping[Leaf, Converted]] = {}

    @final
    def writable(self, found: dict[str, Any]) -> dict[str, Any]:
        """What of the API's answer its PUT takes back (`put_fields`)."""
        if self.put_fields is None:
            return writable(found)
        return {k: found[k] for k in self.put_fields if k in found}

    @final
    def compared(self, path: Leaf, value: Any) -> Any:
        """A value at `path`, live or written, as it is compared and shown (`converted`)."""
        found = self.converted.get(path)
        return found.compared(value) if found is not None and value is not None else value

    @final
    def sent(self, path: Leaf, value: Any) -> Any:
        """A written value at `path` as the PUT sends it (`converted`)."""
        found = self.converted.get(path)
        return found.sent(value) if found is not None else value

    @final
    def live_object(self, site: LiveResource | None) -> dict[str, Any] | None:
        found = site.raw.get(f"_{self.section}") if site is not None else None
        return found if isinstance(found, dict) else None

    @final
    async def fetch(self, api: ApiClient, site: dict[str, Any], site_path: str) -> None:
        found = await send_under(api, self.route("read"), site_path)
        site[f"_{self.section}"] = self.writable(found)

    @final
    def plan(
        self, desired: DesiredResource, live: LiveResource | None, ctx: PlanContext
    ) -> Action | None:
        """One update when a written field differs from the live one; the plan shows only those,
        each at its path (`customization.styling.primaryColor.light`)."""
        written = getattr(desired.entry, self.section)
        if written is None:
            return None
        found = self.live_object(live)
        current = found or {}
        changed = {
            path: value
            for path, value in managed(written).items()
            if self.compared(path, value_at(current, path)) != self.compared(path, value)
        }
        if not changed:
            return None
        base = (*desired.path, self.section)
        if found is not None and report_incomplete(written, found, changed, base, "site", ctx):
            return None
        lines = [
            leaf_change(
                self.section,
                path,
                self.compared(path, value_at(current, path)),
                self.compared(path, value),
                sensitive=ctx.sensitive((*base, *path)),
            )
            for path, value in changed.items()
        ]
        mine = [a.key for a in ctx.actions_at[desired.address] if a.verb != "delete"]
        fields = {".".join(path): self.sent(path, value) for path, value in changed.items()}
        action = Action(
            "update",
            desired.kind,
            f"{desired.address}.{self.section}",
            lines,
            ctx.where(base),
            payload=self.part_payload(ref(desired.address), fields),
            depends_on=mine,
        )
        return ctx.add(action)

    @final
    async def execute(self, action: Action, run: RunContext) -> None:
        """Read the live object, merge the written fields in, PUT the whole object: what the
        manifest does not write stays as it is now, not as it was when the plan was made."""
        payload, site_path = action.payload, at_site(action, run)
        assert isinstance(payload, self.part_payload)
        found = await send_under(run.api, self.route("read"), site_path)
        body = merged(self.writable(found), payload.fields)
        await send_under(run.api, self.route("update"), site_path, body)

"""A part of a site that the API reads whole and replaces whole (its customization, its agent
settings), of which a manifest manages only the fields written, nested ones included: planned as
one update showing each changed field at its path, applied by reading the live object, merging
the written fields in and writing it back whole."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, final

from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.model import Action, leaf_change
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds.partial import Leaf, managed, merged, report_incomplete, value_at
from docsync.kinds.sites.parts import SitePart, send_under
from docsync.kinds.sites.payloads import OnSite

if TYPE_CHECKING:
    from docsync.api import ApiClient


@dataclass
class MergedFields(OnSite):
    """The written fields to merge into the live object (`{dotted path: value}`, so the payload
    says exactly what is managed); each part has a subclass of its own."""

    fields: dict[str, Any] = field(default_factory=dict)


class MergedPart(SitePart):
    """Such a part; `section` names its field and the slot of the site's item its read fills
    (`_<section>`). It reads, plans and writes itself; what is its own are three hooks."""

    HOOKS: ClassVar[tuple[str, ...]] = (
        "written",
        "writable",
        "compared",
        "sent",
        "export_part",
        "check_list",
        "warnings",
        "pictures",
        "reviews",
        "requests",
        "lockout",
    )
    part_payload: ClassVar[type[MergedFields]]

    def writable(self, found: dict[str, Any]) -> dict[str, Any]:
        """What of the API's answer does its PUT take back?

        Asked by: its read, and its write before it merges. Returns: the object without what
        the API answers but refuses in a PUT. Default: all of it."""
        return found

    def compared(self, path: Leaf, value: Any) -> Any:
        """How does a value at `path` compare, and show in the plan?

        Asked by: its plan, for the live and the written value. Returns: the value compared
        and shown. Default: as it is."""
        return value

    def sent(self, path: Leaf, value: Any) -> Any:
        """How does the PUT send a written value at `path`?

        Asked by: its plan, into the action's payload. Returns: the value sent. Default: as
        it is."""
        return value

    @final
    def live_object(self, site: LiveResource | None) -> dict[str, Any] | None:
        found = site.raw.get(f"_{self.section}") if site is not None else None
        return found if isinstance(found, dict) else None

    @final
    async def read(self, api: ApiClient, site: dict[str, Any], site_path: str) -> None:
        found = await send_under(api, self.route("read"), site_path)
        site[f"_{self.section}"] = self.writable(found)

    @final
    def plan_part(
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
    async def write(self, payload: Any, site_path: str, run: RunContext) -> None:
        """Read the live object, merge the written fields in, PUT the whole object: what the
        manifest does not write stays as it is now, not as it was when the plan was made."""
        assert isinstance(payload, self.part_payload)
        found = await send_under(run.api, self.route("read"), site_path)
        body = merged(self.writable(found), payload.fields)
        await send_under(run.api, self.route("update"), site_path, body)

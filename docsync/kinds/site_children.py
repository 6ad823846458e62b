"""The parts of a site's structure: sections, site spaces and section groups. The site kind plans
them (they have no list of their own worth reading: one structure read gives them all); these
kinds declare their fields and carry out their actions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, ClassVar

from pydantic import Field as Limits

from docsync.api.errors import OutcomeUnknown
from docsync.core.context import RunContext
from docsync.core.entries import Condition, Entry, Icon, Ref, Uri
from docsync.core.kind import Declaration, Field
from docsync.core.model import Action
from docsync.core.nullability import NULL
from docsync.core.payloads import GroupMembership, OnSite, Reorder, child
from docsync.kinds import site_found
from docsync.kinds.base import Kind
from docsync.kinds.site_order import Move, plan_moves


class SiteSpaceEntry(Entry):
    """A space published on a site, keyed by path within its section (or site)."""

    space: Ref | None = None
    """A space by title (of the manifest or live) or id."""
    path: str | None = Limits(default=None, min_length=1, max_length=100)
    condition: Annotated[Condition | None, NULL] = None
    default: bool | None = None
    customization: Annotated[dict[str, Any] | None, NULL] = None
    """Overrides of the site's customization for this site space; only the fields written are
    managed (`null` on one unsets its override); `customization: null` removes the override."""


class SectionEntry(Entry):
    """A site section, keyed by title within its site."""

    title: str | None = Limits(default=None, min_length=2, max_length=128)
    path: str | None = Limits(default=None, min_length=1, max_length=100)
    icon: Annotated[Icon | None, NULL] = None
    description: Annotated[str | None, NULL] = Limits(default=None, max_length=256)
    condition: Annotated[Condition | None, NULL] = None
    default: bool | None = None


class SectionGroupEntry(Entry):
    """A group of sections of the same site, keyed by title."""

    title: str | None = Limits(default=None, min_length=1, max_length=100)
    icon: Annotated[Icon | None, NULL] = None
    sections: list[Ref] | None = None
    """Titles (or ids) of sections of the same site."""


class ExternalLinkEntry(Entry):
    """A link to another site among a site's root sections and groups, keyed by title."""

    title: str | None = Limits(default=None, min_length=2, max_length=128)
    url: Uri | None = None
    description: Annotated[str | None, NULL] = Limits(default=None, max_length=256)
    after: str | None = Limits(default=None, min_length=1)
    """The title of the root section or group the link follows; absent: the link goes first."""


SECTION = Declaration(
    "section",
    "sections",
    "section",
    key="title",
    parents=("site",),
    exact=True,
    fields=(
        Field("title"),
        Field("icon"),
        Field("path", create=False),
        Field("description", create=False),
        Field("condition", create=False),
        Field("default", create=False, update=False),
    ),
    entry=SectionEntry,
    order=81,
)


SITE_SPACE = Declaration(
    "site_space",
    "siteSpaces",
    "site space",
    key="path",
    parents=("section", "site"),
    exact=True,
    fields=(
        Field("space", ref="space", wire="spaceId", ref_live=True),
        Field("path", create=False),
        Field("condition", create=False),
        Field("default", create=False, update=False),
    ),
    entry=SiteSpaceEntry,
    order=82,
)


SECTION_GROUP = Declaration(
    "section_group",
    "sectionGroups",
    "section group",
    key="title",
    parents=("site",),
    exact=True,
    fields=(
        Field("title"),
        Field("icon"),
        # Which sections a group holds; their order is the site's order (a reorder's business).
        Field("sections", ref="section", update=False, ref_sibling=True, unordered=True),
    ),
    entry=SectionGroupEntry,
    order=83,
)


EXTERNAL_LINK = Declaration(
    "external_link",
    "externalLinks",
    "external link",
    key="title",
    parents=("site",),
    exact=True,
    fields=(Field("title"), Field("url"), Field("description")),
    entry=ExternalLinkEntry,
    order=84,
)


def site_path(run: RunContext, payload: OnSite) -> str:
    return f"/v1/orgs/{run.org_id}/sites/{run.resolve(payload.site)}"


def _late(kind: Kind, fields: dict[str, Any]) -> dict[str, Any]:
    """Written fields that only an update can set (the create request has no room for them)."""
    return {
        f.wire_name: fields[f.name]
        for f in kind.fields
        if f.name in fields and f.update and not f.create
    }


#: finds, in a structure read, the item a create asked for (its body) among ids not yet known
Finder = Callable[[Any, dict[str, Any], set[str]], dict[str, Any] | None]


class _Child(Kind):
    """Planned by the site kind (one structure read serves them all), never on their own."""

    #: the list under the site these items live in (`/sites/{id}/<path>`)
    path: ClassVar[str]

    def wanted(self, manifest: Any, referenced: set[str]) -> bool:
        return False

    async def execute(self, action: Action, run: RunContext) -> None:
        payload = child(action)
        fields = run.resolve(payload.fields)
        base = f"{site_path(run, payload)}/{self.path}"
        if action.verb == "create":
            await self.create(action, run, base, fields)
        elif action.verb == "update":
            assert action.live_id is not None
            await self.update(action, run, f"{base}/{action.live_id}", fields)
        elif action.verb == "delete":
            await run.api.write("DELETE", f"{base}/{action.live_id}")
        else:
            raise ValueError(f"{self.name} cannot {action.verb}")

    async def create(
        self, action: Action, run: RunContext, base: str, fields: dict[str, Any]
    ) -> None:
        raise NotImplementedError(f"{type(self).__name__} must say how it is created")

    async def post_once(
        self, action: Action, run: RunContext, base: str, body: dict[str, Any], find: Finder
    ) -> dict[str, Any]:
        """Creates without ever making a duplicate: when the server may or may not have made
        the item (5xx, dropped connection), one structure read finds it and the apply adopts it;
        only when it is not there is the request sent again."""
        for _attempt in range(3):
            try:
                created: dict[str, Any] = await run.api.write("POST", base, body)
                return created
            except OutcomeUnknown:
                structure = await run.api.get(f"{site_path(run, child(action))}/structure")
                found = find(structure, body, set(run.ids.values()))
                if found is not None:
                    return found
        created = await run.api.write("POST", base, body)
        return created

    async def update(
        self, action: Action, run: RunContext, item: str, fields: dict[str, Any]
    ) -> None:
        # Paths handed round between items of this level (site_tree plans it), one at a time.
        for step in child(action).paths:
            sibling = f"{item.rsplit('/', 1)[0]}/{step.id}"
            await run.api.write("PATCH", sibling, {"path": step.path})
        body = {f.wire_name: fields[f.name] for f in self.fields if f.update and f.name in fields}
        if body:
            await run.api.write("PATCH", item, body)
        if fields.get("default"):
            assert action.live_id is not None
            await self.set_default(action, run, action.live_id)

    async def finish_create(
        self, action: Action, run: RunContext, item: str, fields: dict[str, Any], answer: Any
    ) -> None:
        """What a create request could not carry (late fields, then the default flag), unless
        its answer already shows it: a generated path that is the one wanted, the first site
        space of a level, which the API makes its default."""
        shown = answer if isinstance(answer, dict) else {}
        late = {
            name: value
            for name, value in _late(self, fields).items()
            if name not in shown or shown[name] != value
        }
        if late:
            await run.api.write("PATCH", item, late)
        if fields.get("default") and not shown.get("default"):
            await self.set_default(action, run, item.rsplit("/", 1)[-1])

    async def set_default(self, action: Action, run: RunContext, own_id: str) -> None:
        """Makes this item its level's default: the API moves the flag through the parent."""
        payload = child(action)
        target = payload.default_via
        if target is None:
            raise TypeError(f"{action.key}: no level to set its default through")
        base = site_path(run, payload)
        if target.kind == "section":
            path = f"{base}/sections/{run.resolve(target.id)}"
            await run.api.write("PATCH", path, {"defaultSiteSpace": own_id})
        else:
            field = "defaultSiteSection" if self.name == "section" else "defaultSiteSpace"
            await run.api.write("PATCH", base, {field: own_id})


class SectionKind(_Child):
    declaration = SECTION
    path = "sections"

    async def create(
        self, action: Action, run: RunContext, base: str, fields: dict[str, Any]
    ) -> None:
        """One request makes the section and its first site space."""
        payload = child(action)
        body = {"spaceId": run.resolve(payload.first_space)}
        body |= {k: fields[k] for k in ("title", "icon") if k in fields}
        created = await self.post_once(action, run, base, body, site_found.new_section)
        run.ids[action.address] = str(created["id"])
        first = created.get("siteSpaces") or []
        if first and isinstance(first[0], dict) and payload.first_site_space:
            run.ids[payload.first_site_space] = str(first[0]["id"])
            if isinstance(first[0], dict):
                run.answers[payload.first_site_space] = first[0]
        item = f"{base}/{created['id']}"
        await self.finish_create(action, run, item, fields, created)


class SiteSpaceKind(_Child):
    declaration = SITE_SPACE
    path = "site-spaces"

    async def create(
        self, action: Action, run: RunContext, base: str, fields: dict[str, Any]
    ) -> None:
        payload = child(action)
        if payload.made_by_section:
            # Its section's create made it: only what that request could not carry is left.
            own_id, created = run.id_of(action.address), run.answers.get(action.address)
        else:
            body = {"spaceId": fields["space"]}
            if payload.section:
                body["sectionId"] = run.resolve(payload.section)
            created = await self.post_once(action, run, base, body, site_found.new_site_space)
            own_id = str(created["id"])
            run.ids[action.address] = own_id
        await self.finish_create(action, run, f"{base}/{own_id}", fields, created)


class SectionGroupKind(_Child):
    declaration = SECTION_GROUP
    path = "section-groups"

    async def create(
        self, action: Action, run: RunContext, base: str, fields: dict[str, Any]
    ) -> None:
        body: dict[str, Any] = {k: fields[k] for k in ("title", "icon", "sections") if k in fields}
        created = await self.post_once(action, run, base, body, site_found.new_group)
        run.ids[action.address] = str(created["id"])

    async def update(
        self, action: Action, run: RunContext, item: str, fields: dict[str, Any]
    ) -> None:
        """Its own fields, then its members: each section moves in or out with one PATCH of its
        `siteSectionGroupId` (production has no membership endpoints), idempotent, so a PATCH
        whose answer was lost is simply sent again. In, a section goes last; out, right after
        the group: the reorder that follows settles the rest."""
        await super().update(action, run, item, fields)
        membership = child(action).membership or GroupMembership()
        sections = f"{site_path(run, child(action))}/sections"
        group_id = item.rsplit("/", 1)[-1]
        for section_id in run.resolve(membership.remove):
            await run.api.write("PATCH", f"{sections}/{section_id}", {"siteSectionGroupId": None})
        for section_id in run.resolve(membership.add):
            body = {"siteSectionGroupId": group_id}
            await run.api.write("PATCH", f"{sections}/{section_id}", body)


class ExternalLinkKind(_Child):
    declaration = EXTERNAL_LINK
    path = "external-links"

    async def create(
        self, action: Action, run: RunContext, base: str, fields: dict[str, Any]
    ) -> None:
        """At the root, last: the site's reorder puts it where the manifest writes it."""
        body: dict[str, Any] = {
            k: fields[k] for k in ("title", "url", "description") if k in fields
        }
        created = await self.post_once(action, run, base, body, site_found.new_link)
        run.ids[action.address] = str(created["id"])


_POINTER_TYPES = {
    "external_link": "site-external-link",
    "section": "site-section",
    "section_group": "site-section-group",
    "site_space": "site-space",
}


async def reorder(action: Action, run: RunContext) -> None:
    """Re-reads the structure and moves only what is out of place, level by level: the order
    the API gives new items is not promised, so the moves are computed from what is there."""
    payload = action.payload
    if not isinstance(payload, Reorder):
        raise TypeError(f"{action.key}: expected a Reorder payload, got {payload!r}")
    base = site_path(run, payload)
    structure = await run.api.get(f"{base}/structure")
    for level in payload.levels:
        want = [run.id_of(address) for address in level.desired]
        types = {run.id_of(a): _POINTER_TYPES[k] for a, k in level.kinds.items()}
        container = run.id_of(level.container) if level.container else None
        have = [i for i in current_order(structure, container) if i in types]
        for move in plan_moves(have, want):
            await run.api.write("PATCH", f"{base}/structure/sort", _sort_body(move, types))


def _sort_body(move: Move, types: dict[str, str]) -> dict[str, Any]:
    anchor = move.after if move.after is not None else move.before
    assert anchor is not None
    where = "after" if move.after is not None else "before"
    return {
        "item": {"type": types[move.item], "id": move.item},
        "position": {where: {"type": types[anchor], "id": anchor}},
    }


def current_order(structure: dict[str, Any], container: str | None) -> list[str]:
    """Ids of the items of one level of a structure read: the root when `container` is None,
    else the children of that section (site spaces) or group (sections)."""
    items = structure.get("structure") or []
    if container is None:
        return [str(item["id"]) for item in items]
    for item in items:
        found = _children_of(item, container)
        if found is not None:
            return found
    return []


def _children_of(item: dict[str, Any], container: str) -> list[str] | None:
    if str(item.get("id")) == container:
        if item.get("object") == "site-section":
            return [str(s["id"]) for s in item.get("siteSpaces") or []]
        return [str(s["id"]) for s in item.get("sections") or item.get("children") or []]
    for section in item.get("sections") or []:
        if str(section.get("id")) == container:
            return [str(s["id"]) for s in section.get("siteSpaces") or []]
    return None

"""How a site's children are written: the requests their routes name under the site's path,
a create whose outcome is unknown found again in one structure read, a default moved through
the parent, and the site's one reorder, which moves only what is out of place."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, final

from docsync.api.answers import check_answer
from docsync.core.context import PlanContext, RunContext
from docsync.core.lockout import Lockout
from docsync.core.model import Action, Picture, Plan, Review
from docsync.core.state import LiveState
from docsync.kinds.declaration import Field, Structure
from docsync.kinds.kind import Kind, Kinds
from docsync.kinds.parts import OnSite
from docsync.kinds.requests import Route, Routes, create_once
from docsync.kinds.sites.order import Move, plan_moves
from docsync.kinds.sites.payloads import ChildChange, Reorder, child
from docsync.kinds.sites.structure_answers import item_shape
from docsync.kinds.sites.wrapper import wrapped

#: a site, under which its children's lists are
SITE = "/v1/orgs/{org}/sites/{site}"
#: a level's default set on the site (`defaultSiteSection`, `defaultSiteSpace` at its root)
SITE_DEFAULT = Route("PATCH", SITE)
#: a section's own fields set by a kind of another level (its default site space, its group)
ON_SECTION = Route("PATCH", f"{SITE}/sections/{{section}}")


def child_routes(segment: str, id_name: str, more: Mapping[str, Route] | None = None) -> Routes:
    """A site's child's routes: its list under the site (`segment`) and its items; `more`: what
    else it sends (its default set through the site or its section). A create whose answer was
    lost is found again in the site's structure, read by the site's route (`post_once`)."""
    return Routes(f"{SITE}/{segment}", id_name=id_name, more=dict(more or {}))


def site_path(run: RunContext, payload: OnSite) -> str:
    return SITE.format(org=run.org_id, site=run.resolve(payload.site))


def _late(kind: Kind, fields: dict[str, Any], made_by_parent: bool) -> list[Field]:
    """Written fields that only an update can set (the create request has no room for them);
    every one an update takes but a reference, for an item its parent's create made (a
    section's first site space: that request carried the section's own fields)."""
    return [
        f
        for f in kind.fields
        if f.name in fields and f.update and ((made_by_parent and not f.ref) or not f.create)
    ]


#: finds, in a structure read, the item a create asked for (its body) among ids not yet known
Finder = Callable[[Any, dict[str, Any], set[str]], dict[str, Any] | None]


class AppliedChild(Kind):
    """Read and planned with the site (one structure read serves them all), never alone: the
    hooks of reading and planning are the site's. What its `Structure` declares (where its items
    stand in a structure read, the layout they belong to, the field naming its level's
    default) is read here."""

    HOOKS: ClassVar[tuple[str, ...]] = ("execute", "check_list", "requests")

    @final
    @property
    def structure(self) -> Structure:
        found = self.declaration.structure
        assert found is not None, f"{self.name} declares no place in a site's structure"
        return found

    @final
    @property
    def pointer_type(self) -> str:
        """What the site's structure calls this kind's items (`site-section`)."""
        return self.structure.object

    @final
    @property
    def layout(self) -> str | None:
        return self.structure.layout

    @final
    @property
    def leads(self) -> bool:
        return self.structure.leads

    @final
    @property
    def default_field(self) -> str:
        return self.structure.default_field

    # -- the kind protocol's hooks that are the site's -----------------------------------------
    @final
    def warnings(self, ctx: PlanContext, actions: Sequence[Action]) -> list[str]:
        return []

    @final
    def pictures(self, ctx: PlanContext, actions: Sequence[Action]) -> list[Picture]:
        return []

    @final
    def reviews(self, plan: Plan) -> list[Review]:
        return []

    @final
    def lockout(self, actions: Sequence[Action], guard: Lockout) -> None:
        return None

    @final
    async def read_for_rails(self, api: Any, plan: Plan, live: LiveState) -> None:
        return None

    # -- applying ------------------------------------------------------------------------------
    def requests(self, action: Action) -> int:
        """None for the item its parent's create makes (a section's first site space)."""
        payload = action.payload
        made = isinstance(payload, ChildChange) and payload.made_by_section
        return super().requests(action) - (1 if made and action.verb == "create" else 0)

    async def execute(self, action: Action, run: RunContext) -> None:
        """An update, then what it carries (paths handed round, the default moved), and a
        delete, under the site's path; each kind makes its own creates."""
        if action.verb == "update":
            assert action.live_id is not None
            await self.update_item(action, run, action.live_id, self.resolved(action, run))
        elif action.verb == "delete":
            await self.on_site(action, run, "delete", id=action.live_id)
        else:
            raise ValueError(f"{self.name} cannot {action.verb}")

    @final
    def resolved(self, action: Action, run: RunContext) -> dict[str, Any]:
        """The action's fields, their references resolved to ids."""
        fields: dict[str, Any] = run.resolve(child(action).fields)
        return fields

    @final
    async def on_site(
        self, action: Action, run: RunContext, name: str, body: Any = None, **at: Any
    ) -> Any:
        """The request its routes name `name`, under the action's site."""
        site = run.resolve(child(action).site)
        return await self.send(run.api, name, body, org=run.org_id, site=site, **at)

    @final
    async def post_once(
        self, action: Action, run: RunContext, body: dict[str, Any], find: Finder
    ) -> dict[str, Any]:
        """Creates without ever making a duplicate: when the server may or may not have made
        the item (5xx, dropped connection), one read of the site's structure (the site's route
        `structure`) finds it and the apply adopts it; only when it is not there is the request
        sent again."""
        site = run.resolve(child(action).site)

        async def create() -> dict[str, Any]:
            created: dict[str, Any] = await self.on_site(action, run, "create", body)
            path = self.route("create").at(org=run.org_id, site=site)
            check_answer("POST", path, created, item_shape(self.kinds, self.pointer_type))
            return created

        async def look() -> dict[str, Any] | None:
            holder = self.kinds.named("site")
            structure = await holder.send(run.api, "structure", org=run.org_id, id=site)
            return find(structure, body, set(run.ids.values()))

        return await create_once(create, look)

    @final
    async def update_item(
        self,
        action: Action,
        run: RunContext,
        item_id: str,
        fields: dict[str, Any],
        body: dict[str, Any] | None = None,
    ) -> None:
        """The paths handed round (planned by the site's driver), the update's `body` (by
        default the fields an update carries), then the default moved."""
        # Paths handed round within this level (planned by the site's driver), one at a time.
        for step in child(action).paths:
            await self.on_site(action, run, "update", {"path": step.path}, id=step.id)
        if body is None:
            body = {
                f.wire_name: fields[f.name] for f in self.fields if f.update and f.name in fields
            }
        if body:
            await self.on_site(action, run, "update", body, id=item_id)
        if fields.get("default"):
            assert action.live_id is not None
            await self.set_default(action, run, action.live_id)

    @final
    async def finish_create(
        self, action: Action, run: RunContext, item_id: str, fields: dict[str, Any], answer: Any
    ) -> None:
        """What a create request could not carry (late fields, then the default flag), unless
        its answer already shows it: a generated path that is the one wanted, the first site
        space of a level, which the API makes its default."""
        shown = answer if isinstance(answer, dict) else {}
        late = {
            f.wire_name: fields[f.name]
            for f in _late(self, fields, child(action).made_by_section)
            if not shown or f.read(shown) != fields[f.name]
        }
        if late:
            await self.on_site(action, run, "update", late, id=item_id)
        if fields.get("default") and not shown.get("default"):
            await self.set_default(action, run, item_id)

    @final
    async def set_default(self, action: Action, run: RunContext, own_id: str) -> None:
        """Makes this item its level's default: the API moves the flag through the parent (its
        routes `section default`, `site default`)."""
        target = child(action).default_via
        if target is None:
            raise TypeError(f"{action.key}: no level to set its default through")
        if target.kind == "section":
            section = run.resolve(target.id)
            body = {"defaultSiteSpace": own_id}
            await self.on_site(action, run, "section default", body, section=section)
        else:
            await self.on_site(action, run, "site default", {self.default_field: own_id})


def pointer_type(kinds: Kinds, kind: str) -> str:
    found = kinds.named(kind)
    assert isinstance(found, AppliedChild), f"{kind} is not a site's child"
    return found.pointer_type


async def reorder(action: Action, run: RunContext, site: Kind) -> None:
    """Re-reads the structure and moves only what is out of place, level by level (the site's
    routes `structure`, `sort`): the order the API gives new items is not promised, so the
    moves are computed from what is there."""
    payload = action.payload
    if not isinstance(payload, Reorder):
        raise TypeError(f"{action.key}: expected a Reorder payload, got {payload!r}")
    kinds, at = site.kinds, {"org": run.org_id, "id": run.resolve(payload.site)}
    structure = await site.send(run.api, "structure", **at)
    for level in payload.levels:
        want = [run.id_of(address) for address in level.desired]
        types = {run.id_of(a): pointer_type(kinds, k) for a, k in level.kinds.items()}
        container = run.id_of(level.container) if level.container else None
        have = [i for i in current_order(structure, container) if i in types]
        if container is None and not have and (held := wrapped(structure)) is not None:
            have = [i for i in current_order(structure, str(held["id"])) if i in types]
        for move in plan_moves(have, want):
            await site.send(run.api, "sort", _sort_body(move, types), **at)


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
    else the children of that section (site spaces) or group (sections and links)."""
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
        return [str(s["id"]) for s in item.get("children") or item.get("sections") or []]
    for section in item.get("sections") or []:
        if str(section.get("id")) == container:
            return [str(s["id"]) for s in section.get("siteSpaces") or []]
    return None


# After a create of a site's child whose outcome is unknown (5xx, dropped connection): find what
# the server made, if anything, in one structure read, so the apply adopts it instead of making a
# duplicate. A child is new when its id is none the apply already knows.
Item = dict[str, Any]


def sections_of(structure: Any) -> Iterator[Item]:
    """Every section of a structure read, grouped or not."""
    for item in _items(structure):
        if item.get("object") == "site-section-group":
            for inner in item.get("sections") or item.get("children") or []:
                if isinstance(inner, dict) and _is_section(inner):
                    yield inner
        elif _is_section(item):
            yield item


def groups_of(structure: Any) -> Iterator[Item]:
    return (i for i in _items(structure) if i.get("object") == "site-section-group")


def site_spaces_in(structure: Any, section_id: str | None) -> list[Item]:
    """The site spaces of one section, or of the root when `section_id` is None (in a site
    whose root is production's wrapper section, that section's: `wrapper.wrapped`)."""
    if section_id is None:
        if isinstance(structure, dict) and structure.get("type") == "siteSpaces":
            return list(_items(structure))
        held = wrapped(structure)
        return [s for s in (held or {}).get("siteSpaces") or [] if isinstance(s, dict)]
    for section in sections_of(structure):
        if str(section.get("id")) == section_id:
            return [s for s in section.get("siteSpaces") or [] if isinstance(s, dict)]
    return []


def space_id(site_space: Item) -> str | None:
    space = site_space.get("space")
    value = space.get("id") if isinstance(space, dict) else space
    return str(value) if value is not None else None


def new_section(structure: Any, body: Item, known: set[str]) -> Item | None:
    """A section the apply does not know yet, with the title (else first space) it asked for."""
    for section in reversed(list(sections_of(structure))):
        if str(section.get("id")) in known:
            continue
        if "title" in body:
            if section.get("title") == body["title"]:
                return section
            continue
        first = [s for s in section.get("siteSpaces") or [] if isinstance(s, dict)]
        if first and space_id(first[0]) == str(body.get("spaceId")):
            return section
    return None


def new_site_space(structure: Any, body: Item, known: set[str]) -> Item | None:
    """A site space the apply does not know yet, publishing the space it asked for, where it
    asked (the path is the API's choice: the apply sets the wanted one next)."""
    section = body.get("sectionId")
    for item in reversed(site_spaces_in(structure, str(section) if section else None)):
        if str(item.get("id")) not in known and space_id(item) == str(body.get("spaceId")):
            return item
    return None


def new_group(structure: Any, body: Item, known: set[str]) -> Item | None:
    """A section group the apply does not know yet, with the title it asked for."""
    for group in reversed(list(groups_of(structure))):
        if str(group.get("id")) not in known and group.get("title") == body.get("title"):
            return group
    return None


def new_link(structure: Any, body: Item, known: set[str]) -> Item | None:
    """An external link the apply does not know yet, with the title it asked for, at the root
    or in the group it asked for."""
    items = list(_items(structure))
    if body.get("parent"):
        group = next((g for g in groups_of(structure) if g.get("id") == body["parent"]), {})
        items = [i for i in group.get("children") or [] if isinstance(i, dict)]
    for item in reversed(items):
        is_link = item.get("object") == "site-external-link"
        if is_link and str(item.get("id")) not in known and item.get("title") == body["title"]:
            return item
    return None


def _items(structure: Any) -> Iterator[Item]:
    items = structure.get("structure") if isinstance(structure, dict) else None
    return (i for i in items or [] if isinstance(i, dict))


def _is_section(item: Item) -> bool:
    return bool(item.get("object", "site-section") == "site-section")

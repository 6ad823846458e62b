"""An installation's sites and spaces: list, install on one, read, configure, uninstall from one.

A site or space of another organization than the installation's is a 404, as one that does not
exist; installing where the integration's target does not reach (a `space` integration on a
site) is a 400. Installing again where it is installed answers that installation (production's
installIntegrationOnSite declares no refusal). The configuration is checked against the
integration's schema at the site or space level. Each level is a table entry nested in the
installation (its rows name it; each is a child of its site or space, and goes with it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.routing import BaseRoute

from docsync.emulator import site_tree as tree
from docsync.emulator.body import BOTH, CREATE, UPDATE, At, Body, Field, Place, Text
from docsync.emulator.errors import bad_request, not_found
from docsync.emulator.http import Ctx
from docsync.emulator.integrations import (
    ON_SITE,
    ON_SPACE,
    check_configuration,
    external_ids,
    integration,
    on_view,
    status,
)
from docsync.emulator.paging import query_bool
from docsync.emulator.refs import live_space
from docsync.emulator.resource import Resource
from docsync.emulator.routes.integrations.installations import INSTALLATIONS
from docsync.emulator.rules import ADMIN, Entry, Rules, reload
from docsync.emulator.scopes import Within
from docsync.emulator.site_views import site_view
from docsync.emulator.snapshot import Loading, kept
from docsync.emulator.store import Doc, Row
from docsync.emulator.views import space_view


def _site(ctx: Ctx, org: str, ident: str) -> Row | None:
    found = ctx.tx.get_row(tree.SITE, ident)
    return found if found is not None and found.org == org else None


def _space(ctx: Ctx, org: str, ident: str) -> Row | None:
    return live_space(ctx.tx, org, ident)


class TargetRules(Rules):
    """Installations on one level (sites or spaces), keyed `<installation>:<target>`."""

    def __init__(
        self,
        name: str,
        kind: str,
        body_field: str,
        find: Callable[[Ctx, str, str], Row | None],
        view: Callable[[Ctx, Row], Doc],
    ) -> None:
        self.name = name  # "site" or "space"
        self.kind = kind
        self.body_field = body_field  # what an install names it by
        self.find = find
        self.view = view

    def shown(self, ctx: Ctx, row: Row) -> Doc:
        """The installation, its target by id unless `extended` asks for the object."""
        if not query_bool(ctx, "extended"):
            return on_view(ctx, row, self.name, str(row.parent))
        target = self.find(ctx, str(row.org), str(row.parent))
        assert target is not None  # a deleted target takes its installations with it
        return on_view(ctx, row, self.name, self.view(ctx, target))

    def schema(self, ctx: Ctx, inst: Row) -> Doc | None:
        """The integration's configuration schema at this level; 400 where it does not reach."""
        found = integration(ctx, inst.data["integration"])
        if found.data["target"] not in ("all", self.name):
            raise bad_request(
                f"{self.body_field}: integration {found.id!r} installs on "
                f"{found.data['target']} targets, not on {self.name}s"
            )
        schema: Doc | None = found.data["configurations"].get(self.name)
        return schema

    def target(self, at: At, ident: str, field: str) -> Row:
        """The site or space an install names, of the installation's organization, where the
        integration reaches."""
        found = self.find(at.ctx, at.place.org, ident)
        if found is None:
            raise not_found(f"No {self.name} {ident!r} in organization {at.place.org!r}")
        self.schema(at.ctx, at.place.holder)
        return found

    def configuration(self, at: At, value: Any, field: str) -> Doc:
        return check_configuration(value, self.schema(at.ctx, at.place.holder), field)

    def key(self, ctx: Ctx, res: Entry, place: Place) -> str:
        return f"{place.holder.id}:{ctx.params[res.item]}"

    def already(self, ctx: Ctx, place: Place, values: Doc) -> Row | None:
        return ctx.tx.get_row(self.kind, self.new_key(ctx, place, values))

    def new_key(self, ctx: Ctx, place: Place, values: Doc) -> str:
        return f"{place.holder.id}:{self._target(values).id}"

    def fresh(self, ctx: Ctx, place: Place, values: Doc) -> Doc:
        inst = place.holder
        return {
            "integration": inst.data["integration"],
            "installation": inst.id,
            "configuration": {},
            "status": status({}, self.schema(ctx, inst)),
            "externalIds": [],
        }

    def parent(self, ctx: Ctx, place: Place, values: Doc) -> str | None:
        return self._target(values).id

    def change(self, ctx: Ctx, res: Entry, place: Place, row: Row, values: Doc) -> Row:
        data = {**row.data, **values}
        if "configuration" in values:
            data["status"] = status(values["configuration"], self.schema(ctx, place.holder))
        ctx.tx.update(row.kind, row.id, data)
        return reload(ctx, row)

    def seeded_key(self, res: Entry, place: Place, item: Doc) -> str:
        return f"{place.holder.id}:{self._ident(item)}"

    def seeded(self, at: Loading, res: Entry, place: Place, item: Doc) -> Doc | None:
        """An installation as a snapshot read it (a target by id, or `extended`, whole)."""
        data = {"integration": place.holder.data["integration"], "installation": place.holder.id}
        return {**data, **kept(item, ("status", "configuration", "externalIds"))}

    def seeded_parent(self, place: Place, item: Doc) -> str | None:
        return self._ident(item)

    def _target(self, values: Doc) -> Row:
        found: Row = values[self.body_field]
        return found

    def _ident(self, item: Doc) -> str:
        target = item[self.name]
        return str(target["id"] if isinstance(target, dict) else target)


def _level(id_param: str, rules: TargetRules) -> Resource:
    name = rules.name
    installs = Text(
        rules.body_field, ops=CREATE, required=CREATE, stored=False, resolve=rules.target
    )
    return Resource(
        rules.kind,
        f"{INSTALLATIONS.item_at}/{name}s",
        id_param,
        rules.shown,
        missing=f"Integration {{integrationName!r}} is not installed on {name} {{id!r}}",
        scope=Within(INSTALLATIONS, link="installation"),
        body=Body(
            (
                installs,
                Field("configuration", ops=UPDATE, nullable=BOTH, resolve=rules.configuration),
                Field("externalIds", ops=UPDATE, nullable=BOTH, resolve=_external_ids),
            )
        ),
        rules=rules,
        access=ADMIN,
        location=f"{INSTALLATIONS.item_at.removeprefix('/v1')}/{name}s/{{parent}}",
        stamps=(),
        snapshot=(),
        loaded=("list",),
    )


def _external_ids(at: At, value: Any, name: str) -> list[str]:
    return external_ids(value)


SITES = _level("siteId", TargetRules("site", ON_SITE, "siteId", _site, site_view))
SPACES = _level("spaceId", TargetRules("space", ON_SPACE, "space", _space, space_view))

routes: list[BaseRoute] = SITES.routes() + SPACES.routes()

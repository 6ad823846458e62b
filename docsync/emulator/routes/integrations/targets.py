"""An installation's sites and spaces: list, install on one, read, configure, uninstall from one.

A site or space of another organization than the installation's is a 404, as one that does not
exist; installing where the integration's target does not reach (a `space` integration on a
site) is a 400. Installing again where it is installed answers that installation (production's
installIntegrationOnSite declares no refusal). The configuration is checked against the
integration's schema at the site or space level.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator import site_tree as tree
from docsync.emulator.auth import Access
from docsync.emulator.errors import bad_request, not_found
from docsync.emulator.http import Ctx, api_route, created, empty, ok
from docsync.emulator.integrations import (
    ON_SITE,
    ON_SPACE,
    check_configuration,
    installation,
    integration,
    on_rows,
    on_view,
    status,
)
from docsync.emulator.paging import paginate, query_bool
from docsync.emulator.refs import live_space
from docsync.emulator.site_views import site_view
from docsync.emulator.snapshot import Loading, items, kept
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import Fields
from docsync.emulator.views import space_view

BASE = "/v1/integrations/{integrationName}/installations/{installationId}"


@dataclass(frozen=True)
class Level:
    """Sites or spaces: the rows, the path's id, the body's field, the view of the target."""

    name: str  # "site" or "space"
    kind: str
    id_param: str
    body_field: str
    find: Callable[[Ctx, str, str], Row | None]
    view: Callable[[Ctx, Row], Doc]

    @property
    def list_path(self) -> str:
        return f"{BASE}/{self.name}s"

    @property
    def item_path(self) -> str:
        return f"{self.list_path}/{{{self.id_param}}}"

    def target(self, ctx: Ctx, inst: Row, ident: str) -> Row:
        found = self.find(ctx, str(inst.org), ident)
        if found is None:
            raise not_found(f"No {self.name} {ident!r} in organization {inst.org!r}")
        return found

    def shown(self, ctx: Ctx, row: Row) -> Doc:
        """The installation, its target by id unless `extended` asks for the object."""
        if not query_bool(ctx, "extended"):
            return on_view(ctx, row, self.name, str(row.parent))
        target = self.find(ctx, str(row.org), str(row.parent))
        assert target is not None  # a deleted target takes its installations with it
        return on_view(ctx, row, self.name, self.view(ctx, target))

    def schema(self, ctx: Ctx, inst: Row) -> Doc | None:
        found = integration(ctx, inst.data["integration"])
        if found.data["target"] not in ("all", self.name):
            raise bad_request(
                f"{self.body_field}: integration {found.id!r} installs on "
                f"{found.data['target']} targets, not on {self.name}s"
            )
        schema: Doc | None = found.data["configurations"].get(self.name)
        return schema

    def row(self, ctx: Ctx, inst: Row) -> Row:
        found = ctx.tx.get_row(self.kind, f"{inst.id}:{ctx.params[self.id_param]}")
        if found is None:
            raise not_found(
                f"Integration {inst.data['integration']!r} is not installed on "
                f"{self.name} {ctx.params[self.id_param]!r}"
            )
        return found

    # -- handlers ------------------------------------------------------------------------------
    def listing(self, ctx: Ctx) -> Response:
        inst = installation(ctx)
        rows = on_rows(ctx.tx, self.kind, inst)
        return paginate(ctx, rows, lambda page: [self.shown(ctx, row) for row in page])

    def install(self, ctx: Ctx) -> Response:
        inst = installation(ctx, Access.ADMIN)
        body = Fields(ctx.body(), (self.body_field,))
        ident = body.string(self.body_field, required=True)
        assert ident is not None
        target = self.target(ctx, inst, ident)
        schema = self.schema(ctx, inst)
        key = f"{inst.id}:{target.id}"
        if ctx.tx.get_row(self.kind, key) is None:
            data: Doc = {
                "integration": inst.data["integration"],
                "installation": inst.id,
                "configuration": {},
                "status": status({}, schema),
                "externalIds": [],
            }
            ctx.tx.insert(self.kind, key, data, org=inst.org, parent=target.id)
        row = ctx.tx.get_row(self.kind, key)
        assert row is not None
        location = ctx.url(f"{self.list_path.removeprefix('/v1')}/{target.id}")
        location = location.format(integrationName=inst.data["integration"], installationId=inst.id)
        return created(self.shown(ctx, row), location)

    def get(self, ctx: Ctx) -> Response:
        return ok(self.shown(ctx, self.row(ctx, installation(ctx))))

    def update(self, ctx: Ctx) -> Response:
        inst = installation(ctx, Access.ADMIN)
        row = self.row(ctx, inst)
        raw = ctx.body()
        body = Fields(raw, ("configuration", "externalIds"))
        data = dict(row.data)
        if body.has("configuration"):
            schema = self.schema(ctx, inst)
            data["configuration"] = check_configuration(
                raw["configuration"], schema, "configuration"
            )
            data["status"] = status(data["configuration"], schema)
        if body.has("externalIds"):
            ids = raw["externalIds"]
            if (
                not isinstance(ids, list)
                or len(ids) > 5
                or not all(isinstance(i, str) for i in ids)
            ):
                raise bad_request("externalIds: at most 5 strings")
            data["externalIds"] = ids
        ctx.tx.update(self.kind, row.id, data)
        return ok(self.shown(ctx, tree.reload(ctx.tx, row)))

    def uninstall(self, ctx: Ctx) -> Response:
        """205 when it uninstalled, 204 when it was not installed there."""
        inst = installation(ctx, Access.ADMIN)
        key = f"{inst.id}:{ctx.params[self.id_param]}"
        return empty(205 if ctx.tx.delete(self.kind, key) else 204)

    def load(self, at: Loading, params: dict[str, str], answer: Any) -> None:
        """An installation's sites or spaces as a snapshot read them (a target by id, or
        `extended`, whole)."""
        inst = params["installationId"]
        for item in items(answer):
            target = item[self.name]
            ident = str(target["id"] if isinstance(target, dict) else target)
            data = {"integration": params["integrationName"], "installation": inst}
            data.update(kept(item, ("status", "configuration", "externalIds")))
            at.put(self.kind, f"{inst}:{ident}", data, parent=ident)

    def routes(self) -> list[BaseRoute]:
        return [
            api_route("GET", self.list_path, self.listing, loads=self.load),
            api_route("POST", self.list_path, self.install),
            api_route("GET", self.item_path, self.get),
            api_route("PATCH", self.item_path, self.update),
            api_route("DELETE", self.item_path, self.uninstall),
        ]


def _site(ctx: Ctx, org: str, ident: str) -> Row | None:
    found = ctx.tx.get_row(tree.SITE, ident)
    return found if found is not None and found.org == org else None


def _space(ctx: Ctx, org: str, ident: str) -> Row | None:
    return live_space(ctx.tx, org, ident)


SITES = Level("site", ON_SITE, "siteId", "siteId", _site, site_view)
SPACES = Level("space", ON_SPACE, "spaceId", "space", _space, space_view)

routes: list[BaseRoute] = SITES.routes() + SPACES.routes()

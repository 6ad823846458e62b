"""Declared values an item holds one of: a table entry, its routes made from it.

A site's customization, its agent settings, its visitor attributes schema, its publishing auth,
a site space's customization override, the organization's agent instructions: each is one value
at `<item>/<name>`, read (`GET`), replaced whole (`PUT`), changed (`PATCH`) or removed
(`DELETE`), and stored in the holder's row (`stored_in`), so that it goes with it. A `Singleton`
says whose item holds it (the `Resource` entry whose scope finds that item), the view it
answers, the body a write takes (`body.Body`: its fields, or one declared shape), the stamps a
write adds, and how a snapshot's answer of it is stored back. What one does that the table
cannot say is its own `Held` rules (a publishing auth made on first use, an override merged
field by field). Its `action`s and `read`s hang off its path (`.../publishing/auth/regenerate`,
`.../structure/sort`, `.../adaptive-schema/template-conditions`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from docsync.emulator.auth import Access
from docsync.emulator.body import At, Body, Place, read_body
from docsync.emulator.errors import not_found
from docsync.emulator.http import Ctx, api_route, empty, ok
from docsync.emulator.resource import Resource
from docsync.emulator.rules import Codes, reload
from docsync.emulator.snapshot import Loader, Loading
from docsync.emulator.store import Doc, Row

HeldOp = Literal["get", "put", "patch", "delete"]
#: the holder and the value it holds (None: nothing written) -> the answer
HeldView = Callable[[Ctx, Row, Doc | None], Doc]
#: what a write stamps, by the stamp's name
_STAMPS: dict[str, Callable[[Ctx], str]] = {
    "updatedAt": lambda ctx: ctx.now,
    "updatedBy": lambda ctx: str(ctx.user["id"]),
}


class Held:
    """The hooks of a held value, each with the common behaviour."""

    def asked(self, ctx: Ctx) -> None:
        """The query a read takes, checked (a customization's deprecated `unmasked`)."""

    def current(self, ctx: Ctx, one: Singleton, holder: Row) -> Doc | None:
        """What the holder holds (None: nothing written)."""
        found = holder.data.get(one.stored_in)
        return found if isinstance(found, dict) else None

    def written(
        self, ctx: Ctx, one: Singleton, holder: Row, current: Doc | None, values: Doc, op: HeldOp
    ) -> Doc | None:
        """What a write stores: a PUT the body's values, a PATCH them over what is there, with
        the table's stamps."""
        base = dict(current or {}) if op == "patch" else {}
        return {**base, **values, **{stamp: _STAMPS[stamp](ctx) for stamp in one.stamps}}

    def seeded(
        self, at: Loading, one: Singleton, params: dict[str, str], answer: Any
    ) -> Doc | None:
        """The holder's changes for what a snapshot read of the value (None: none): the answer,
        kept whole."""
        return {one.stored_in: answer} if isinstance(answer, dict) else None


@dataclass(frozen=True)
class Singleton:
    """A value one item holds one of: its table entry."""

    #: the entry whose item holds it, found by its scope (404 as that entry's)
    of: Resource
    #: its path after the item's ("customization", "publishing/auth")
    name: str
    view: HeldView
    #: the holder's data field it is stored in
    stored_in: str = ""
    body: Body = field(default_factory=Body)
    rules: Held = field(default_factory=Held)
    operations: tuple[HeldOp, ...] = ("get", "put")
    #: what its writes need (reading needs membership alone)
    access: Access = Access.CONTENT
    #: the stamps a write adds (`updatedAt`, `updatedBy`)
    stamps: tuple[str, ...] = ()
    #: the 404 of a read of nothing written, with `{id}` (the holder's); empty: its view answers
    missing: str = ""
    #: a snapshot's answer of it is loaded back (`Held.seeded`)
    snapshot: bool = True
    codes: Codes = field(default_factory=Codes)

    @property
    def path(self) -> str:
        return f"{self.of.item_at}/{self.name}"

    @property
    def kind(self) -> str:
        """Its name in handlers' names (`get_site_customization`)."""
        return f"{self.of.kind}-{self.name.replace('/', '-')}"

    def holder(self, ctx: Ctx, access: Access) -> tuple[Place, Row]:
        return self.of.scope.find(ctx, self.of, access)

    def routes(self) -> list[BaseRoute]:
        """Its routes, in the order get, put, patch, delete."""
        serve: dict[HeldOp, Callable[[Ctx], Response]] = {
            "get": self._get,
            "put": lambda ctx: self._write(ctx, "put"),
            "patch": lambda ctx: self._write(ctx, "patch"),
            "delete": self._delete,
        }
        loads: Loader | None = self._load if self.snapshot else None
        return [
            self._made(op.upper(), self.path, serve[op], op, loads if op == "get" else None)
            for op in ("get", "put", "patch", "delete")
            if op in self.operations
        ]

    def action(
        self,
        suffix: str,
        apply: Callable[[Ctx, Place, Row], Response],
        *,
        method: str = "POST",
    ) -> BaseRoute:
        """`POST <path>/<suffix>` (or `method`): a change of the value or of what its holder
        holds (a new private key, an item of the structure moved), with what its writes need."""

        def handler(ctx: Ctx) -> Response:
            return apply(ctx, *self.holder(ctx, self.access))

        return self._made(method, f"{self.path}/{suffix}", handler, suffix)

    def read(self, suffix: str, view: HeldView) -> BaseRoute:
        """`GET <path>/<suffix>`: another view of the value (the conditions a schema gives)."""

        def handler(ctx: Ctx) -> Response:
            _, holder = self.holder(ctx, Access.READ)
            return ok(view(ctx, holder, self.rules.current(ctx, self, holder)))

        return self._made("GET", f"{self.path}/{suffix}", handler, suffix)

    def _made(
        self,
        method: str,
        path: str,
        handler: Callable[[Ctx], Response],
        what: str,
        loads: Loader | None = None,
    ) -> Route:
        def named(ctx: Ctx) -> Response:
            return handler(ctx)

        named.__name__ = f"{what.replace('-', '_')}_{self.kind.replace('-', '_')}"
        route = api_route(method, path, named, loads=loads)
        route.entry = self  # type: ignore[attr-defined]
        return route

    # -- operations ------------------------------------------------------------------------
    def _get(self, ctx: Ctx) -> Response:
        _, holder = self.holder(ctx, Access.READ)
        self.rules.asked(ctx)
        value = self.rules.current(ctx, self, holder)
        if value is None and self.missing:
            raise not_found(self.missing.format(id=holder.id))
        return ok(self.view(ctx, holder, value))

    def _write(self, ctx: Ctx, op: HeldOp) -> Response:
        place, holder = self.holder(ctx, self.access)
        values = read_body(self.body, At(ctx, place, holder), "update")
        current = self.rules.current(ctx, self, holder)
        value = self.rules.written(ctx, self, holder, current, values, op)
        return ok(self.view(ctx, self.store(ctx, holder, value), value))

    def _delete(self, ctx: Ctx) -> Response:
        """205 when there was a value, 204 when there was none."""
        _, holder = self.holder(ctx, self.access)
        if not self.rules.current(ctx, self, holder):
            return empty(self.codes.absent)
        self.store(ctx, holder, None)
        return empty(self.codes.deleted)

    def store(self, ctx: Ctx, holder: Row, value: Doc | None) -> Row:
        """Keep `value` in the holder's row; the holder as it is then."""
        ctx.tx.update(holder.kind, holder.id, {**reload(ctx, holder).data, self.stored_in: value})
        return reload(ctx, holder)

    def _load(self, at: Loading, params: dict[str, str], answer: Any) -> None:
        changes = self.rules.seeded(at, self, params, answer)
        if changes is not None:
            at.patch(self.of.kind, params[self.of.item], changes)

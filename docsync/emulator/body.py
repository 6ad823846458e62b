"""The fields a resource's create and update bodies take, declared once per resource.

A `Field` says where the body may carry it (`ops`), where it is required or may be null, its
default on create, and whether it is stored under its own name; its subclass says its type and
limits (`Text(max_len=50)`, `Choice(ROLES)`), and `Shaped` holds any declared shape
(`shapes.py`: an integer, an array of objects, a localized text...), kept as the shape keeps it.
`read_body` checks a body against them, in their order, so the first problem is the first
field's (every message names the field). What the store says of a value (a team that must
exist, a member given by email) is the field's `resolve` hook, run where the field is read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal

from docsync.emulator.errors import ApiError
from docsync.emulator.http import Ctx
from docsync.emulator.shapes import Shape
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import Fields

Op = Literal["create", "update"]
BOTH: frozenset[Op] = frozenset(("create", "update"))
CREATE: frozenset[Op] = frozenset(("create",))
UPDATE: frozenset[Op] = frozenset(("update",))
NONE: frozenset[Op] = frozenset()
#: a field without a default on create
ABSENT: Any = object()


@dataclass(frozen=True)
class Place:
    """Where a request's resources are: the organization, the site of a site's parts, and the
    item of another resource they are nested in (a team's members, a space's grants)."""

    org: str
    site: Row | None = None
    within: Row | None = None

    @property
    def site_row(self) -> Row:
        """The site, for a site's part."""
        assert self.site is not None
        return self.site

    @property
    def holder(self) -> Row:
        """The item they are nested in."""
        assert self.within is not None
        return self.within

    @property
    def parent(self) -> str | None:
        """The parent id of what is created here (None at the organization's level)."""
        if self.within is not None:
            return self.within.id
        return None if self.site is None else self.site.id


@dataclass(frozen=True)
class At:
    """What a field's `resolve` hook knows: the request, the place, the row being updated."""

    ctx: Ctx
    place: Place
    row: Row | None = None


Resolve = Callable[[At, Any, str], Any]


@dataclass(frozen=True)
class Field:
    """One field of a body, read with `validate.Fields` (400 naming it); as such, any JSON
    value, which its `resolve` hook checks."""

    name: str
    ops: frozenset[Op] = BOTH
    required: frozenset[Op] = NONE
    nullable: frozenset[Op] = NONE
    default: Any = ABSENT
    #: kept in the row's data (under `store_as`, else its name); False: only the resource's
    #: rules read it
    stored: bool = True
    store_as: str = ""
    #: what the value becomes given the store (an id looked up, a member resolved)
    resolve: Resolve | None = None
    #: a field of the API description's body alone: production's body does not name it, so in
    #: production's mode it is ignored, as any other such field
    description_only: bool = False

    #: the `validate.Fields` reader of its type; a subclass's own fields are its limits
    reader: ClassVar[str] = "value"

    def get(self, body: Fields, required: bool, nullable: bool) -> Any:
        limits = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in _COMMON}
        read = getattr(body, self.reader)
        return read(self.name, required=required, nullable=nullable, **limits)


_COMMON = frozenset(f.name for f in fields(Field))


@dataclass(frozen=True)
class Text(Field):
    reader = "string"
    min_len: int | None = None
    max_len: int | None = None
    pattern: str | None = None


@dataclass(frozen=True)
class Choice(Field):
    reader = "enum"
    values: Sequence[str] = ()


@dataclass(frozen=True)
class Flag(Field):
    reader = "boolean"


@dataclass(frozen=True)
class Texts(Field):
    reader = "strings"
    max_len: int | None = None


@dataclass(frozen=True)
class Shaped(Field):
    """A value of a declared shape: checked whole, 400 naming the path inside it."""

    shape: Shape | None = None

    def get(self, body: Fields, required: bool, nullable: bool) -> Any:
        value = body.value(self.name, required=required, nullable=nullable)
        if value is None or self.shape is None:
            return value
        return self.shape.check(value, body.prefix + self.name)


@dataclass(frozen=True)
class Body:
    """A resource's body fields in the order they are checked, and what an empty body is."""

    fields: tuple[Field, ...] = ()
    #: on create, an empty body reads as `{}` (production's body is optional)
    optional_on_create: bool = False
    #: a rule across fields, checked once the names are known good and before any field
    check: Callable[[Fields, Op], None] | None = None
    #: the resource's rules read the body themselves (two shapes on one path): it must be a
    #: JSON object, and no field is read here
    read_whole: bool = False
    #: production's setup choice beside the fields (a channel's `{type, setupSettings}`, a
    #: context connection's `{connector, setupSettings}`), a shape checked on the whole body:
    #: a create is `allOf [setup, fields]`, so it must be one; an update `anyOf [setup,
    #: fields]`, so a body that is none is the fields alone, its setup keys ignored
    setup: Shape | None = None
    #: the body is one declared shape, checked whole and kept as checked (a site's customization
    #: settings), production's own in its mode where it takes more than its document says
    shape: Shape | None = None
    production_shape: Shape | None = None

    def written(self, op: Op, production: bool) -> list[Field]:
        """The fields a create or an update takes, in the order they are checked (a field may
        be declared twice, once per operation, where their orders differ)."""
        return [f for f in self.fields if op in f.ops and not (production and f.description_only)]


def read_body(body: Body, at: At, op: Op) -> Doc:
    """The values of the fields the request's body writes, checked and resolved in order; on
    create, the defaults of the absent ones."""
    ctx = at.ctx
    raw = ctx.body(required=not (op == "create" and body.optional_on_create))
    if body.shape is not None:
        shape = body.production_shape if ctx.production and body.production_shape else body.shape
        return dict(shape.check(raw, ""))
    if body.read_whole:
        return {}
    written = body.written(op, ctx.production)
    fields = Fields(raw, [f.name for f in written])
    if body.check is not None:
        body.check(fields, op)
    values: Doc = _setup(body.setup, raw, op)
    for declared in written:
        required = op in declared.required
        if not fields.has(declared.name) and not required:
            if op == "create" and declared.default is not ABSENT:
                values[declared.name] = declared.default
            continue
        value = declared.get(fields, required, op in declared.nullable)
        if declared.resolve is not None:
            value = declared.resolve(at, value, declared.name)
        values[declared.name] = value
    return values


def _setup(setup: Shape | None, raw: Doc, op: Op) -> Doc:
    """The setup part of a body as kept (`Body.setup`): none without one."""
    if setup is None:
        return {}
    if op == "create":
        return dict(setup.check(raw, ""))
    try:
        return dict(setup.check(raw, ""))
    except ApiError:
        return {}


def stored(body: Body, values: Doc) -> Doc:
    """The values kept in the row's data (the setup's among them)."""
    named = {f.name: f for f in body.fields}
    return {
        (named[name].store_as or name) if name in named else name: value
        for name, value in values.items()
        if name not in named or named[name].stored
    }

"""A managed field of a kind and what a flat kind's plan compares with it.

A field (`Field`: how it reads live, compares and is written) is declared once, on its entry
model's field (`Api`), from which the kind's declaration derives its fields and the answer it
relies on (`Declaration`). A plan compares the written fields that differ from the live ones,
and its actions carry them as their payload."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, get_args

from pydantic import BaseModel
from pydantic import Field as Limits

from docsync.api.answers import Shape
from docsync.core.context import PlanContext, ref
from docsync.core.model import Action, FieldChange
from docsync.core.paths import Path
from docsync.core.payloads import Fields
from docsync.core.state import DesiredResource, LiveResource


def _same(value: Any) -> Any:
    return value


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _unordered(value: Any) -> Any:
    """A value whose lists compare as multisets, however deep (an adaptive schema's `enum`)."""
    if isinstance(value, dict):
        return {key: _unordered(item) for key, item in value.items()}
    if isinstance(value, list):
        return sorted((_unordered(item) for item in value), key=_canonical)
    return value


@dataclass(frozen=True)
class Field:
    """A managed field: how it reads live, how it compares, where it goes when written.

    `ref` names the kind the field refers to: both sides then hold addresses, and the request
    carries the referenced id. `create`/`update` say whether the field travels in the create or
    the update body; a field in neither is written by the kind's own code (a move, a sub-list)."""

    name: str
    ref: str | None = None
    #: a secret: never shown, compared and saved by keyed digest, exported as `env()`
    sensitive: bool = False
    #: a mapping whose text values are secrets unless known to be plain (an integration's
    #: configuration: a key or a label, no one can tell): a value is plain when it is a number
    #: or a flag, or one of the choices its schema lists, on the live side; written plainly,
    #: on the manifest's
    secret_text: bool = False
    #: a value as docsync holds it, on both sides: what is read, and what is written (so also
    #: what is sent: "no emoji" written as null, read as "")
    normalize: Callable[[Any], Any] = _same
    #: what of its value is compared, when not all of it: both sides reduced to it before they
    #: are compared, the value still shown and sent whole; a value write-only in part (a list
    #: of font faces compared by weight and style, the file each names written but answered as
    #: a URL), where `write_only` would leave the whole value uncompared
    compared: Callable[[Any], Any] | None = None
    #: read hook: the value in a live item (default: the item's field of the same name)
    live: Callable[[dict[str, Any]], Any] | None = None
    create: bool = True
    update: bool = True
    #: the name in request bodies, when it is not the manifest's
    wire: str | None = None
    #: where the reference sits inside the written value (`defaultContent: {site: ...}`)
    ref_at: Path = ()
    #: a reference that may name a live resource the manifest does not list, by title (a site
    #: space's `space`): never an offline error
    ref_live: bool = False
    #: a reference resolved among the children of the same parent (a group's `sections`)
    ref_sibling: bool = False
    #: lists whose order carries no meaning here (at any depth): compared as multisets, shown
    #: and sent as written
    unordered: bool = False
    #: the request that writes it, when not the kind's update (method, path template): a
    #: collection's `parent` goes by `POST /v1/collections/{id}/move`
    route: tuple[str, str] | None = None
    #: the API's defaults, which export leaves out: what the API holds when nothing was ever
    #: written (a space's `mergeRules: {type: inherit}`), so an exported manifest says what was
    #: chosen (Terraform's computed defaults)
    api_default: tuple[Any, ...] = ()
    #: written, never read back (an access token; an OpenAPI spec's text source, not its URL
    #: one: a test of the written value): where the API shows nothing, what was written is
    #: taken as what is there; export, which reads, never writes it
    write_only: bool | Callable[[Any], bool] = False
    #: a change the API cannot make in place: the resource is deleted and created again
    #: (Terraform's `ForceNew`; a site's `type`), which `protect: true` forbids
    replace: bool = False
    #: the keys of a mapping whose values are secrets, the rest of it plain (a context
    #: connection's `token` among its `setupSettings`): each never shown, logged or exported
    secret_keys: tuple[str, ...] = ()
    #: a mapping managed key by key (a localized text: a text by language), as Kubernetes'
    #: server-side apply manages a map's keys: only the keys written are managed, each compared
    #: and shown on its own (`localizedTitle.de`); a key written null removes it, the mapping
    #: written null removes every key; a request carries the whole mapping, the live one with
    #: the written keys merged in (`kinds.changes`)
    keyed: bool = False
    #: what each item the API answers must hold at this field (`Opt(TEXT)`), checked as the
    #: kind's list and read routes answer (None: nothing relied on); its name in the answer is
    #: `answered_as` when not the field's (a space's `collection` is answered as `parent`)
    answer: Shape | None = None
    answered_as: str = ""

    def same(self, before: Any, after: Any) -> bool:
        """Whether a live and a desired value are equal for this field."""
        if before is None and self.hides(after):
            return True
        if self.compared is not None:
            before, after = (None if v is None else self.compared(v) for v in (before, after))
        if self.unordered:
            return bool(_unordered(before) == _unordered(after))
        return bool(before == after)

    def hides(self, value: Any) -> bool:
        """Whether the API never shows this written value (`write_only`)."""
        if callable(self.write_only):
            return self.write_only(value)
        return self.write_only

    def read(self, raw: dict[str, Any]) -> Any:
        found = self.normalize(self.live(raw) if self.live else raw.get(self.name))
        if self.keyed:  # absent, or anything but a mapping: no key set
            return dict(found) if isinstance(found, dict) else {}
        return found

    @property
    def wire_name(self) -> str:
        return self.wire or self.name

    def limits(self, **limits: Any) -> Any:
        """This field on its entry model: pydantic's field with `limits` (`default`,
        `max_length`, ...), carrying it as metadata, whence its kind's declaration reads it."""
        info = Limits(**limits)
        info.metadata.append(self)
        return info


#: a managed field declared on its entry model's field, named by it, with pydantic's limits:
#: `label: str | None = Api(answer=TEXT).limits(default=None, max_length=30)`: carried as
#: pydantic metadata until the kind's declaration takes it (`declared_on`), deriving its
#: `fields` and `answer` from the model, the schema unchanged. Not in the annotation
#: (`Annotated[str | None, Api(...)]`), whose text pydantic compiles at every import: about
#: 15 us a field, 0.1 ms a lambda, where the default is compiled once, with its module
Api = partial(Field, "")


def declared_on(entry: type[BaseModel] | None) -> tuple[Field, ...]:
    """The managed fields an entry model declares (`Api`), named, in the model's order; a
    mapping's (`RootModel[dict[str, Item | None]]`: an integration's sites), its items'.

    Read once, then kept on the model, and taken out of pydantic's metadata: the model's
    validator and schema, built when it first validates, never meet them (pydantic handles each
    metadata item it does not know, about 20 us a field and a model built)."""
    if entry is None:
        return ()
    if getattr(entry, "__pydantic_root_model__", False):
        return declared_on(_item_model(entry.model_fields["root"].annotation))
    found: tuple[Field, ...] | None = entry.__dict__.get(_DECLARED)
    if found is None:
        found = tuple(_taken(entry))
        type.__setattr__(entry, _DECLARED, found)
    return found


#: where a model keeps the fields taken from its metadata
_DECLARED = "__docsync_fields__"


def _taken(entry: type[BaseModel]) -> Iterator[Field]:
    """Each field's markers, named, taken out of its metadata."""
    for name, info in entry.model_fields.items():
        markers = [m for m in info.metadata if isinstance(m, Field)]
        if markers:
            info.metadata[:] = [m for m in info.metadata if not isinstance(m, Field)]
            yield from (_named(marker, name) for marker in markers)


def _item_model(mapping: Any) -> type[BaseModel] | None:
    """The model of a mapping's values (`dict[str, Item | None]`), if they are one."""
    values = get_args(mapping)[-1:]
    for value in (*values, *(get_args(values[0]) if values else ())):
        if isinstance(value, type) and issubclass(value, BaseModel):
            return value
    return None


def _named(marker: Field, name: str) -> Field:
    """A copy of `marker` named `name` (a model's subclasses share its markers): its
    attributes copied, not `dataclasses.replace`, which runs `__init__` again (5.5 against
    0.7 us, for every field of every kind at import)."""
    named = object.__new__(Field)
    named.__dict__.update(marker.__dict__, name=name)
    return named


def plain(value: Any) -> Any:
    """A written value as plain data: a model as its fields written or set (not the `None` of
    those left out), lists and mappings of them likewise; the one place models become values."""
    if isinstance(value, BaseModel):
        return plain(value.model_dump(exclude_none=True))
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


def key_changes(before: Any, after: Any) -> list[tuple[str, Any, Any]]:
    """(key, live value, written value) of each key of a keyed mapping (`Field.keyed`) the
    written one changes: a written key whose value differs (a null one, when the key is there);
    every live key when the whole mapping is written null."""
    live = before if isinstance(before, dict) else {}
    if after is None:
        return [(key, value, None) for key, value in live.items()]
    return [(key, live.get(key), value) for key, value in after.items() if live.get(key) != value]


def merged(before: Any, after: Any) -> dict[str, Any]:
    """A keyed mapping as its request carries it: the live one with the written keys merged in,
    a key written null left out; empty when the whole mapping is written null."""
    found = dict(before) if isinstance(before, dict) and after is not None else {}
    for key, value in (after or {}).items():
        if value is None:
            found.pop(key, None)
        else:
            found[key] = value
    return found


def field_changes(
    fields: Sequence[Field],
    desired: DesiredResource,
    live: LiveResource | None,
    ctx: PlanContext,
    equal: Callable[[Field, Any, Any], bool] = lambda f, before, after: f.same(before, after),
) -> list[FieldChange]:
    """The written fields whose desired value differs from the live one (all, for a create); a
    keyed mapping's keys one by one (`localizedTitle.de`)."""
    out = []
    for f in fields:
        if f.name not in desired.fields:
            continue
        after = desired.fields[f.name]
        before = live.fields.get(f.name) if live else None
        sensitive = f.sensitive or ctx.sensitive((*desired.path, f.name))
        if sensitive:
            ctx.sensitive_fields.add((desired.address, f.name))
            if live is not None:
                ctx.sensitive_fields.add((live.address, f.name))
        if f.keyed:
            for key, was, now in key_changes(before, after):
                out.append(FieldChange(f"{f.name}.{key}", was, now, sensitive))
        elif live is None or not equal(f, before, after):
            out.append(FieldChange(f.name, before, after, sensitive, bool(f.ref)))
    return out


def carried(
    fields: Sequence[Field],
    changes: Sequence[FieldChange],
    desired: DesiredResource,
    live: LiveResource | None,
) -> dict[str, Any]:
    """What the requests of `changes` carry, by field: each change's value (a reference as the
    `$ref` placeholder of its address), and a keyed mapping whose keys change whole: the live
    one with the written keys merged in."""
    by_name = {f.name: f for f in fields}
    out: dict[str, Any] = {}
    for c in changes:
        f = by_name.get(c.field)
        if f is not None:
            out[c.field] = ref(c.after) if f.ref else c.after
            continue
        name = c.field.split(".", 1)[0]
        if name in by_name and by_name[name].keyed:
            out[name] = merged(live.fields.get(name) if live else None, desired.fields[name])
    return out


def fields_of(action: Action) -> Fields:
    """The payload of a flat kind's action (anything else is a bug of the planner)."""
    if not isinstance(action.payload, Fields):
        raise TypeError(f"{action.key}: expected a Fields payload, got {action.payload!r}")
    return action.payload


def same_id(ctx: PlanContext, change: FieldChange) -> bool:
    """Whether a reference's before and after name one live resource (a rename by pinned id
    or `was:`); a list of references (a group's sections) is compared as it is."""
    if not isinstance(change.before, str) or not isinstance(change.after, str):
        return False
    before = ctx.live_id_of(change.before)
    return before is not None and before == ctx.live_id_of(change.after)

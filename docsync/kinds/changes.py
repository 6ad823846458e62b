"""What a flat kind's plan compares: the written fields that differ from the live ones, and
the payload its actions carry."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel

from docsync.core.context import PlanContext, ref
from docsync.core.model import Action, FieldChange
from docsync.core.payloads import Fields
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds.declaration import Field


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

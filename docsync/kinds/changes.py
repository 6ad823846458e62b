"""What a flat kind's plan compares: the written fields that differ from the live ones, and
the payload its actions carry."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel

from docsync.core.context import PlanContext
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


def field_changes(
    fields: Sequence[Field],
    desired: DesiredResource,
    live: LiveResource | None,
    ctx: PlanContext,
    equal: Callable[[Field, Any, Any], bool] = lambda f, before, after: f.same(before, after),
) -> list[FieldChange]:
    """The written fields whose desired value differs from the live one (all, for a create)."""
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
        if live is None or not equal(f, before, after):
            out.append(FieldChange(f.name, before, after, sensitive, bool(f.ref)))
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

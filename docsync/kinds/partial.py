"""Settings objects that the API reads whole and replaces whole (a site's customization, its
agent settings, a site space's override), of which a manifest manages only the fields written.

A setting is *partial* or *whole*. Only the fields written of a partial one are managed: they
are merged into the live object, so production's required keys (`required`) are not asked of
what is written, but of what the merge makes (`report_incomplete`); `null` on one of its fields
removes it, so it is accepted where production's object does without the field. A whole one (an
item of a list, a content reference, a favicon, a font) is one value: written in full, its
required fields required, replacing the live one, `null` only where production takes it.

The tree of such an object: a value by its path (`styling.primaryColor.light`), the live object
with written values merged in, and what a manifest manages of it (`managed`). A part of a site
made of one (`MergedPart`: its customization, its agent settings) is planned as one update
showing each changed field at its path, applied by reading the live object, merging the written
fields in and writing it back whole."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, final

from pydantic import PrivateAttr, model_validator
from pydantic_core.core_schema import ValidatorFunctionWrapHandler

from docsync.api.answers import Obj
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.entries import Model
from docsync.core.model import Action, leaf_change
from docsync.core.nullability import NullChecked
from docsync.core.paths import value_at
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds.kind import PLAN_HOOKS
from docsync.kinds.nested.parts import OnSite, SitePart, at_site, send_under

if TYPE_CHECKING:
    from docsync.api import ApiClient

Leaf = tuple[str, ...]
#: a customization (a site's, a site space's effective one) as the API answers it: an object;
#: only the fields a manifest writes are compared
ANSWER = Obj({})
#: answered by the API, refused in a PUT's body
READ_ONLY = ("updatedAt",)


def writable(found: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in found.items() if k not in READ_ONLY}


def live_customization(site: LiveResource | None) -> dict[str, Any] | None:
    found = site.raw.get("_customization") if site is not None else None
    return found if isinstance(found, dict) else None


def known_fields(
    found: dict[str, Any], model: type[Setting], prefix: str = ""
) -> tuple[dict[str, Any], list[str]]:
    """What a manifest can write of a live object (`model`'s fields, walked into its partial
    settings), and the dotted paths of the fields it does not know (production answers more
    than its document says: applying carries them, as the merge starts from the live object)."""
    out: dict[str, Any] = {}
    unknown: list[str] = []
    for name, value in found.items():
        declared = model.model_fields.get(name)
        if declared is None:
            unknown.append(prefix + name)
            continue
        inner = _partial_setting(declared.annotation)
        if inner is not None and isinstance(value, dict):
            value, more = known_fields(value, inner, f"{prefix}{name}.")
            unknown += more
        out[name] = value
    return out, unknown


def _partial_setting(annotation: Any) -> type[Setting] | None:
    """The partial setting a field holds (`Header | None`), if it holds one."""
    for candidate in (annotation, *getattr(annotation, "__args__", ())):
        if isinstance(candidate, type) and issubclass(candidate, Setting) and not candidate.whole:
            return candidate
    return None


def merged(live: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    """The live customization with the written fields (dotted paths) merged in; a written null
    removes the field; what was read only is left out."""
    out: dict[str, Any] = writable(live)
    for dotted, value in fields.items():
        *parents, last = dotted.split(".")
        node = out
        for part in parents:
            child = node.get(part)
            node[part] = child = dict(child) if isinstance(child, dict) else {}
            node = child
        if value is None:
            node.pop(last, None)
        else:
            node[last] = value
    return out


class Setting(NullChecked, Model):
    """A group of customization settings; remembers the order its fields were written in, so
    that a plan lists them as the manifest does."""

    #: production's required keys of a partial setting, asked of the object the merge makes
    required: ClassVar[tuple[str, ...]] = ()
    #: one value: a leaf of the tree, replaced whole, never merged field by field
    whole: ClassVar[bool] = False
    _written: tuple[str, ...] = PrivateAttr(default=())

    @model_validator(mode="wrap")
    @classmethod
    def _keep_order(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        made = handler(data)
        if isinstance(data, dict) and isinstance(made, Setting):
            made._written = tuple(name for name in data if name in cls.model_fields)
        return made

    def written_names(self) -> tuple[str, ...]:
        return self._written


class Whole(Setting):
    """A setting written in full (see the module's docstring)."""

    whole: ClassVar[bool] = True


def written(value: Any) -> Any:
    """A manifest value as written: settings as mappings of their written fields, in order."""
    if isinstance(value, Setting):
        return {name: written(getattr(value, name)) for name in value.written_names()}
    if isinstance(value, list):
        return [written(item) for item in value]
    if isinstance(value, dict):
        return {key: written(item) for key, item in value.items()}
    return value


def managed(value: Setting, prefix: Leaf = ()) -> dict[Leaf, Any]:
    """Every managed value of a written customization by its path, in the order written: a
    partial setting is walked into its fields, anything else is one value."""
    found: dict[Leaf, Any] = {}
    for name in value.written_names():
        item = getattr(value, name)
        path = (*prefix, name)
        if isinstance(item, Setting) and not item.whole and item.written_names():
            found |= managed(item, path)
        else:
            found[path] = written(item)
    return found


def incomplete(
    written: Setting, before: dict[str, Any], after: dict[str, Any]
) -> list[tuple[Leaf, list[str]]]:
    """The partial settings written that the merge leaves without a key production requires:
    one the live object has not (the fields written make it) or one written as `{}` (which
    replaces it), each with the keys it lacks."""

    def walk(setting: Setting, prefix: Leaf) -> list[tuple[Leaf, list[str]]]:
        found: list[tuple[Leaf, list[str]]] = []
        for name in setting.written_names():
            item = getattr(setting, name)
            if not isinstance(item, Setting) or item.whole:
                continue
            path = (*prefix, name)
            if _at(before, path) is None or not item.written_names():
                made = _at(after, path)
                lacking = [key for key in item.required if key not in (made or {})]
                if lacking:
                    found.append((path, lacking))
            found += walk(item, path)
        return found

    return walk(written, ())


def _at(tree: dict[str, Any], path: Leaf) -> dict[str, Any] | None:
    node: Any = tree
    for part in path:
        node = node.get(part) if isinstance(node, dict) else None
    return node if isinstance(node, dict) else None


def report_incomplete(
    written: Setting,
    before: dict[str, Any],
    changed: dict[Leaf, Any],
    base: tuple[str | int, ...],
    holder: str,
    ctx: PlanContext,
) -> bool:
    """A located problem for each object the merge would leave without a key production
    requires (the PUT or PATCH would be refused); whether there was any."""
    after = merged(before, {".".join(path): value for path, value in changed.items()})
    found = incomplete(written, before, after)
    for path, lacking in found:
        keys = ", ".join(f"`{key}`" for key in lacking)
        dotted = ".".join(path)
        if changed.get(path) == {}:
            said = f"`{dotted}: {{}}` writes it empty"
        else:
            said = f"the {holder} has no `{dotted}` now, so the fields written make one"
        ctx.problem((*base, *path), f"{said}, and production needs {keys} in it: write them too")
    return bool(found)


# -- a part of a site made of one ---------------------------------------------------------------
@dataclass
class MergedFields(OnSite):
    """The written fields to merge into the live object (`{dotted path: value}`, so the payload
    says exactly what is managed); each part has a subclass of its own."""

    fields: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Converted:
    """A value a manifest writes otherwise than the API holds it (agent instructions: text
    written, a document held): how a value, live or written, is compared and shown, and how a
    written one is sent."""

    compared: Callable[[Any], Any]
    sent: Callable[[Any], Any]


class MergedPart(SitePart):
    """Such a part; `section` names its field and the slot of the site's item its read fills
    (`_<section>`). It reads, plans and writes itself from what it declares below."""

    HOOKS: ClassVar[tuple[str, ...]] = ("reads", "export", *PLAN_HOOKS)
    part_payload: ClassVar[type[MergedFields]]
    #: the top-level fields of the API's answer its PUT takes back (None: all but those the API
    #: only answers, `READ_ONLY`)
    put_fields: ClassVar[tuple[str, ...] | None] = None
    #: the values at these paths a manifest writes otherwise than the API holds them
    converted: ClassVar[Mapping[Leaf, Converted]] = {}

    @final
    def writable(self, found: dict[str, Any]) -> dict[str, Any]:
        """What of the API's answer its PUT takes back (`put_fields`)."""
        if self.put_fields is None:
            return writable(found)
        return {k: found[k] for k in self.put_fields if k in found}

    @final
    def compared(self, path: Leaf, value: Any) -> Any:
        """A value at `path`, live or written, as it is compared and shown (`converted`)."""
        found = self.converted.get(path)
        return found.compared(value) if found is not None and value is not None else value

    @final
    def sent(self, path: Leaf, value: Any) -> Any:
        """A written value at `path` as the PUT sends it (`converted`)."""
        found = self.converted.get(path)
        return found.sent(value) if found is not None else value

    @final
    def live_object(self, site: LiveResource | None) -> dict[str, Any] | None:
        found = site.raw.get(f"_{self.section}") if site is not None else None
        return found if isinstance(found, dict) else None

    @final
    async def fetch(self, api: ApiClient, site: dict[str, Any], site_path: str) -> None:
        found = await send_under(api, self.route("read"), site_path)
        site[f"_{self.section}"] = self.writable(found)

    @final
    def plan(
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
    async def execute(self, action: Action, run: RunContext) -> None:
        """Read the live object, merge the written fields in, PUT the whole object: what the
        manifest does not write stays as it is now, not as it was when the plan was made."""
        payload, site_path = action.payload, at_site(action, run)
        assert isinstance(payload, self.part_payload)
        found = await send_under(run.api, self.route("read"), site_path)
        body = merged(self.writable(found), payload.fields)
        await send_under(run.api, self.route("update"), site_path, body)

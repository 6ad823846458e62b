"""What every model of a site's customization shares, and its values used in several groups.

The models follow production's request schemas field by field (`SiteCustomizationSettings` of
`PUT .../customization`, the body of `overrideSiteSpaceCustomizationById`): unknown keys, enums,
formats and limits are refused offline, located, as the API would refuse them at apply.

A setting is *partial* or *whole*. Only the fields written of a partial one are managed: they
are merged into the live object, so production's required keys (`required`) are not asked of
what is written, but of what the merge makes (`customization_complete`); `null` on one of its
fields removes it, so it is accepted where production's object does without the field. A whole
one (an item of a list, a content reference, a favicon, a font) is one value: written in full,
its required fields required, replacing the live one, `null` only where production takes it.
`tests/contract/test_schema_comparison.py` compares every model with production's schemas.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import Field, PrivateAttr, model_validator
from pydantic_core.core_schema import ValidatorFunctionWrapHandler

from docsync.core.context import PlanContext
from docsync.core.entries import Language, Model, Uri, explained
from docsync.core.nullability import NULL, NullChecked
from docsync.kinds.customization_tree import Leaf, merged

#: production's LocalizedString, LocalizedString64, LocalizedString128 (a text by language)
Localized = dict[Language, str]
Localized64 = dict[Language, Annotated[str, Field(max_length=64)]]
Localized128 = dict[Language, Annotated[str, Field(max_length=128)]]

COLOR_PATTERN = explained(
    r"^#(?:[0-9a-fA-F]{3}){1,2}$", "must be a hex colour, like '#0B5FFF' or '#FFF'"
)
Color = Annotated[str, Field(pattern=COLOR_PATTERN)]
Expression = Annotated[str, Field(max_length=1024)]


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


# -- values several groups use --------------------------------------------------------------


class ThemedColor(Setting):
    """A colour per mode; one mode may be written alone."""

    required = ("light", "dark")
    light: Color | None = None
    dark: Color | None = None


class ThemedURL(Setting):
    """An image per mode (a logo); one mode may be written alone."""

    required = ("light", "dark")
    light: Uri | None = None
    dark: Uri | None = None


class WholeThemedURL(Whole):
    """An image per mode, written whole (a favicon's icon)."""

    light: Uri
    dark: Uri


class Tint(Setting):
    required = ("color",)
    color: ThemedColor | None = None


class Favicon(Whole):
    """`{icon: {light, dark}}`, `{emoji}` or `{}` (none): one value, written whole."""

    icon: WholeThemedURL | None = None
    emoji: Annotated[str, Field(max_length=50)] | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Favicon:
        if self.icon is not None and self.emoji is not None:
            raise ValueError("a favicon is an `icon` or an `emoji`, not both")
        return self


class UrlSetting(Setting):
    """A group holding one optional URL (`privacyPolicy`, `socialPreview`)."""

    url: Annotated[Uri | None, NULL] = None


class Flag(Setting):
    """A group of one required flag (`feedback`, `pagination`, `trademark`, ...)."""

    required = ("enabled",)
    enabled: bool | None = None


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

"""Values several groups of a site's customization share (colours per mode, images, a
favicon, flags), as production's request schemas have them (`SiteCustomizationSettings` of
`PUT .../customization`, the body of `overrideSiteSpaceCustomizationById`): unknown keys, enums,
formats and limits are refused offline, located, as the API would refuse them at apply.
`tests/contract/test_schema_comparison.py` compares every model with production's schemas.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from docsync.core.entries import Language, Uri, explained
from docsync.core.nullability import NULL
from docsync.kinds.partial import Setting, Whole

#: production's LocalizedString, LocalizedString64, LocalizedString128 (a text by language)
Localized = dict[Language, str]
Localized64 = dict[Language, Annotated[str, Field(max_length=64)]]
Localized128 = dict[Language, Annotated[str, Field(max_length=128)]]

COLOR_PATTERN = explained(
    r"^#(?:[0-9a-fA-F]{3}){1,2}$", "must be a hex colour, like '#0B5FFF' or '#FFF'"
)
Color = Annotated[str, Field(pattern=COLOR_PATTERN)]


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

"""The groups of a site's customization besides its styling (`header`, `footer`, `themes`,
`ai`, ...), as production's SiteCustomizationSettings has them; and those a site space
overrides, each field `null` to unset its override (overrideSiteSpaceCustomizationById)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from docsync.core.entries import Uri
from docsync.core.nullability import NULL
from docsync.kinds.partial import Setting
from docsync.kinds.presentation.links import ContentLink, ContentRef, FooterGroup, HeaderItem
from docsync.kinds.presentation.values import Localized128, ThemedColor, ThemedURL

Locale = Literal["en", "fr", "es", "zh", "ja", "de", "nl", "no", "pt-br", "ru"]
HeaderPreset = Literal["default", "bold", "contrast", "custom", "none"]
ThemeMode = Literal["light", "dark", "system"]
LinkTarget = Literal["self", "blank"]
PageAction = Literal["assistant", "external-ai", "markdown", "mcp", "git", "pdf"]
Copyright = Annotated[str, Field(max_length=512)]


class Internationalization(Setting):
    """Deprecated by production: the language of the interface's own texts."""

    required = ("locale",)
    locale: Locale | None = None


class Header(Setting):
    required = ("preset", "links")
    preset: HeaderPreset | None = None
    logo: Annotated[ThemedURL | None, NULL] = None
    primaryLink: Annotated[ContentRef | None, NULL] = None
    """Where the site's title or logo leads."""
    backgroundColor: Annotated[ThemedColor | None, NULL] = None
    linkColor: Annotated[ThemedColor | None, NULL] = None
    links: list[HeaderItem] | None = None
    """The whole list of the header's links (one value)."""


class Footer(Setting):
    required = ("groups",)
    logo: Annotated[ThemedURL | None, NULL] = None
    groups: list[FooterGroup] | None = None
    """The whole list of the footer's groups of links (one value)."""
    copyright: Annotated[Copyright | None, NULL] = None


class Announcement(Setting):
    """A banner on every page."""

    required = ("enabled", "message", "style")
    enabled: bool | None = None
    message: str | None = Field(default=None, min_length=2, max_length=128)
    localizedMessage: Annotated[Localized128 | None, NULL] = None
    link: Annotated[ContentLink | None, NULL] = None
    style: Literal["info", "warning", "danger", "success"] | None = None


class Themes(Setting):
    """Light and dark modes."""

    required = ("default", "toggeable")
    default: ThemeMode | None = None
    toggeable: bool | None = None
    """Whether readers may switch between the modes (production's spelling)."""


class Ai(Setting):
    required = ("mode",)
    mode: Literal["none", "search", "assistant"] | None = None
    greeting: Annotated[str | None, NULL] = Field(default=None, max_length=256)
    localizedGreeting: Annotated[Localized128 | None, NULL] = None
    suggestions: Annotated[
        list[Annotated[str, Field(min_length=3, max_length=64)]] | None, NULL
    ] = Field(default=None, max_length=5)
    instructions: Annotated[str | None, NULL] = Field(default=None, max_length=10000)


class PageActions(Setting):
    """The page menu: production's document has the ordered `items`; production answers
    switches instead (`externalAI`, `markdown`, `mcp`), without `items`, and takes both."""

    items: Annotated[list[PageAction] | None, NULL] = None
    """The page menu's actions in order (the first is the main button); empty: no menu."""
    externalAI: Annotated[bool | None, NULL] = None
    """Production's switch: "open in" external AI assistants."""
    markdown: Annotated[bool | None, NULL] = None
    """Production's switch: a page as Markdown."""
    mcp: Annotated[bool | None, NULL] = None
    """Production's switch: connect to the site's MCP server."""


class GitLinks(Setting):
    """Links to the Git repository (production answers it; its document does not have it)."""

    required = ("showEditLink",)
    showEditLink: bool | None = None
    """Whether pages show an "Edit on GitHub/GitLab" link (a Git-synced space's)."""


class ExternalLinks(Setting):
    required = ("target",)
    target: LinkTarget | None = None
    """`self` (the same tab) or `blank` (a new tab)."""


class Insights(Setting):
    required = ("trackingCookie",)
    trackingCookie: bool | None = None


# -- a site space's override: each field null to unset it ----------------------------------


class OverrideInternationalization(Setting):
    required = ("locale",)
    locale: Annotated[Locale | None, NULL] = None


class OverrideAnnouncement(Announcement):
    """A site space's banner: one unit of the override, which takes no null inside it."""

    localizedMessage: Localized128 | None = None
    link: ContentLink | None = None


class OverrideHeader(Setting):
    preset: Annotated[HeaderPreset | None, NULL] = None
    logo: Annotated[ThemedURL | None, NULL] = None
    primaryLink: Annotated[ContentRef | None, NULL] = None
    backgroundColor: Annotated[ThemedColor | None, NULL] = None
    linkColor: Annotated[ThemedColor | None, NULL] = None
    links: Annotated[list[HeaderItem] | None, NULL] = None


class OverrideFooter(Setting):
    logo: Annotated[ThemedURL | None, NULL] = None
    groups: Annotated[list[FooterGroup] | None, NULL] = None
    copyright: Annotated[Copyright | None, NULL] = None


class OverrideThemes(Setting):
    default: Annotated[ThemeMode | None, NULL] = None
    toggeable: Annotated[bool | None, NULL] = None


class OverrideFlag(Setting):
    required = ("enabled",)
    enabled: Annotated[bool | None, NULL] = None


class OverrideExternalLinks(Setting):
    required = ("target",)
    target: Annotated[LinkTarget | None, NULL] = None


class OverrideUrl(Setting):
    url: Annotated[Uri | None, NULL] = None

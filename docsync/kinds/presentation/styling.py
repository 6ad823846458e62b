"""A site's styling (`customization.styling`) and its overridable part for a site space, as
production's schemas have them: enums, colours per mode, code themes, fonts."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag

from docsync.core.entries import Uri
from docsync.core.nullability import NULL
from docsync.kinds.partial import Setting, Whole
from docsync.kinds.presentation.values import ThemedColor, Tint

Theme = Literal["clean", "muted", "bold", "gradient"]
Corners = Literal["straight", "rounded", "circular"]
Depth = Literal["subtle", "flat"]
LinksStyle = Literal["default", "accent"]
Background = Literal["plain", "match"]
IconsStyle = Literal["regular", "solid", "duotone", "light", "thin"]
SearchStyle = Literal["prominent", "subtle"]
SidebarBackground = Literal["default", "filled"]
SidebarList = Literal["default", "pill", "line"]
DefaultFont = Literal[
    "ABCFavorit", "Inter", "Roboto", "RobotoSlab", "OpenSans", "SourceSansPro", "Lato", "Ubuntu",
    "Raleway", "Merriweather", "Overpass", "NotoSans", "IBMPlexSerif", "Poppins", "FiraSans",
]  # fmt: skip
DefaultMonospaceFont = Literal[
    "FiraCode", "IBMPlexMono", "JetBrainsMono", "SourceCodePro", "RobotoMono", "SpaceMono",
    "DMMono", "Inconsolata",
]  # fmt: skip
CodeThemeName = Literal[
    "default-light", "default-dark", "monochrome-light", "monochrome-dark", "andromeeda",
    "aurora-x", "ayu-dark", "catppuccin-frappe", "catppuccin-latte", "catppuccin-macchiato",
    "catppuccin-mocha", "dark-plus", "dracula", "dracula-soft", "everforest-dark",
    "everforest-light", "github-dark", "github-dark-default", "github-dark-dimmed",
    "github-dark-high-contrast", "github-light", "github-light-default",
    "github-light-high-contrast", "gruvbox-dark-hard", "gruvbox-dark-medium", "gruvbox-dark-soft",
    "gruvbox-light-hard", "gruvbox-light-medium", "gruvbox-light-soft", "houston",
    "kanagawa-dragon", "kanagawa-lotus", "kanagawa-wave", "laserwave", "light-plus",
    "material-theme", "material-theme-darker", "material-theme-lighter", "material-theme-ocean",
    "material-theme-palenight", "min-dark", "min-light", "monokai", "night-owl", "nord",
    "one-dark-pro", "one-light", "plastic", "poimandres", "red", "rose-pine", "rose-pine-dawn",
    "rose-pine-moon", "slack-dark", "slack-ochin", "snazzy-light", "solarized-dark",
    "solarized-light", "synthwave-84", "tokyo-night", "vesper", "vitesse-black", "vitesse-dark",
    "vitesse-light",
]  # fmt: skip


class FontSource(Whole):
    url: Uri
    format: Literal["woff2", "woff"] | None = None


class FontFace(Whole):
    weight: int = Field(ge=1, le=1000)
    sources: list[FontSource] = Field(min_length=1)


class FontDefinition(Whole):
    """A font family of your own, with its faces (production's CustomizationFontDefinition)."""

    id: str
    custom: bool
    fontFamily: str = Field(min_length=1, max_length=50)
    fontFaces: list[FontFace] = Field(min_length=1)


def _font_shape(value: Any) -> str:
    return "(name)" if isinstance(value, str) else "(definition)"


#: a font by name, or a definition of one: one value either way
Font = Annotated[
    Annotated[DefaultFont, Tag("(name)")] | Annotated[FontDefinition, Tag("(definition)")],
    Discriminator(_font_shape),
]
MonospaceFont = Annotated[
    Annotated[DefaultMonospaceFont, Tag("(name)")] | Annotated[FontDefinition, Tag("(definition)")],
    Discriminator(_font_shape),
]


class ThemedCodeTheme(Setting):
    required = ("light", "dark")
    light: CodeThemeName | None = None
    dark: CodeThemeName | None = None


class CodeTheme(Setting):
    required = ("default", "openapi")
    default: ThemedCodeTheme | None = None
    """Code blocks."""
    openapi: ThemedCodeTheme | None = None
    """OpenAPI blocks."""


class Sidebar(Setting):
    required = ("background", "list")
    background: SidebarBackground | None = None
    list: SidebarList | None = None


class Styling(Setting):
    """The site's look; only the fields written are managed."""

    required = (
        "theme", "primaryColor", "infoColor", "successColor", "warningColor", "dangerColor",
        "corners", "depth", "links", "font", "monospaceFont", "codeTheme", "background",
        "icons", "sidebar", "search",
    )  # fmt: skip
    theme: Theme | None = None
    primaryColor: ThemedColor | None = None
    tint: Annotated[Tint | None, NULL] = None
    infoColor: ThemedColor | None = None
    successColor: ThemedColor | None = None
    warningColor: ThemedColor | None = None
    dangerColor: ThemedColor | None = None
    corners: Corners | None = None
    depth: Depth | None = None
    links: LinksStyle | None = None
    font: Font | None = None
    headingFont: Annotated[Font | None, NULL] = None
    """null: headings use `font`."""
    monospaceFont: MonospaceFont | None = None
    background: Background | None = None
    """Deprecated by production in favour of `tint`."""
    icons: IconsStyle | None = None
    codeTheme: CodeTheme | None = None
    sidebar: Sidebar | None = None
    search: SearchStyle | None = None


# -- a site space's override: each field null to unset it ----------------------------------


class OverrideCodeTheme(Setting):
    default: Annotated[ThemedCodeTheme | None, NULL] = None
    openapi: Annotated[ThemedCodeTheme | None, NULL] = None


class OverrideSidebar(Setting):
    background: Annotated[SidebarBackground | None, NULL] = None
    list: Annotated[SidebarList | None, NULL] = None


class OverrideStyling(Setting):
    """What a site space may override of its site's styling (no fonts)."""

    theme: Annotated[Theme | None, NULL] = None
    primaryColor: Annotated[ThemedColor | None, NULL] = None
    infoColor: Annotated[ThemedColor | None, NULL] = None
    successColor: Annotated[ThemedColor | None, NULL] = None
    warningColor: Annotated[ThemedColor | None, NULL] = None
    dangerColor: Annotated[ThemedColor | None, NULL] = None
    tint: Annotated[Tint | None, NULL] = None
    corners: Annotated[Corners | None, NULL] = None
    depth: Annotated[Depth | None, NULL] = None
    links: Annotated[LinksStyle | None, NULL] = None
    icons: Annotated[IconsStyle | None, NULL] = None
    sidebar: OverrideSidebar | None = None
    search: Annotated[SearchStyle | None, NULL] = None
    background: Annotated[Background | None, NULL] = None
    codeTheme: OverrideCodeTheme | None = None

"""The shapes of a site's customization as production declares them: `SETTINGS` for the PUT of
a site's settings (SiteCustomizationSettingsInput, every required group present), `OVERRIDE`
for the PATCH of a site space's override (each field nullable: null resets it).

A PUT is kept as written and answered back, so it is checked whole: what the emulator keeps is
always something production's answer schema (SiteCustomizationSettings) takes.
"""

from __future__ import annotations

from collections.abc import Mapping

from docsync.emulator.shapes import (
    Arr,
    Bool,
    Enum,
    Int,
    Localized,
    Nullable,
    Obj,
    OneOf,
    Shape,
    Str,
    url,
)

COLOR = Str(pattern=r"^#(?:[0-9a-fA-F]{3}){1,2}$")
CODE_THEMES = (
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
)  # fmt: skip
FONTS = (
    *("ABCFavorit", "Inter", "Roboto", "RobotoSlab", "OpenSans", "SourceSansPro", "Lato"),
    *("Ubuntu", "Raleway", "Merriweather", "Overpass", "NotoSans", "IBMPlexSerif", "Poppins"),
    "FiraSans",
)
MONOSPACE_FONTS = (
    *("FiraCode", "IBMPlexMono", "JetBrainsMono", "SourceCodePro", "RobotoMono", "SpaceMono"),
    *("DMMono", "Inconsolata"),
)
LOCALES = ("en", "fr", "es", "zh", "ja", "de", "nl", "no", "pt-br", "ru")
PLATFORMS = (
    *("twitter", "instagram", "facebook", "linkedin", "github", "discord", "slack", "youtube"),
    *("tiktok", "reddit", "bluesky", "mastodon", "threads", "medium"),
)
#: production's enumerations of styling, by field
STYLING_ENUMS: dict[str, tuple[str, ...]] = {
    "theme": ("clean", "muted", "bold", "gradient"),
    "corners": ("straight", "rounded", "circular"),
    "depth": ("subtle", "flat"),
    "links": ("default", "accent"),
    "background": ("plain", "match"),
    "icons": ("regular", "solid", "duotone", "light", "thin"),
    "search": ("prominent", "subtle"),
}
COLORS = ("primaryColor", "infoColor", "successColor", "warningColor", "dangerColor")
SIDEBAR = {"background": Enum(("default", "filled")), "list": Enum(("default", "pill", "line"))}
PRESETS = Enum(("default", "bold", "contrast", "custom", "none"))
THEME_MODES = Enum(("light", "dark", "system"))
LINK_TARGETS = Enum(("self", "blank"))


def themed(shape: Shape) -> Obj:
    """A `{light, dark}` pair (CustomizationThemedColor, -URL, -CodeTheme)."""
    return Obj({"light": shape, "dark": shape}, ("light", "dark"))


THEMED_COLOR = themed(COLOR)
THEMED_URL = themed(url())
THEMED_CODE = themed(Enum(CODE_THEMES))
TINT = Obj({"color": THEMED_COLOR}, ("color",))


def _ref(kind: str, key: str, *optional: str) -> Obj:
    fields: dict[str, Shape] = {"kind": Enum((kind,)), key: Str()}
    fields.update((name, Str()) for name in optional)
    return Obj(fields, ("kind", key))


#: production's ContentRef: a reference to content, told apart by `kind`
CONTENT_REF = OneOf(
    (
        _ref("file", "file", "space"),
        _ref("url", "url"),
        _ref("page", "page", "space"),
        _ref("anchor", "anchor", "space", "page"),
        _ref("user", "user"),
        _ref("collection", "collection"),
        _ref("space", "space"),
        _ref("reusable-content", "reusableContent", "space"),
        _ref("tag", "tag", "space"),
        _ref("openapi", "spec"),
    ),
    "a content reference {kind, ...}",
    tag="kind",
)
CONTENT_LINK = Obj(
    {"title": Str(max_len=64), "localizedTitle": Localized(64), "to": CONTENT_REF},
    ("title", "to"),
)
HEADER_ITEM = Obj(
    {
        "title": Str(),
        "localizedTitle": Localized(),
        "style": Enum(("link", "button-primary", "button-secondary")),
        "to": Nullable(CONTENT_REF),
        "links": Arr(CONTENT_LINK),
        "condition": Str(max_len=1024),
    },
    ("title", "links", "to"),
)
FOOTER_GROUP = Obj(
    {"title": Str(), "localizedTitle": Localized(), "links": Arr(CONTENT_LINK)}, ("title", "links")
)
ANNOUNCEMENT = Obj(
    {
        "enabled": Bool(),
        "message": Str(min_len=2, max_len=128),
        "localizedMessage": Localized(128),
        "link": CONTENT_LINK,
        "style": Enum(("info", "warning", "danger", "success")),
    },
    ("enabled", "message", "style"),
)
FAVICON = OneOf(
    (
        Obj({"icon": THEMED_URL}, ("icon",)),
        Obj({"emoji": Str(max_len=50)}, ("emoji",)),
        Obj({}, closed=True),  # production's third option is closed: an empty favicon
    ),
    "{icon: {light, dark}}, {emoji} or {}",
)
FONT_DEFINITION = Obj(
    {
        "id": Str(),
        "custom": Bool(),
        "fontFamily": Str(min_len=1, max_len=50),
        "fontFaces": Arr(
            Obj(
                {
                    "weight": Int(1, 1000),
                    "sources": Arr(
                        Obj({"url": url(), "format": Enum(("woff2", "woff"))}, ("url",)),
                        min_items=1,
                    ),
                },
                ("weight", "sources"),
            ),
            min_items=1,
        ),
    },
    ("id", "custom", "fontFamily", "fontFaces"),
)
FONT = OneOf((Enum(FONTS), FONT_DEFINITION), "a font name or a font definition")
MONOSPACE_FONT = OneOf((Enum(MONOSPACE_FONTS), FONT_DEFINITION), "a font name or definition")
SOCIAL_ACCOUNT = Obj(
    {
        "platform": Enum(PLATFORMS),
        "handle": Str(min_len=1, max_len=128),
        "display": Obj({"footer": Bool(), "header": Bool()}, ("footer", "header")),
    },
    ("platform", "handle", "display"),
)


HEADER: dict[str, Shape] = {
    "preset": PRESETS,
    "logo": THEMED_URL,
    "primaryLink": CONTENT_REF,
    "backgroundColor": THEMED_COLOR,
    "linkColor": THEMED_COLOR,
    "links": Arr(HEADER_ITEM),
}
FOOTER: dict[str, Shape] = {
    "logo": THEMED_URL,
    "groups": Arr(FOOTER_GROUP),
    "copyright": Str(max_len=512),
}


def _flag(name: str, nullable: bool = False) -> Obj:
    return Obj({name: Nullable(Bool()) if nullable else Bool()}, (name,))


STYLING = Obj(
    {
        **{name: Enum(values) for name, values in STYLING_ENUMS.items()},
        **dict.fromkeys(COLORS, THEMED_COLOR),
        "tint": TINT,
        "font": FONT,
        "headingFont": Nullable(FONT),
        "monospaceFont": MONOSPACE_FONT,
        "codeTheme": Obj({"default": THEMED_CODE, "openapi": THEMED_CODE}, ("default", "openapi")),
        "sidebar": Obj(SIDEBAR, tuple(SIDEBAR)),
    },
    (*STYLING_ENUMS, *COLORS, "font", "monospaceFont", "codeTheme", "sidebar"),
)
GROUPS: dict[str, Shape] = {
    "title": Str(min_len=2, max_len=128),
    "localizedTitle": Localized(128),
    "styling": STYLING,
    "internationalization": Obj({"locale": Enum(LOCALES)}, ("locale",)),
    "favicon": FAVICON,
    "header": Obj(HEADER, ("preset", "links")),
    "footer": Obj(FOOTER, ("groups",)),
    "announcement": ANNOUNCEMENT,
    "themes": Obj({"default": THEME_MODES, "toggeable": Bool()}, ("default", "toggeable")),
    "feedback": _flag("enabled"),
    "ai": Obj(
        {
            "mode": Enum(("none", "search", "assistant")),
            "greeting": Str(max_len=256),
            "localizedGreeting": Localized(128),
            "suggestions": Arr(Str(min_len=3, max_len=64), max_items=5),
            "instructions": Str(max_len=10000),
        },
        ("mode",),
    ),
    "advancedCustomization": _flag("enabled"),
    "pageActions": Obj(
        {"items": Arr(Enum(("assistant", "external-ai", "markdown", "mcp", "git", "pdf")))},
        ("items",),
    ),
    "externalLinks": Obj({"target": LINK_TARGETS}, ("target",)),
    "pagination": _flag("enabled"),
    "trademark": _flag("enabled"),
    "privacyPolicy": Obj({"url": url()}),
    "socialPreview": Obj({"url": url()}),
    "socialAccounts": Arr(SOCIAL_ACCOUNT, max_items=10),
    "insights": _flag("trackingCookie"),
}
OPTIONAL_GROUPS = ("title", "localizedTitle", "announcement")
SETTINGS = Obj(GROUPS, tuple(name for name in GROUPS if name not in OPTIONAL_GROUPS))
#: what production answers and takes beyond its document (docs/emulator.md, "Production as it
#: answers": `customization-switches`): the PDF export and Git edit link switches, and page
#: actions as switches, the ordered `items` no longer required
AS_PRODUCTION_ANSWERS: dict[str, Shape] = {
    "pdf": _flag("enabled"),
    "git": _flag("showEditLink"),
    "pageActions": Obj(
        {
            "items": Arr(Enum(("assistant", "external-ai", "markdown", "mcp", "git", "pdf"))),
            "externalAI": Bool(),
            "markdown": Bool(),
            "mcp": Bool(),
        }
    ),
}
PRODUCTION_SETTINGS = Obj(
    {**GROUPS, **AS_PRODUCTION_ANSWERS},
    tuple(name for name in GROUPS if name not in OPTIONAL_GROUPS),
)


def _nullable(fields: Mapping[str, Shape]) -> dict[str, Shape]:
    return {name: Nullable(shape) for name, shape in fields.items()}


OVERRIDE = Obj(
    {
        "title": Nullable(Str(min_len=2, max_len=128)),
        "localizedTitle": Nullable(Localized(128)),
        "styling": Obj(
            {
                **_nullable({name: Enum(values) for name, values in STYLING_ENUMS.items()}),
                **_nullable(dict.fromkeys(COLORS, THEMED_COLOR)),
                "tint": Nullable(TINT),
                "sidebar": Obj(_nullable(SIDEBAR)),
                "codeTheme": Obj(_nullable({"default": THEMED_CODE, "openapi": THEMED_CODE})),
            }
        ),
        "internationalization": Obj({"locale": Nullable(Enum(LOCALES))}, ("locale",)),
        "favicon": Nullable(FAVICON),
        "announcement": ANNOUNCEMENT,
        "header": Obj(_nullable(HEADER)),
        "footer": Obj(_nullable(FOOTER)),
        "themes": Obj(_nullable({"default": THEME_MODES, "toggeable": Bool()})),
        "feedback": _flag("enabled", nullable=True),
        "externalLinks": Obj({"target": Nullable(LINK_TARGETS)}, ("target",)),
        "pagination": _flag("enabled", nullable=True),
        "trademark": _flag("enabled", nullable=True),
        "privacyPolicy": Obj({"url": Nullable(url())}),
        "socialPreview": Obj({"url": Nullable(url())}),
    }
)
#: the parts of an override that are merged field by field (the rest is replaced whole)
MERGED = frozenset(
    {
        *("styling", "styling.sidebar", "styling.codeTheme", "internationalization", "header"),
        *("footer", "themes", "feedback", "externalLinks", "pagination", "trademark"),
        *("privacyPolicy", "socialPreview"),
    }
)
